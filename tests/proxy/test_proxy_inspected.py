"""The proxy forwards only what it inspected: the body upstream is its own
serialisation of the parsed request, duplicate keys are refused, a query string is never
forwarded, request headers go by an allow-list, trailers are refused, big numbers are
refused, and the log holds the route template, never the path or query as sent."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
from typer.testing import CliRunner

from devtools.fixtures.echo_upstream import STEERING, EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.cli import app
from redacto.proxy import ProxyConfig, build_proxy

EMAIL = "jane.doe@example.com"
CARD = "4111111111111111"
CHAT = "/v1/chat/completions"


def chat(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": text}], **extra}


def proxy_with(upstream: EchoUpstream, **config: Any) -> RunningProxy:
    return start_proxy(build_proxy(ProxyConfig(upstream=upstream.url, **config)))


@pytest.fixture
def configured(upstream: EchoUpstream) -> Iterator[RunningProxy]:
    """A proxy with the upstream's own key and one named passthrough header."""
    running = proxy_with(
        upstream, upstream_api_key="sk-upstream-own", pass_headers=("x-tenant", *STEERING)
    )
    yield running
    running.stop()


def raw_post(running: RunningProxy, head: bytes, body: bytes) -> bytes:
    """One request written by hand (what httpx would tidy away), the answer's first bytes."""
    host, port = running.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            piece = connection.recv(65536)
            if not piece:
                break
            answer += piece
    return answer


# 1. The upstream receives the proxy's own serialisation of what it parsed.


@pytest.mark.parametrize(
    "raw",
    [
        b'{"model": "m",   "messages": [{"role": "user", "content": "hello in 2026"}]}',
        b'{"model":"m","messages":[{"role":"user","content":"h\\u0065llo \\/ there"}]}\n\n',
        b'\n {"messages":[{"content":"plain","role":"user"}],"model":"m","temperature":0.50}',
        b'{"model":"m","messages":[{"role":"user","content":"mail jane.doe@example.com"}]}',
    ],
    ids=["spaces", "escapes", "key-order-and-number-spelling", "with-a-value"],
)
def test_the_upstream_receives_the_proxys_own_serialisation_never_the_clients_bytes(
    running: RunningProxy, upstream: EchoUpstream, raw: bytes
) -> None:
    with running.client() as client:
        answer = client.post(CHAT, content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    [forwarded] = upstream.seen_raw
    assert forwarded != raw
    assert forwarded == orjson.dumps(orjson.loads(forwarded))  # compact, as orjson writes it


# 2. Duplicate keys, at any depth.

DUPLICATES = {
    "top-level": b'{"model":"m","model":"m","messages":[{"role":"user","content":"hi"}]}',
    "message": (
        b'{"model":"m","messages":[{"role":"user","content":"mail jane.doe@example.com",'
        b'"content":"hello"}]}'
    ),
    "escaped-key": (
        b'{"model":"m","messages":[{"role":"user","content":"jane.doe@example.com",'
        b'"cont\\u0065nt":"hello"}]}'
    ),
    "content-part": (
        b'{"model":"m","messages":[{"role":"user","content":[{"type":"text",'
        b'"text":"jane.doe@example.com","text":"hi"}]}]}'
    ),
    "json-schema": (
        b'{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function",'
        b'"function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":'
        b'"string","description":"jane.doe@example.com","description":"x"}}}}}]}'
    ),
    "metadata": (
        b'{"model":"m","messages":[{"role":"user","content":"hi"}],'
        b'"metadata":{"team":"jane.doe@example.com","team":"blue"}}'
    ),
}


@pytest.mark.parametrize("raw", DUPLICATES.values(), ids=DUPLICATES.keys())
def test_a_duplicate_key_at_any_depth_is_refused_and_nothing_is_forwarded(
    running: RunningProxy,
    upstream: EchoUpstream,
    caplog: pytest.LogCaptureFixture,
    raw: bytes,
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    with running.client() as client:
        answer = client.post(CHAT, content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "duplicate_key"
    assert upstream.seen_raw == []
    assert EMAIL not in answer.text and EMAIL not in caplog.text


def test_a_large_body_with_a_duplicate_key_is_refused_on_the_scrub_thread_too(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    padding = "word " * 8_000  # over the 16 KiB scrubbed on the loop
    raw = b'{"model":"m","messages":[{"role":"user","content":"%s","content":"%s"}]}' % (
        EMAIL.encode(),
        padding.encode(),
    )
    with running.client() as client:
        answer = client.post(CHAT, content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "duplicate_key"
    assert upstream.seen_raw == []


# 3. Query strings.


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("POST", f"{CHAT}?user=jane.doe%40example.com&card={CARD}"),
        ("POST", f"/v1/completions?user={EMAIL}"),
        ("POST", f"{CHAT}?"),
        ("GET", "/v1/models?owner=jane.doe%40example.com"),
    ],
    ids=["chat", "completions", "empty-query", "models"],
)
def test_a_query_string_is_refused_on_every_forwarded_path(
    running: RunningProxy,
    upstream: EchoUpstream,
    caplog: pytest.LogCaptureFixture,
    method: str,
    target: str,
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    body = orjson.dumps(chat("hello")) if method == "POST" else b""
    head = (
        f"{method} {target} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode()
    answer = raw_post(running, head, body)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"query_string" in answer
    assert upstream.seen_urls == []
    assert "jane.doe" not in caplog.text and CARD not in caplog.text


def test_the_upstream_is_asked_at_the_route_itself(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        assert client.post(CHAT, json=chat("hi")).status_code == 200
        assert client.post("/v1/completions", json={"model": "m", "prompt": "hi"}).is_success
        assert client.get("/v1/models").status_code == 200
    assert upstream.seen_urls == [CHAT.encode(), b"/v1/completions", b"/v1/models"]


# 4. Request headers, by an allow-list.

HOSTILE_HEADERS = {
    "x-user-email": EMAIL,
    "cookie": f"session=1; email={EMAIL}",
    "user-agent": f"MyApp/1.0 ({EMAIL})",
    "authorization": f"Bearer {EMAIL}",
    "x-forwarded-for": "203.0.113.7",
    "referer": f"https://intranet.example/{EMAIL}",
    "origin": "https://intranet.example",
    "accept-language": "de-CH",
    "x-request-id": CARD,
    "openai-organization": "org-jane",
    "content-type": f"application/json; x={EMAIL}",
    "accept": f"application/json, x/{EMAIL}",
}
UPSTREAM_SEES = {b"host", b"content-length", b"content-type", b"accept-encoding"}
"""Every header a POST reaches the upstream with when nothing more is configured."""


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_no_client_header_reaches_the_upstream_unless_allowed(
    running: RunningProxy, upstream: EchoUpstream, stream: bool
) -> None:
    with running.client() as client:
        answer = client.post(CHAT, json=chat("hello", stream=stream), headers=HOSTILE_HEADERS)
        models = client.get("/v1/models", headers=HOSTILE_HEADERS)
    assert answer.status_code == 200 and models.status_code == 200
    posted, listed = upstream.seen_headers
    assert set(posted) == UPSTREAM_SEES, set(posted) - UPSTREAM_SEES
    assert posted[b"content-type"] == b"application/json"
    assert posted[b"accept-encoding"] == b"identity"
    assert set(listed) == {b"host", b"content-length", b"accept-encoding"}
    seen = repr(upstream.seen_headers)
    assert EMAIL not in seen and CARD not in seen and "jane" not in seen


@pytest.mark.parametrize(
    "accept",
    ["application/json", "text/event-stream", "*/*", "application/json, text/event-stream;q=0.9"],
)
def test_an_accept_header_of_plain_media_types_is_forwarded(
    running: RunningProxy, upstream: EchoUpstream, accept: str
) -> None:
    with running.client() as client:
        assert client.post(CHAT, json=chat("hi"), headers={"accept": accept}).status_code == 200
    assert upstream.seen_headers[-1][b"accept"] == accept.encode()


def test_the_upstreams_own_key_replaces_the_clients_credential(
    configured: RunningProxy, upstream: EchoUpstream
) -> None:
    headers = {"authorization": f"Bearer {EMAIL}", "x-tenant": "blue", "x-user-email": EMAIL}
    with configured.client() as client:
        assert client.post(CHAT, json=chat("hi"), headers=headers).status_code == 200
        assert client.get("/v1/models", headers=headers).status_code == 200
    for seen in upstream.seen_headers:
        assert seen[b"authorization"] == b"Bearer sk-upstream-own"
        assert seen[b"x-tenant"] == b"blue"
        assert b"x-user-email" not in seen
    assert EMAIL not in repr(upstream.seen_headers)


def test_a_named_passthrough_header_that_holds_a_value_is_refused(
    configured: RunningProxy, upstream: EchoUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    with configured.client() as client:
        answer = client.post(CHAT, json=chat("hi"), headers={"x-tenant": f"team {EMAIL}"})
        models = client.get("/v1/models", headers={"x-tenant": "SSN 536-22-8741"})
    assert answer.status_code == 422 and models.status_code == 422
    assert answer.json()["error"]["code"] == "personal_data_in_header"
    assert upstream.seen_headers == []
    assert EMAIL not in caplog.text and "536-22-8741" not in caplog.text


def test_the_clients_credential_goes_upstream_only_when_named(upstream: EchoUpstream) -> None:
    running = proxy_with(upstream, pass_headers=("Authorization",))
    try:
        with running.client() as client:
            assert client.post(
                CHAT, json=chat("hi"), headers={"authorization": "Bearer sk-client"}
            ).is_success
    finally:
        running.stop()
    assert upstream.seen_headers[-1][b"authorization"] == b"Bearer sk-client"


@pytest.mark.parametrize(
    "names",
    [("host",), ("content-length",), ("transfer-encoding",), ("x-redacto-conversation",),
     ("bad name",), ("authorization",)],
    ids=["host", "content-length", "transfer-encoding", "conversation", "not-a-token",
         "authorization-beside-the-upstream-key"],
)  # fmt: skip
def test_a_passthrough_header_the_proxy_must_own_is_refused_at_start(
    upstream: EchoUpstream, names: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError):
        build_proxy(
            ProxyConfig(upstream=upstream.url, pass_headers=names, upstream_api_key="sk-own")
        )


def test_a_chunked_body_with_trailer_fields_is_refused(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    body = orjson.dumps(chat("hello"))
    head = (
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    chunked = b"%x\r\n%s\r\n0\r\nX-User-Email: %s\r\n\r\n" % (len(body), body, EMAIL.encode())
    answer = raw_post(running, head, chunked)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"trailer" in answer
    assert upstream.seen_headers == []


def test_a_chunked_body_without_trailers_is_forwarded(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    body = orjson.dumps(chat("hello"))
    head = (
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
    )
    answer = raw_post(running, head, b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def test_an_upstream_answer_the_proxy_cannot_read_is_not_relayed(
    configured: RunningProxy, upstream: EchoUpstream
) -> None:
    with configured.client() as client:
        answer = client.post(CHAT, json=chat(EMAIL), headers={"x-echo-encoding": "gzip"})
    assert answer.status_code == 502
    assert answer.json()["error"]["code"] == "upstream_error"


# 5. Logs: method, route template, status, timing; never the path or query as sent.


@pytest.mark.parametrize("access_log", [False, True], ids=["default", "access-log"])
def test_the_log_holds_the_route_template_never_the_path_or_query_as_sent(
    upstream: EchoUpstream, caplog: pytest.LogCaptureFixture, access_log: bool
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    running = proxy_with(upstream, access_log=access_log)
    try:
        with running.client() as client:
            client.post(f"/v1/embeddings/{EMAIL}?card={CARD}", json=chat("hi"))
            client.get(f"/{EMAIL}")
            client.post(f"{CHAT}?user={EMAIL}", json=chat("hi"))
            client.post(CHAT, json=chat(f"mail {EMAIL}"))
            client.post(CHAT, json={"model": "m", "messages": "x"})
            client.get(f"/health?{EMAIL}")
            client.get("/v1/models")
    finally:
        running.stop()
    # The proxy's own records (the test's HTTP client may log the URL it asked for).
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("redacto")]
    text = "\n".join(messages)
    assert EMAIL not in text and CARD not in text and "jane" not in text
    assert "embeddings" not in text and "?" not in text
    if access_log:
        assert any(m.startswith(f"POST {CHAT} 200 ") for m in messages), messages
        assert any(m.startswith("POST (other) 404 ") for m in messages), messages
        assert any(m.startswith(f"POST {CHAT} 400 ") for m in messages), messages
        assert any(m.startswith("GET /v1/models 200 ") for m in messages), messages


# 6. Numbers that could be a card, an account or an ID number.


@pytest.mark.parametrize(
    "body",
    [
        chat("hi", seed=536228741),
        chat("hi", max_tokens=int(CARD)),
        chat("hi", seed=-536228741),
        chat("hi", temperature=4111111111111111.0),
        chat("hi", logit_bias={"50256": 536228741}),
        chat(
            "hi",
            response_format={
                "type": "json_schema",
                "json_schema": {
                    "name": "pick",
                    "schema": {"type": "integer", "enum": [1, 536228741]},
                },
            },
        ),
        chat(
            "hi",
            tools=[
                {
                    "type": "function",
                    "function": {
                        "name": "f",
                        "parameters": {"type": "object", "default": {"n": 4111111111111111}},
                    },
                }
            ],
        ),
    ],
    ids=["seed", "max_tokens", "negative", "float", "logit-bias", "schema-enum", "schema-deep"],
)
def test_a_number_of_nine_digits_or_more_is_refused(
    running: RunningProxy,
    upstream: EchoUpstream,
    caplog: pytest.LogCaptureFixture,
    body: dict[str, Any],
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    with running.client() as client:
        answer = client.post(CHAT, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "personal_data_in_number"
    assert upstream.seen_raw == []
    assert "536228741" not in caplog.text and CARD not in caplog.text
    assert "536228741" not in answer.text and CARD not in answer.text


def test_ordinary_numbers_are_forwarded(running: RunningProxy, upstream: EchoUpstream) -> None:
    body = chat("hi", seed=12345678, max_tokens=4096, temperature=0.30000000000000004, top_p=0.95)
    body["response_format"] = {
        "type": "json_schema",
        "json_schema": {"name": "n", "schema": {"type": "integer", "maximum": 99999999}},
    }
    with running.client() as client:
        assert client.post(CHAT, json=body).status_code == 200
    assert orjson.loads(upstream.seen_raw[-1]) == body


def test_every_client_header_name_is_dropped_in_a_real_sdk_shape(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    """What the OpenAI Python SDK sends (its x-stainless-* headers name the client's OS,
    runtime and versions): none of it is the upstream's business."""
    headers = {
        "x-stainless-os": "Linux",
        "x-stainless-lang": "python",
        "x-stainless-runtime-version": "3.11.7",
        "x-stainless-retry-count": "0",
        "openai-project": "proj_jane",
    }
    with httpx.Client(base_url=running.url, timeout=10) as client:
        assert client.post(CHAT, json=chat("hi"), headers=headers).status_code == 200
    seen = upstream.seen_headers[-1]
    assert set(seen) == UPSTREAM_SEES | {b"accept"} and seen[b"accept"] == b"*/*"  # httpx's


def test_the_command_refuses_a_passthrough_header_the_proxy_owns() -> None:
    result = CliRunner().invoke(
        app, ["proxy", "--upstream", "http://127.0.0.1:9", "--pass-header", "Host"]
    )
    assert result.exit_code == 2 and "--pass-header Host" in result.output
