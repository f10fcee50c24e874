"""What the proxy relays of the upstream's answer: never a redirect, only the headers of
its allow-list (`redacto/proxy/inbound.py`).

An upstream that answers `307 Location: http://other-host/collect` once had its redirect
passed on, and a client that follows redirects (httpx with `follow_redirects=True`, as
OpenAI-style SDKs set it) sent its own unredacted request to the other host. Here the
upstream is a recording fake that answers every request with canned bytes, and the other
host a second one that must receive nothing — not even a connection.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import orjson
import pytest
from canned_upstream import CannedUpstream, chunked

from devtools.fixtures.running_proxy import RunningProxy, start_proxy, streamed_text
from redacto.proxy import ProxyConfig, build_proxy

EMAIL = "jane.roe@example.com"
PII = f"Please write to {EMAIL} about card 4111 1111 1111 1111."
MARK = "body-of-the-redirect-7f3a"
REDIRECTS = (301, 302, 303, 307, 308)
NOT_RELAYED = (
    "set-cookie",
    "location",
    "content-location",
    "link",
    "refresh",
    "www-authenticate",
    "server",
    "x-internal-host",
    "x-powered-by",
)
STREAMED = pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])


def chat(stream: bool) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": PII}], "stream": stream}


def answer_bytes(status: int, headers: bytes, stream: bool, content: str) -> bytes:
    """A canned answer: whole JSON with a Content-Length, or chunked server-sent events."""
    if stream:
        event = {"choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}]}
        body = chunked(b"data: " + orjson.dumps(event) + b"\n\n", b"data: [DONE]\n\n")
        return (
            b"HTTP/1.1 %d X\r\ncontent-type: text/event-stream\r\n%s"
            b"transfer-encoding: chunked\r\n\r\n%s" % (status, headers, body)
        )
    message = {"role": "assistant", "content": content}
    body = orjson.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
    return b"HTTP/1.1 %d X\r\ncontent-type: application/json\r\n%scontent-length: %d\r\n\r\n%s" % (
        status,
        headers,
        len(body),
        body,
    )


@pytest.fixture
def other_host() -> Iterator[CannedUpstream]:
    server = CannedUpstream.start(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
    )
    yield server
    server.stop()


def proxy_before(upstream: CannedUpstream) -> RunningProxy:
    return start_proxy(build_proxy(ProxyConfig(upstream=upstream.url, read_timeout_s=2.0)))


def post(proxy: RunningProxy, stream: bool) -> tuple[httpx.Response, httpx.Cookies]:
    """The chat request from a client that follows redirects and keeps cookies."""
    with httpx.Client(base_url=proxy.url, timeout=10, follow_redirects=True) as client:
        with client.stream("POST", "/v1/chat/completions", json=chat(stream)) as response:
            response.read()
        return response, client.cookies


@STREAMED
@pytest.mark.parametrize("status", REDIRECTS)
def test_a_redirect_is_a_502_naming_its_status_and_a_following_client_goes_nowhere(
    status: int, stream: bool, other_host: CannedUpstream
) -> None:
    to = f"{other_host.url}/collect".encode()
    headers = b"location: %s\r\nset-cookie: sid=1; Path=/\r\n" % to
    upstream = CannedUpstream.start(answer_bytes(status, headers, stream, MARK))
    proxy = proxy_before(upstream)
    try:
        response, cookies = post(proxy, stream)
    finally:
        proxy.stop()
        upstream.stop()
    assert response.status_code == 502
    assert response.history == []  # nothing to follow
    error = response.json()["error"]
    assert error["code"] == "upstream_status"
    assert str(status) in error["message"]
    assert MARK not in response.text and other_host.url not in response.text
    assert not any(name in response.headers for name in NOT_RELAYED)
    assert not cookies
    assert other_host.connections == 0 and other_host.requests == []
    sent = b"".join(upstream.requests)
    assert b"[EMAIL_1]" in sent and EMAIL.encode() not in sent  # the upstream got it redacted


@pytest.mark.parametrize("status", [101, 304, 399])
def test_a_status_outside_2xx_4xx_5xx_is_a_502_too(status: int) -> None:
    upstream = CannedUpstream.start(answer_bytes(status, b"location: /elsewhere\r\n", False, MARK))
    proxy = proxy_before(upstream)
    try:
        response, _ = post(proxy, stream=False)
    finally:
        proxy.stop()
        upstream.stop()
    assert response.status_code == 502
    assert MARK not in response.text and "location" not in response.headers


@STREAMED
def test_interim_answers_are_skipped_and_the_answer_after_them_relayed(stream: bool) -> None:
    # Taken for the answer, a 103 was relayed as one, and the real answer arrived on a
    # connection already back in the pool, for whichever request took it next.
    interim = (
        b"HTTP/1.1 103 Early Hints\r\nLink: <http://other-host/>; rel=preload\r\n\r\n"
        b"HTTP/1.1 100 Continue\r\n\r\n"
    )
    upstream = CannedUpstream.start(interim + answer_bytes(200, b"", stream, "To [EMAIL_1]."))
    proxy = proxy_before(upstream)
    try:
        first, _ = post(proxy, stream)
        second, _ = post(proxy, stream)  # the same upstream connection, kept alive
    finally:
        proxy.stop()
        upstream.stop()
    for response in (first, second):
        assert response.status_code == 200 and "link" not in response.headers
        text = (
            streamed_text(response.text)
            if stream
            else response.json()["choices"][0]["message"]["content"]
        )
        assert text == f"To {EMAIL}."


def test_a_redirect_of_the_model_list_is_a_502(other_host: CannedUpstream) -> None:
    headers = b"location: %s/v1/models\r\n" % other_host.url.encode()
    upstream = CannedUpstream.start(answer_bytes(302, headers, False, MARK))
    proxy = proxy_before(upstream)
    try:
        with httpx.Client(base_url=proxy.url, timeout=10, follow_redirects=True) as client:
            response = client.get("/v1/models")
    finally:
        proxy.stop()
        upstream.stop()
    assert response.status_code == 502 and "302" in response.json()["error"]["message"]
    assert other_host.connections == 0


ODD_HEADERS = (
    b"X-Request-ID: req-42\r\n"
    b"x-ratelimit-remaining-requests: 99\r\n"
    b"X-RateLimit-Reset-Tokens: 6m0s\r\n"
    b"Retry-After: 3\r\n"
    b"x-ratelimit-limit-tokens: "
    + b"9" * 300
    + b"\r\n"  # over the length bound: dropped
    + b"".join(b"Set-Cookie: s%d=v%d; Path=/\r\n" % (n, n) for n in range(50))
    + b"SET-COOKIE: shouted=1\r\n"
    b"set-cookie2: old=1\r\n"
    b"X-Internal-Host: gpu-node-7.internal\r\n"
    b"x-powered-by: vllm\r\n"
    b"Server: uvicorn\r\n"
    b"Link: <http://other-host/>; rel=preload\r\n"
    b"Location: http://other-host/\r\n"
    b"Content-Location: /v1/elsewhere\r\n"
    b"Refresh: 0;url=http://other-host/\r\n"
    b"WWW-Authenticate: Basic realm=x\r\n"
)


@STREAMED
def test_only_the_allow_listed_headers_of_an_answer_are_relayed(stream: bool) -> None:
    upstream = CannedUpstream.start(answer_bytes(200, ODD_HEADERS, stream, "Sent to [EMAIL_1]."))
    proxy = proxy_before(upstream)
    try:
        response, cookies = post(proxy, stream)
    finally:
        proxy.stop()
        upstream.stop()
    assert response.status_code == 200
    text = (
        streamed_text(response.text)
        if stream
        else response.json()["choices"][0]["message"]["content"]
    )
    assert text == f"Sent to {EMAIL}."  # restored as ever
    assert response.headers["x-request-id"] == "req-42"
    assert response.headers["x-ratelimit-remaining-requests"] == "99"
    assert response.headers["x-ratelimit-reset-tokens"] == "6m0s"
    assert response.headers["retry-after"] == "3"
    assert response.headers["content-type"].startswith(
        "text/event-stream" if stream else "application/json"
    )
    assert "x-ratelimit-limit-tokens" not in response.headers
    assert not any(name in response.headers for name in (*NOT_RELAYED, "set-cookie2"))
    assert not cookies
