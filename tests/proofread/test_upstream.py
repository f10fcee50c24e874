"""The upstream client against a real (fake) server on loopback: streamed pieces, the key
from the environment, and every way an answer can fail, each a clear `UpstreamError`."""

from __future__ import annotations

import json
import socket

import pytest

from fake_upstream import MODEL_ID, Answer
from redacto.proofread.upstream import (
    API_KEY_VARIABLE,
    ProofreadPrompt,
    UpstreamConfig,
    UpstreamError,
    stream_answer,
)

PROMPT = ProofreadPrompt.render("Data analyst who recieved a degree.", "English")


def test_the_answer_streams_in_pieces_and_the_model_is_the_first_listed(upstream, monkeypatch):
    monkeypatch.setenv(API_KEY_VARIABLE, "sk-test-key")
    upstream.answer = Answer(lines=["one", "two"], piece=2)
    pieces = list(stream_answer(UpstreamConfig(upstream.url + "/v1/"), PROMPT))
    assert pieces == ["on", "e\n", "tw", "o\n"]
    models, chat = upstream.requests
    assert models.path == "/v1/models"
    assert chat.path == "/v1/chat/completions"
    assert chat.body["model"] == MODEL_ID and chat.body["stream"] is True
    assert chat.headers["Authorization"] == "Bearer sk-test-key"
    assert "recieved" in chat.text() and "English" in chat.text()


def test_no_key_in_the_environment_sends_no_authorization(upstream, monkeypatch):
    monkeypatch.delenv(API_KEY_VARIABLE, raising=False)
    upstream.answer = Answer(lines=["x"])
    list(stream_answer(UpstreamConfig(upstream.url, model="named"), PROMPT))
    (chat,) = upstream.requests  # a named model: no /v1/models request
    assert chat.body["model"] == "named" and "Authorization" not in chat.headers


def test_a_server_that_ignores_stream_and_answers_whole_is_read_too(upstream):
    upstream.answer = Answer(
        raw=json.dumps(
            {"choices": [{"index": 0, "message": {"content": "a\nb"}, "finish_reason": "stop"}]}
        ).encode(),
        raw_type="application/json",
    )
    assert list(stream_answer(UpstreamConfig(upstream.url, model="m"), PROMPT)) == ["a\nb"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (Answer(status=500), "HTTP 500: the fake says no"),
        (Answer(status=401), "HTTP 401"),
        (Answer(raw=b"<html>Bad gateway</html>"), "broke off"),
        (Answer(raw=b"data: <html>\n\n"), "not a JSON event"),
        (Answer(raw=b'data: {"error": {"message": "overloaded"}}\n\n'), "error mid-stream"),
        (Answer(lines=["one", "two"], break_after=5), "broke off mid-stream"),
        (Answer(lines=["one"], finish=False), "broke off mid-stream"),
        (
            Answer(
                raw=b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}\n\n'
            ),
            "length limit",
        ),
        (Answer(raw=b"{}", raw_type="application/json"), "not a completion"),
    ],
)
def test_every_failure_is_a_clear_upstream_error(upstream, answer, message):
    upstream.answer = answer
    with pytest.raises(UpstreamError, match=message):
        list(stream_answer(UpstreamConfig(upstream.url, model="m"), PROMPT))


def test_an_upstream_that_cannot_be_reached_is_named():
    config = UpstreamConfig(f"http://127.0.0.1:{_closed_port()}", model="m", timeout_s=5)
    with pytest.raises(UpstreamError, match="cannot reach the upstream"):
        list(stream_answer(config, PROMPT))


def test_a_url_that_is_not_http_is_refused():
    with pytest.raises(UpstreamError, match="http:// or https://"):
        UpstreamConfig("ftp://example.org").endpoint("models")
