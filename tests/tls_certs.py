"""Certificates made in the test, for upstreams on loopback that speak TLS: a CA of the
test's own, a server certificate it signed for 127.0.0.1 and localhost, and another CA
that signed nothing (what an untrusted upstream looks like to a client that trusts it).

    certs = make_certs(tmp_path)           # or the `certs` fixture (tests/conftest.py)
    server = certs.server_context()        # for the upstream
    ... UpstreamPool(url, ca_file=str(certs.ca)) ...
"""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Certs:
    ca: Path
    """The CA that signed the server's certificate (PEM): trust it and the upstream is trusted."""
    other_ca: Path
    """A CA that signed nothing here: trusting only it leaves the upstream untrusted."""
    server_cert: Path
    server_key: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.server_cert, self.server_key)
        return context


KEY_USES = (
    "digital_signature", "content_commitment", "key_encipherment", "data_encipherment",
    "key_agreement", "key_cert_sign", "crl_sign", "encipher_only", "decipher_only",
)  # fmt: skip
"""Every flag `x509.KeyUsage` takes; a CA's are `CA_USES`."""
CA_USES = frozenset({"digital_signature", "key_cert_sign", "crl_sign"})


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _ca(common: str) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(**{use: use in CA_USES for use in KEY_USES}), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return cert, key


def make_certs(folder: Path) -> Certs:
    """Write a CA, a server certificate it signed for 127.0.0.1 and localhost, its key, and
    an unrelated CA into `folder`."""
    ca_cert, ca_key = _ca("redacto test CA")
    other_cert, _ = _ca("redacto unrelated CA")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    paths = Certs(
        ca=folder / "ca.pem",
        other_ca=folder / "other-ca.pem",
        server_cert=folder / "server.pem",
        server_key=folder / "server.key",
    )
    paths.ca.write_bytes(ca_cert.public_bytes(pem))
    paths.other_ca.write_bytes(other_cert.public_bytes(pem))
    paths.server_cert.write_bytes(server.public_bytes(pem))
    paths.server_key.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths
