"""An https upstream: the usual deployment puts the self-hosted model behind TLS.

The echo upstream speaks TLS with a certificate signed by a CA made in the test
(`tls_certs`). Trusted through `--upstream-ca` (`ProxyConfig.upstream_ca`) or
`SSL_CERT_FILE`, the proxy replaces the values on the way out and restores them on the way
back, whole and streamed at several piece sizes; untrusted (no CA, or another CA), the
request is answered 502 and nothing reaches the upstream.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from devtools.fixtures.echo_upstream import STEERING, EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy, start_proxy, streamed_text
from redacto.cli import app
from redacto.proxy import ProxyConfig, build_proxy
from tls_certs import Certs

EMAIL = "jane.doe@example.com"
CARD = "4111 1111 1111 1111"
TEXT = f"Write to {EMAIL} about the card {CARD}, please."


@pytest.fixture
def tls_upstream(certs: Certs) -> Iterator[EchoUpstream]:
    server = EchoUpstream.start(tls=certs.server_context())
    yield server
    server.stop()


def _proxy(upstream: EchoUpstream, ca: Path | None = None) -> RunningProxy:
    config = ProxyConfig(
        upstream=upstream.url,
        upstream_ca=str(ca) if ca is not None else None,
        read_timeout_s=5.0,
        pass_headers=STEERING,
    )
    return start_proxy(build_proxy(config))


def _chat(stream: bool = False) -> dict[str, object]:
    return {"model": "m", "stream": stream, "messages": [{"role": "user", "content": TEXT}]}


def _round_trip(running: RunningProxy, upstream: EchoUpstream) -> None:
    """Whole, then streamed at several piece sizes: out redacted, back restored."""
    with running.client() as client:
        whole = client.post("/v1/chat/completions", json=_chat())
        assert whole.status_code == 200, whole.text
        assert whole.json()["choices"][0]["message"]["content"] == TEXT
        for piece in (1, 3, 7, 64):
            streamed = client.post(
                "/v1/chat/completions",
                json=_chat(stream=True),
                headers={"x-echo-piece": str(piece)},
            )
            assert streamed.status_code == 200, streamed.text
            assert streamed_text(streamed.text) == TEXT, piece
    assert len(upstream.seen) == 5
    for body in upstream.seen:
        sent = body["messages"][-1]["content"]
        assert EMAIL not in sent and "4111" not in sent
        assert "[EMAIL_1]" in sent


def test_an_https_upstream_trusted_with_upstream_ca(tls_upstream, certs) -> None:
    assert tls_upstream.url.startswith("https://")
    running = _proxy(tls_upstream, certs.ca)
    try:
        _round_trip(running, tls_upstream)
    finally:
        running.stop()


def test_an_https_upstream_trusted_through_ssl_cert_file(tls_upstream, certs, monkeypatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certs.ca))
    running = _proxy(tls_upstream)
    try:
        _round_trip(running, tls_upstream)
    finally:
        running.stop()


@pytest.mark.parametrize("trusted", ["system store only", "another CA"])
def test_an_untrusted_certificate_is_refused_and_nothing_is_sent(
    tls_upstream, certs, monkeypatch, trusted
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    running = _proxy(tls_upstream, certs.other_ca if trusted == "another CA" else None)
    try:
        with running.client() as client:
            for stream in (False, True):
                answer = client.post("/v1/chat/completions", json=_chat(stream))
                assert answer.status_code == 502, answer.text
                assert "not trusted" in answer.json()["error"]["message"]
                assert EMAIL not in answer.text
            listing = client.get("/v1/models")
            assert listing.status_code == 502
    finally:
        running.stop()
    assert tls_upstream.seen_raw == [] and tls_upstream.seen_urls == []


def test_a_plain_http_client_to_a_tls_upstream_is_no_answer(tls_upstream) -> None:
    """`http://` to a TLS port: the upstream's TLS alert is not HTTP, so 502, not a hang."""
    running = _proxy(EchoUpstream(port=tls_upstream.port))
    try:
        with running.client(timeout=10) as client:
            answer = client.post("/v1/chat/completions", json=_chat())
        assert answer.status_code in (502, 504), answer.text
    finally:
        running.stop()
    assert tls_upstream.seen == []


def test_the_command_refuses_a_ca_file_it_cannot_read(tmp_path) -> None:
    missing = tmp_path / "missing.pem"
    not_pem = tmp_path / "not.pem"
    not_pem.write_text("not a certificate\n", encoding="utf-8")
    for ca in (missing, not_pem):
        result = CliRunner().invoke(
            app,
            ["proxy", "--upstream", "https://127.0.0.1:9", "--upstream-ca", str(ca), "--no-ner"],
        )
        assert result.exit_code == 2, result.output
        assert "upstream CA file" in result.output or "does not exist" in result.output
