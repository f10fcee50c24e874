"""One client connection to the proxy: HTTP/1.1 parsed with httptools, requests answered
in order, and the limits that keep one client from holding the proxy (`Limits`).

- A request's headers must arrive within `header_timeout_s` of its first byte (or of the
  connection's start), its body within `body_timeout_s` of its headers; a kept-alive
  connection idle for `idle_timeout_s` is closed.
- A body whose Content-Length is over `max_body_bytes` is answered 413 at once, before any
  of it is read; a chunked one as soon as it passes the bound. Every connection's bodies
  together stay within `max_bodies_bytes` (`BodyBudget`): past it 503, and what a
  connection held is given back (and let go) when it ends. Headers over
  `max_header_bytes`: 431. Trailer fields after a chunked body: 400 (the parser would add
  them to the headers, after the headers were checked).
- While a request is handled, the connection is not read (a pipelining client waits in its
  socket, not in the proxy's memory).
- Answers are written no faster than the client takes them: a streamed answer waits for
  the client's socket to drain (and the upstream is read no faster, `upstream.BUFFERED`);
  a client that takes nothing for `send_timeout_s` is disconnected.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import cast

import httptools
import orjson

from redacto.proxy.limits import BodyBudget, Limits
from redacto.upstream import HOP_BY_HOP


@dataclass
class Request:
    """One parsed client request."""

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


def error_body(message: str, code: str) -> bytes:
    """An OpenAI-style error body."""
    return orjson.dumps({"error": {"message": message, "type": "redacto_proxy", "code": code}})


class _Rejected(Exception):
    """A request refused while it is being read: answered, then the connection is closed."""

    def __init__(self, status: int, message: str, code: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Sender:
    """Writes one response on a client connection: whole, or as a chunked stream."""

    def __init__(self, connection: ClientConnection, keep_alive: bool) -> None:
        assert connection.transport is not None
        self.connection = connection
        self.transport = connection.transport
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

    async def drain(self) -> bool:
        """Until the client has taken what was written (False: it took nothing for the
        send timeout, or left; it has been disconnected)."""
        return await self.connection.writable()

    def end_stream(self) -> None:
        self.transport.write(b"0\r\n\r\n")
        self._done()

    def answer_then_linger(self, status: int, body: bytes) -> None:
        """A whole answer, then the end of what the proxy sends; the connection stays open
        for the client to finish sending (its caller closes it later)."""
        self.started = True
        framing = b"content-length: " + str(len(body)).encode() + b"\r\n"
        self.transport.write(self._head(status, (), framing) + body)
        if self.transport.can_write_eof():
            self.transport.write_eof()

    def _done(self) -> None:
        if not self.keep_alive:
            self.transport.close()


_REASONS = {
    200: b"OK",
    400: b"Bad Request",
    404: b"Not Found",
    408: b"Request Timeout",
    413: b"Content Too Large",
    422: b"Unprocessable Content",
    431: b"Request Header Fields Too Large",
    500: b"Internal Server Error",
    502: b"Bad Gateway",
    503: b"Service Unavailable",
    504: b"Gateway Timeout",
}

Handler = Callable[[Request, Sender], Awaitable[None]]
LINGER_S = 2.0
"""How long a refused request's remaining bytes are read and dropped before closing."""


def _content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the parser refuses it
    return None


class ClientConnection(asyncio.Protocol):
    """One client connection: requests parsed as they arrive, answered in order."""

    def __init__(self, handle: Handler, limits: Limits, bodies: BodyBudget | None = None) -> None:
        self.handle = handle
        self.limits = limits
        self.bodies = bodies or BodyBudget(limits.max_bodies_bytes)
        self.held = 0
        """Bytes of bodies this connection holds in `bodies`, less the one being handled."""
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.queue: asyncio.Queue[Request | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.handling = False
        self.in_message = False
        self.discarding = False
        self._timer: asyncio.TimerHandle | None = None
        self._writable: asyncio.Future[None] | None = None
        self._reset()

    def _reset(self) -> None:
        self.url = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.head_done = False
        self.head_size = 0
        self.body: list[bytes] = []
        self.size = 0

    # timers
    def _arm(self, seconds: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        self._timer = None
        if self.transport is None or self.transport.is_closing():
            return
        if self.discarding:
            self._drop()
        elif self.in_message and not self.handling:  # a request half sent: say so
            self._reject(_Rejected(408, "the request was not sent in time", "request_timeout"))
        else:
            self._drop()

    def _drop(self) -> None:
        """Close now; what the client has not taken is thrown away."""
        assert self.transport is not None
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.worker = asyncio.get_running_loop().create_task(self._serve())
        self._arm(self.limits.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        # Bodies received and queued are never handled now: let them go at once (the
        # parser and this object hold each other, so only the cycle collector would).
        self.bodies.give_back(self.held)
        self.held = 0
        self.body = []
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(None)

    def pause_writing(self) -> None:
        if self._writable is None or self._writable.done():
            self._writable = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self._writable is not None and not self._writable.done():
            self._writable.set_result(None)

    async def writable(self) -> bool:
        """Until the transport's buffer is under its high-water mark again."""
        assert self.transport is not None
        waiter = self._writable
        if waiter is not None and not waiter.done():
            try:  # asyncio.timeout, not wait_for: see Scrubber.run
                async with asyncio.timeout(self.limits.send_timeout_s):
                    await asyncio.shield(waiter)
            except TimeoutError:
                self._drop()
                return False
        return not self.transport.is_closing()

    def data_received(self, data: bytes) -> None:
        if self.discarding:
            return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._reject(_Rejected(400, "protocol upgrades are not served", "bad_request"))
        except httptools.HttpParserError as error:
            cause = error.__context__
            if isinstance(cause, _Rejected):
                self._reject(cause)
            else:
                self._reject(_Rejected(400, "bad HTTP", "bad_request"))

    def _reject(self, rejection: _Rejected) -> None:
        """Answer `rejection` and close. What the client still sends is read and dropped
        for a moment first: closing on unread bytes resets the connection, and the client
        could lose the answer."""
        assert self.transport is not None
        self.in_message = False
        partial = sum(map(len, self.body))  # the refused body's bytes received so far
        self.bodies.give_back(partial)
        self.held -= partial
        self.body = []
        if self.handling or self.discarding:  # an answer is going out: it cannot be framed
            self._drop()
            return
        body = error_body(str(rejection), rejection.code)
        Sender(self, keep_alive=False).answer_then_linger(rejection.status, body)
        self.discarding = True
        self._arm(LINGER_S)

    # httptools callbacks
    def on_message_begin(self) -> None:
        self.in_message = True
        if not self.handling:
            self._arm(self.limits.header_timeout_s)

    def on_url(self, url: bytes) -> None:
        self.url += url
        self._count_head(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.head_done:  # httptools hands a chunked body's trailer fields on as headers
            raise _Rejected(400, "trailer fields are not accepted", "trailers_refused")
        self.headers.append((name, value))
        self._count_head(len(name) + len(value))

    def _count_head(self, size: int) -> None:
        self.head_size += size
        if self.head_size > self.limits.max_header_bytes:
            raise _Rejected(431, "the request's headers are too large", "headers_too_large")

    def on_headers_complete(self) -> None:
        self.head_done = True
        declared = _content_length(self.headers)
        if declared is not None and declared > self.limits.max_body_bytes:
            raise _Rejected(413, "request too large", "too_large")
        if not self.handling:
            self._arm(self.limits.body_timeout_s)
        # curl and others wait for this before sending a body over 1 KB.
        expects = any(
            name.lower() == b"expect" and value.lower() == b"100-continue"
            for name, value in self.headers
        )
        if expects and self.transport is not None:
            self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")

    def on_body(self, body: bytes) -> None:
        self.size += len(body)
        if self.size > self.limits.max_body_bytes:
            raise _Rejected(413, "request too large", "too_large")
        if not self.bodies.take(len(body)):
            raise _Rejected(
                503,
                "the proxy holds as many request bodies as it may; try again shortly",
                "busy",
            )
        self.held += len(body)
        self.body.append(body)

    def on_message_complete(self) -> None:
        assert self.transport is not None
        request = Request(
            method=self.parser.get_method(),
            path=self.url,
            headers=self.headers,
            body=b"".join(self.body),
            keep_alive=self.parser.should_keep_alive(),
        )
        self._reset()
        self.in_message = False
        if not self.handling:
            self._disarm()
        self.transport.pause_reading()  # until this request is answered
        self.queue.put_nowait(request)

    async def _serve(self) -> None:
        assert self.transport is not None
        while True:
            request = await self.queue.get()
            if request is None or self.transport.is_closing():
                return
            self.handling = True
            size = len(request.body)
            self.held -= size  # now the handler's: given back when it is done
            try:
                await self.handle(request, Sender(self, request.keep_alive))
            finally:
                self.bodies.give_back(size)
            self.handling = False
            if self.transport.is_closing():
                return
            if self.queue.empty():
                waiting = self.in_message  # a pipelined request's start came meanwhile
                self._arm(self.limits.header_timeout_s if waiting else self.limits.idle_timeout_s)
                self.transport.resume_reading()
