"""Stream a proofreading answer from an OpenAI-compatible server (`POST /v1/chat/completions`).

On the upstream client the proxy uses too (`redacto.upstream`: http or https, its SSE
reader, its `UpstreamError`), stepped synchronously: each piece of `delta.content` is
handed on as it arrives, so the caller acts on a line before the next is read. The key
comes from the environment (`REDACTO_UPSTREAM_API_KEY`), never from the command line,
where other users of the machine could read it. Everything that is not a well-formed,
finished stream fails closed with `UpstreamError`: no connection, an untrusted
certificate, an HTTP error, an answer that is not a stream of chat-completion chunks, a
stream that ends without its finish (`finish_reason` or `[DONE]`), an error event, a read
that times out. Messages name the failure, never the text sent or received.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import jinja2

from redacto.host.resources import shipped_dir
from redacto.upstream import (
    DONE,
    SseSplitter,
    UpstreamError,
    UpstreamPool,
    UpstreamResponse,
    event_data,
    event_lines,
    iterate,
)

API_KEY_VARIABLE = "REDACTO_UPSTREAM_API_KEY"
"""The environment variable the upstream's API key is read from (sent as a Bearer token)."""
MAX_ERROR_CHARS = 200
"""How much of an upstream's own error message is repeated (it is the server's text)."""


@dataclass(frozen=True)
class UpstreamConfig:
    """Where the proofreading model is and how long to wait for it."""

    url: str
    """The server's base URL: `http://host:port` or `http://host:port/v1`."""
    model: str | None = None
    """The model to ask for; None: the first one the server lists at `/v1/models`."""
    timeout_s: float = 120.0
    """Seconds to connect, and to wait for each next piece of the answer."""
    ca_file: str | None = None
    """A PEM file to trust for an https upstream, besides the system's CA store and
    `SSL_CERT_FILE` (`--upstream-ca`)."""

    def endpoint(self, name: str) -> tuple[str, str, int, str]:
        """(scheme, host, port, path) of `/v1/<name>` on this server."""
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UpstreamError(f"--upstream must be an http:// or https:// URL, not {self.url!r}")
        base = parts.path.rstrip("/")
        if not base.endswith("/v1"):
            base += "/v1"
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return parts.scheme, parts.hostname, port, f"{base}/{name}"

    def check(self) -> None:
        """Raises `UpstreamError` for a URL that is not http(s) or a CA file that cannot be
        read: known before any OCR or model time."""
        self.pool().close()

    def pool(self) -> UpstreamPool:
        """The upstream client for this server (the proxy's; one request at a time here)."""
        self.endpoint("models")
        parts = urlsplit(self.url)
        try:
            return UpstreamPool(
                urlunsplit((parts.scheme, parts.netloc, "", "", "")),
                connect_timeout=self.timeout_s,
                read_timeout=self.timeout_s,
                ca_file=self.ca_file,
            )
        except ValueError as error:
            raise UpstreamError(str(error)) from None


@dataclass(frozen=True)
class ProofreadPrompt:
    """The system and user messages, from `prompts/proofread/proofread.j2`."""

    system: str
    user: str

    @classmethod
    def render(cls, document: str, language: str | None) -> ProofreadPrompt:
        path = shipped_dir("prompts") / "proofread" / "proofread.j2"
        environment = jinja2.Environment(
            undefined=jinja2.StrictUndefined, keep_trailing_newline=False, autoescape=False
        )
        body = environment.from_string(path.read_text(encoding="utf-8")).render(
            document=document, language=language or ""
        )
        system, _, user = body.partition("<!-- user -->")
        return cls(system.replace("<!-- system -->", "").strip(), user.strip())


def _headers(*, body: bool) -> list[tuple[bytes, bytes]]:
    headers = [(b"Accept", b"text/event-stream")]
    if body:
        headers.append((b"Content-Type", b"application/json"))
    key = os.environ.get(API_KEY_VARIABLE)
    if key:
        headers.append((b"Authorization", f"Bearer {key}".encode()))
    return headers


def first_model(config: UpstreamConfig) -> str:
    """The first model id the server lists at `/v1/models`."""
    with contextlib.closing(iterate(_first_model(config))) as listed:
        return next(listed)


async def _first_model(config: UpstreamConfig) -> AsyncIterator[str]:
    pool = config.pool()
    try:
        path = config.endpoint("models")[3].encode()
        response = await _request(config, pool, b"GET", path, b"")
        body = await response.read(MAX_LISTING)
        if response.status != 200:
            raise UpstreamError(_status_message(response.status, body))
        try:
            listed = json.loads(body).get("data") or []
            ids = [item["id"] for item in listed if isinstance(item, dict) and item.get("id")]
        except (ValueError, RecursionError, AttributeError, TypeError) as error:
            raise UpstreamError("the upstream's /v1/models answer is not a model list") from error
    finally:
        pool.close()
    if not ids:
        raise UpstreamError(
            "the upstream lists no model at /v1/models: name one with --upstream-model"
        )
    yield str(ids[0])


MAX_LISTING = 4 * 1024 * 1024
"""The largest `/v1/models` answer or error body read."""


def stream_answer(config: UpstreamConfig, prompt: ProofreadPrompt) -> Iterator[str]:
    """The answer's text, piece by piece as the server streams it.

    Raises `UpstreamError` (possibly after some pieces) when the stream is not a complete,
    well-formed chat-completions stream.
    """
    model = config.model or first_model(config)
    body = json.dumps(
        {
            "model": model,
            "stream": True,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        },
        ensure_ascii=False,
    ).encode()
    yield from iterate(_stream_answer(config, body))


async def _stream_answer(config: UpstreamConfig, body: bytes) -> AsyncIterator[str]:
    pool = config.pool()
    try:
        path = config.endpoint("chat/completions")[3].encode()
        response = await _request(config, pool, b"POST", path, body)
        if response.status != 200:
            raise UpstreamError(_status_message(response.status, await _read_some(response)))
        kind = response.content_type.split(b";")[0].strip()
        if kind == b"application/json":
            yield _whole_answer(await response.read())
            return
        async for text in _events(response):
            yield text
    finally:
        pool.close()


async def _request(
    config: UpstreamConfig, pool: UpstreamPool, method: bytes, path: bytes, body: bytes
) -> UpstreamResponse:
    try:
        return await pool.request(method, path, _headers(body=bool(body)), body)
    except UpstreamError as error:
        if error.unreachable:
            reason = str(error).removeprefix("the upstream cannot be reached: ")
            raise UpstreamError(f"cannot reach the upstream at {config.url}: {reason}") from None
        raise


async def _events(response: UpstreamResponse) -> AsyncIterator[str]:
    """The content of each chunk of an SSE stream; checks the stream ends as it should."""
    splitter, finished = SseSplitter(), False
    async for piece in _pieces(response):
        for event in splitter.feed(piece):
            payload = event_data(event_lines(event))
            if payload is None:
                continue  # a comment, an event name, or a keep-alive
            if payload.strip() == DONE:
                return
            text, done = _chunk_text(payload)
            finished = finished or done
            if text:
                yield text
    payload = event_data(event_lines(splitter.close()))
    if payload is not None and payload.strip() == DONE:
        finished = True
    if not finished:
        raise UpstreamError("the upstream broke off mid-stream (no finish_reason, no [DONE])")


async def _pieces(response: UpstreamResponse) -> AsyncIterator[bytes]:
    try:
        async for piece in response.chunks():
            yield piece
    except UpstreamError as error:
        if error.timeout:
            raise
        raise UpstreamError("the upstream broke off mid-stream") from None


def _chunk_text(payload: bytes) -> tuple[str, bool]:
    """(the text of one chunk, whether it finished the answer)."""
    try:
        chunk = json.loads(payload)
    except (ValueError, RecursionError):
        raise UpstreamError("the upstream answered something that is not a JSON event") from None
    if not isinstance(chunk, dict):
        raise UpstreamError("the upstream answered something that is not a completion chunk")
    if "error" in chunk:
        raise UpstreamError("the upstream reported an error mid-stream: " + _error_of(chunk))
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        raise UpstreamError("the upstream answered something that is not a completion chunk")
    text, finished = "", False
    for choice in choices:
        if not isinstance(choice, dict) or choice.get("index", 0) != 0:
            continue
        delta = choice.get("delta") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            text += content
        reason = choice.get("finish_reason")
        if reason == "length":
            raise UpstreamError("the upstream's answer was cut at its length limit")
        if reason is not None:
            finished = True
    return text, finished


def _whole_answer(body: bytes) -> str:
    """A server that ignored `stream: true` and sent the whole completion at once."""
    try:
        answer = json.loads(body)
        choice = answer["choices"][0]
        if choice.get("finish_reason") == "length":
            raise UpstreamError("the upstream's answer was cut at its length limit")
        content = choice["message"]["content"]
    except (ValueError, RecursionError, KeyError, IndexError, TypeError, AttributeError):
        raise UpstreamError("the upstream answered something that is not a completion") from None
    if not isinstance(content, str):
        raise UpstreamError("the upstream's completion holds no text")
    return content


async def _read_some(response: UpstreamResponse) -> bytes:
    try:
        return await response.read(MAX_LISTING)
    except UpstreamError:
        return b""


def _status_message(status: int, body: bytes) -> str:
    detail = ""
    with contextlib.suppress(ValueError, RecursionError, TypeError):
        detail = _error_of(json.loads(body))
    return f"the upstream answered HTTP {status}" + (f": {detail}" if detail else "")


def _error_of(value: object) -> str:
    error = value.get("error") if isinstance(value, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return str(message)[:MAX_ERROR_CHARS] if message else "no message"
