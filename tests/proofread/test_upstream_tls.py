"""Proofread's upstream behind TLS: the fake upstream speaks https with a
certificate signed by a CA made in the test (`tls_certs`). Trusted through `--upstream-ca`
or `SSL_CERT_FILE`, the CV goes out with placeholders and the mistakes come back restored
and placed; untrusted, nothing is sent and the run says why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import Result
from test_inputs import CV_TEXT, TEXT_ANSWER
from typer.testing import CliRunner

from cli_runs import script
from cv_pages import ENGLISH_EMAIL, ENGLISH_NAME
from fake_upstream import Answer, FakeUpstream
from redacto.cli import app
from redacto.proofread import MISTAKES_JSON, UpstreamConfig, UpstreamError
from redacto.proofread.upstream import ProofreadPrompt, stream_answer
from tls_certs import Certs

PROMPT = ProofreadPrompt.render("Data analyst who recieved a degree.", "English")


@pytest.fixture
def tls_upstream(certs: Certs) -> Iterator[FakeUpstream]:
    server = FakeUpstream.start(tls=certs.server_context())
    yield server
    server.stop()


def test_the_answer_streams_from_an_upstream_trusted_with_its_ca(tls_upstream, certs):
    assert tls_upstream.url.startswith("https://")
    tls_upstream.answer = Answer(lines=["one", "two"], piece=2)
    config = UpstreamConfig(tls_upstream.url, ca_file=str(certs.ca))
    assert list(stream_answer(config, PROMPT)) == ["on", "e\n", "tw", "o\n"]
    assert [request.path for request in tls_upstream.requests] == [
        "/v1/models",
        "/v1/chat/completions",
    ]


def test_ssl_cert_file_is_honoured(tls_upstream, certs, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", str(certs.ca))
    tls_upstream.answer = Answer(lines=["one"])
    assert "".join(stream_answer(UpstreamConfig(tls_upstream.url, model="m"), PROMPT)) == "one\n"


@pytest.mark.parametrize("ca", [None, "other"])
def test_an_untrusted_certificate_sends_nothing(tls_upstream, certs, monkeypatch, ca):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    config = UpstreamConfig(
        tls_upstream.url, model="m", ca_file=str(certs.other_ca) if ca else None, timeout_s=5
    )
    with pytest.raises(UpstreamError, match=r"cannot reach the upstream .*not trusted"):
        list(stream_answer(config, PROMPT))
    assert tls_upstream.requests == []


def _command(tmp_path, url: str, *extra: str) -> Result:
    """`redacto proofread` on the text CV against `url`, with a scripted detector."""
    source = tmp_path / "cv.txt"
    source.write_text(CV_TEXT, encoding="utf-8")
    model = script(
        tmp_path,
        detect=[f"NAME: {ENGLISH_NAME}", "NONE"],
        redact=["(no rewrite)"],
        validate=["PASS"],
    )
    arguments = ["proofread", str(source), "--out", str(tmp_path / "out"), "--upstream", url]
    arguments += ["--model", model, "--category", "general", "--language", "en", *extra]
    return CliRunner().invoke(app, arguments)


def _written(tmp_path) -> dict[str, Any]:
    return json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))


def test_the_command_with_upstream_ca_hides_the_values_and_restores_the_mistakes(
    tls_upstream, certs, tmp_path, monkeypatch
):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    tls_upstream.answer = Answer(lines=TEXT_ANSWER, piece=4)
    result = _command(tmp_path, tls_upstream.url, "--upstream-ca", str(certs.ca))
    assert result.exit_code == 0, result.output
    written = _written(tmp_path)
    assert written["complete"] is True
    (placed,) = [m for m in written["mistakes"] if m["located"]]
    assert (placed["error_text"], placed["strategy"]) == ("recieved", "context")
    sent = tls_upstream.requests[-1].text()
    assert "[NAME_1]" in sent and ENGLISH_NAME not in sent and ENGLISH_EMAIL not in sent


def test_the_command_without_the_ca_sends_nothing(tls_upstream, tmp_path, monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    tls_upstream.answer = Answer(lines=TEXT_ANSWER)
    result = _command(tmp_path, tls_upstream.url)
    assert result.exit_code == 1, result.output
    written = _written(tmp_path)
    assert written["complete"] is False
    assert written["error"].startswith("nothing was sent: cannot reach the upstream")
    assert "not trusted" in written["error"]
    assert tls_upstream.requests == []


def test_a_ca_file_that_cannot_be_read_is_bad_input(tmp_path):
    not_pem = tmp_path / "not.pem"
    not_pem.write_text("not a certificate\n", encoding="utf-8")
    result = _command(tmp_path, "https://127.0.0.1:9", "--upstream-ca", str(not_pem))
    assert result.exit_code == 2, result.output
    assert "upstream CA file" in result.output
    assert not (tmp_path / "out").exists()
