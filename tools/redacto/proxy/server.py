"""The proxy's HTTP side: OpenAI-compatible requests in, redacted requests to the upstream,
restored answers back, streamed or whole.

One asyncio event loop (uvloop where installed) serves every client connection; httptools
parses. Model work (the model tier, images) runs on one worker thread, since one engine
answers one call at a time; the rules tier runs inline in microseconds.

Fail closed: a request whose detection fails, whose content cannot be inspected, or whose
image the pipeline cannot vouch for is answered with an error and never forwarded. Logs
name the endpoint, the status, the time and how many values were hidden — never a value.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, cast

import httptools
import orjson

from redacto.proxy.detectors import DetectionFailed
from redacto.proxy.payload import Refused, RequestRedactor
from redacto.proxy.restore import SseRestorer, restore_json, restore_text
from redacto.proxy.upstream import HOP_BY_HOP, UpstreamError, UpstreamPool, UpstreamResponse
from redacto.proxy.vault import Vault, VaultFull, VaultStore

log = logging.getLogger("redacto.proxy")

ENDPOINTS = {b"/v1/chat/completions": "chat", b"/v1/completions": "completion"}
PASS_THROUGH = frozenset({b"/v1/models"})
"""GET endpoints that carry no user text, forwarded as they are."""
CONVERSATION_HEADER = b"x-redacto-conversation"
"""Names the conversation a request continues (`VaultStore.for_request`); never forwarded."""
MAX_BODY = 64 * 1024 * 1024


@dataclass
class _Request:
    method: bytes
    path: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes
    keep_alive: bool

    def header(self, name: bytes) -> bytes | None:
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None


@dataclass
class Proxy:
    """Everything one proxy process holds: the upstream, the vaults, the redactor."""

    upstream: UpstreamPool
    redactor: RequestRedactor
    vaults: VaultStore = field(default_factory=VaultStore)
    access_log: bool = False

    async def handle(self, request: _Request, send: _Sender) -> None:
        started = time.perf_counter()
        status, hidden = 500, 0
        try:
            status, hidden = await self._handle(request, send)
        except Refused as refusal:
            status = refusal.status
            log.warning("refused %s: %s", request.path.decode(errors="replace"), refusal)
            send.whole(status, _error(refusal.answer, refusal.code))
        except UpstreamError as error:
            status = 504 if error.timeout else 502
            log.warning("upstream failed: %s", error)
            code = "upstream_timeout" if error.timeout else "upstream_error"
            send.whole(status, _error(str(error), code))
        except Exception as error:  # a bug must not hang the client, nor log a value
            status = 500
            log.error("internal error: %s", type(error).__name__)
            send.whole(status, _error("internal error, nothing was forwarded", "internal"))
        finally:
            if self.access_log:
                log.info(
                    "%s %s %d %.2f ms hidden=%d",
                    request.method.decode(),
                    request.path.decode(errors="replace"),
                    status,
                    (time.perf_counter() - started) * 1000,
                    hidden,
                )

    async def _handle(self, request: _Request, send: _Sender) -> tuple[int, int]:
        path = request.path.split(b"?", 1)[0]
        if request.method == b"GET" and path == b"/health":
            send.whole(200, b'{"status":"ok"}')
            return 200, 0
        endpoint = ENDPOINTS.get(path)
        if endpoint is None or request.method != b"POST":
            if request.method == b"GET" and path in PASS_THROUGH:
                response = await self.upstream.request(
                    b"GET", request.path, _forwarded_headers(request.headers), b""
                )
                send.whole(response.status, await response.read(), response.headers)
                return response.status, 0
            raise Refused(404, "the proxy forwards POST /v1/chat/completions and /v1/completions")
        body = _json_object(request.body)
        vault = self.vaults.for_request(
            request.header(b"authorization"), request.header(CONVERSATION_HEADER)
        )
        try:
            hidden = await self.redactor.redact(endpoint, body, vault)
        except VaultFull as error:
            raise Refused(413, str(error), "conversation_too_large") from None
        except DetectionFailed as error:
            raise Refused(
                503, f"detection failed, nothing was forwarded: {error}", "detection_failed"
            ) from None
        # Nothing replaced: the client's own bytes go on, unparsed and unchanged.
        forwarded = orjson.dumps(body) if hidden else request.body
        response = await self.upstream.request(
            request.method, request.path, _forwarded_headers(request.headers), forwarded
        )
        await self._answer(response, vault, send)
        return response.status, hidden

    async def _answer(self, response: UpstreamResponse, vault: Vault, send: _Sender) -> None:
        if b"text/event-stream" in response.content_type:
            restorer = SseRestorer(vault) if len(vault) else None
            send.start_stream(response.status, response.headers)
            try:
                async for chunk in response.chunks():
                    if send.transport.is_closing():  # the client left: stop reading
                        response.discard()
                        return
                    send.stream(restorer.feed(chunk) if restorer else chunk)
            except UpstreamError as error:
                log.warning("upstream failed mid-stream: %s", error)
                tail = restorer.close() if restorer else b""
                send.stream(tail + b"data: " + _error(str(error), "upstream_error") + b"\n\n")
            else:
                if restorer:
                    send.stream(restorer.close())
            send.end_stream()
            return
        body = await response.read()
        if len(vault):
            body = _restore_body(body, vault)
        send.whole(response.status, body, response.headers)


def _restore_body(body: bytes, vault: Vault) -> bytes:
    try:
        return orjson.dumps(restore_json(orjson.loads(body), vault))
    except orjson.JSONDecodeError:
        return restore_text(body.decode("utf-8", errors="replace"), vault).encode()


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise Refused(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request body must be a JSON object")
    return body


def _forwarded_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The client's headers less the conversation's name: the upstream must not learn it."""
    return [(name, value) for name, value in headers if name.lower() != CONVERSATION_HEADER]


def _error(message: str, code: str) -> bytes:
    return orjson.dumps({"error": {"message": message, "type": "redacto_proxy", "code": code}})


class _Sender:
    """Writes one response on a client connection: whole, or as a chunked stream."""

    def __init__(self, transport: asyncio.Transport, keep_alive: bool) -> None:
        self.transport = transport
        self.keep_alive = keep_alive
        self.started = False

    def _head(self, status: int, headers: Sequence[tuple[bytes, bytes]], framing: bytes) -> bytes:
        reason = _REASONS.get(status, b"Status")
        lines = [b"HTTP/1.1 %d %s\r\n" % (status, reason)]
        lines.extend(
            name + b": " + value + b"\r\n"
            for name, value in headers
            if name.lower() not in HOP_BY_HOP
        )
        if not any(name.lower() == b"content-type" for name, _ in headers):
            lines.append(b"content-type: application/json\r\n")
        lines.append(framing)
        lines.append(
            b"connection: keep-alive\r\n\r\n" if self.keep_alive else b"connection: close\r\n\r\n"
        )
        return b"".join(lines)

    def whole(self, status: int, body: bytes, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
        if self.started:  # a stream already began: an error can only end it
            self.end_stream()
            return
        self.started = True
        framing = b"content-length: " + str(len(body)).encode() + b"\r\n"
        self.transport.write(self._head(status, list(headers), framing) + body)
        self._done()

    def start_stream(self, status: int, headers: list[tuple[bytes, bytes]]) -> None:
        self.started = True
        self.transport.write(self._head(status, headers, b"transfer-encoding: chunked\r\n"))

    def stream(self, data: bytes) -> None:
        if data:
            self.transport.write(b"%x\r\n%s\r\n" % (len(data), data))

    def end_stream(self) -> None:
        self.transport.write(b"0\r\n\r\n")
        self._done()

    def _done(self) -> None:
        if not self.keep_alive:
            self.transport.close()


_REASONS = {
    200: b"OK",
    400: b"Bad Request",
    404: b"Not Found",
    413: b"Content Too Large",
    422: b"Unprocessable Content",
    500: b"Internal Server Error",
    502: b"Bad Gateway",
    503: b"Service Unavailable",
    504: b"Gateway Timeout",
}


class _ClientConnection(asyncio.Protocol):
    """One client connection: requests parsed as they arrive, answered in order."""

    def __init__(self, proxy: Proxy) -> None:
        self.proxy = proxy
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.queue: asyncio.Queue[_Request | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self._reset()

    def _reset(self) -> None:
        self.url = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.size = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.worker = asyncio.get_running_loop().create_task(self._serve())

    def connection_lost(self, exc: Exception | None) -> None:
        self.queue.put_nowait(None)

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            assert self.transport is not None
            _Sender(self.transport, keep_alive=False).whole(400, _error("bad HTTP", "bad_request"))

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        # curl and others wait for this before sending a body over 1 KB.
        expects = any(
            name.lower() == b"expect" and value.lower() == b"100-continue"
            for name, value in self.headers
        )
        if expects and self.transport is not None:
            self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")

    def on_body(self, body: bytes) -> None:
        self.size += len(body)
        if self.size <= MAX_BODY:
            self.body.append(body)

    def on_message_complete(self) -> None:
        request = _Request(
            method=self.parser.get_method(),
            path=self.url,
            headers=self.headers,
            body=b"".join(self.body) if self.size <= MAX_BODY else b"",
            keep_alive=self.parser.should_keep_alive(),
        )
        too_large = self.size > MAX_BODY
        self._reset()
        self.queue.put_nowait(None if too_large else request)
        if too_large and self.transport is not None:
            _Sender(self.transport, keep_alive=False).whole(
                413, _error("request too large", "too_large")
            )

    async def _serve(self) -> None:
        assert self.transport is not None
        while True:
            request = await self.queue.get()
            if request is None or self.transport.is_closing():
                return
            await self.proxy.handle(request, _Sender(self.transport, request.keep_alive))


def model_worker() -> Callable[[Callable[[], Any]], Any]:
    """A `RunBlocking` on one worker thread: one engine answers one call at a time."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="redacto-model")

    async def run(call: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(executor, call)

    return run


async def serve(proxy: Proxy, host: str, port: int) -> asyncio.Server:
    """Start listening; the caller keeps the loop running."""
    loop = asyncio.get_running_loop()
    return await loop.create_server(
        lambda: _ClientConnection(proxy), host, port, reuse_address=True
    )


def run_forever(
    proxy: Proxy, host: str, port: int, on_ready: Callable[[int], None] | None = None
) -> None:
    """Serve until interrupted, on uvloop where it is installed."""
    try:
        import uvloop

        runner: Callable[[Any], Any] = uvloop.run
    except ImportError:  # pragma: no cover - uvloop is in the proxy extra
        runner = asyncio.run

    async def main() -> None:
        server = await serve(proxy, host, port)
        if on_ready is not None:
            on_ready(server.sockets[0].getsockname()[1])
        async with server:
            await server.serve_forever()

    runner(main())
