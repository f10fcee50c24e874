"""Whom the upstream client trusts on an https:// upstream.

The standard library's context, not certifi's bundle: by default the system's CA store
(OpenSSL's default paths, where an operator installs a private CA), and OpenSSL reads
`SSL_CERT_FILE` / `SSL_CERT_DIR` there too; `--upstream-ca FILE` adds one PEM file (a
self-hosted model's own CA or self-signed certificate). Hostnames are checked, TLS 1.2 at
least: what `ssl.create_default_context` gives.
"""

from __future__ import annotations

import ssl
from pathlib import Path


def tls_context(ca_file: str | Path | None = None) -> ssl.SSLContext:
    """A client context that verifies the upstream's certificate and hostname against the
    system's CA store (and `SSL_CERT_FILE`), plus `ca_file` when given.

    Raises `ValueError` when `ca_file` cannot be read as PEM certificates."""
    context = ssl.create_default_context()
    if ca_file is not None:
        try:
            context.load_verify_locations(cafile=str(ca_file))
        except (OSError, ssl.SSLError) as error:
            reason = getattr(error, "strerror", None) or getattr(error, "reason", None) or error
            raise ValueError(f"cannot read the upstream CA file {ca_file}: {reason}") from None
    return context
