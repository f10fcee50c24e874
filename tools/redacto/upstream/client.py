"""The one HTTP/1.1 client for an OpenAI-compatible upstream, the proxy's and proofread's:
`http://` or `https://` (`tls`), kept-alive connections, bodies read as they arrive
(sized, chunked, or ended by the upstream closing the connection), read no faster than the
caller takes them, and timeouts that end a request, never hang it.

Written on asyncio protocols and httptools (the parser uvicorn uses) rather than httpx or
aiohttp: the proxy's added latency is most of what it is judged by, and per request this
client costs 34–44 µs of CPU against aiohttp's 99–131 and httpx's 673–803
(measured in docs/proxy-http.md § One upstream client). Proofread,
which is synchronous, iterates it through `blocking.iterate`.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import cast
from urllib.parse import urlsplit

import httptools

from redacto.upstream.errors import UpstreamError
from redacto.upstream.tls import tls_context

HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"transfer-encoding",
        b"te",
        b"trailer",
        b"upgrade",
        b"content-length",
        b"host",
        b"accept-encoding",
        b"expect",
    }
)
"""Headers a proxy must not pass on (RFC 9110 §7.6.1), plus the ones it sets itself.
`accept-encoding` is the client's own (`identity` is sent: the proxy must read the answer);
`expect` because the proxy sends the whole body at once (it answered the client's)."""
IDENTITY = frozenset({b"", b"identity"})
"""The content-encodings of an answer the proxy can read (and restore)."""


MAX_ANSWER = 64 * 1024 * 1024
"""The largest whole (not streamed) answer the proxy holds to restore."""
BUFFERED = 256 * 1024
"""Bytes of an answer held at most before the upstream connection stops being read: the
rest waits in the upstream's socket until the proxy's client has taken what came."""
NO_BODY_STATUSES = frozenset({204, 304})
MAX_HEAD = 64 * 1024
"""The most an answer's status line and headers (interim answers' included) may take: an
upstream that sent headers without end was read into memory until the read timeout."""


@dataclass(eq=False)
class _Body:
    """One response's body as it arrives: its pieces so far, then its end (or an error).

    A plain list and one waiter, not a queue: a streamed answer arrives in hundreds of
    small HTTP chunks, and the reader takes whatever has come in one go."""

    pieces: list[bytes] = field(default_factory=list)
    size: int = 0
    """Bytes in `pieces`."""
    ended: bool = False
    error: Exception | None = None
    _waiter: asyncio.Future[None] | None = None

    def add(self, piece: bytes) -> None:
        self.pieces.append(piece)
        self.size += len(piece)
        self._wake()

    def end(self, error: Exception | None = None) -> None:
        self.ended, self.error = True, error
        self._wake()

    def take(self) -> bytes:
        """Everything received since the last take."""
        taken = b"".join(self.pieces)
        self.pieces.clear()
        self.size = 0
        return taken

    async def wait(self, timeout: float) -> None:
        """Until a piece or the end arrives (TimeoutError after `timeout` seconds)."""
        if self.pieces or self.ended:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:  # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancel
            async with asyncio.timeout(timeout):
                await self._waiter
        finally:
            self._waiter = None

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


@dataclass
class UpstreamResponse:
    """Status and headers, then the body as it arrives (`chunks`), de-chunked."""

    status: int
    headers: list[tuple[bytes, bytes]]
    _connection: _Connection
    _body: _Body
    """This response's own body: the connection may serve the next request meanwhile."""
    _read_timeout: float

    @property
    def content_type(self) -> bytes:
        for name, value in self.headers:
            if name.lower() == b"content-type":
                return value.lower()
        return b""

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body in pieces: each is everything that had arrived by then, so a burst of
        events costs one wait and one write, not one per event."""
        body = self._body
        while True:
            try:
                await body.wait(self._read_timeout)
            except TimeoutError:
                self._connection.close()
                raise UpstreamError(
                    f"the upstream stopped sending (nothing for {self._read_timeout:g} s)",
                    timeout=True,
                ) from None
            if body.pieces:
                piece = body.take()
                self._connection.read_more(body)
                yield piece
            elif body.error is not None:
                raise body.error
            elif body.ended:
                return

    def discard(self) -> None:
        """Nobody will read the rest: an unfinished response takes its connection along.
        A finished one leaves it be: it may be serving the next request by now."""
        if self._connection.body is self._body and not self._connection.complete:
            self._connection.close()

    async def read(self, limit: int = MAX_ANSWER) -> bytes:
        """The whole body; more than `limit` bytes is an `UpstreamError` (the connection is
        closed: a whole answer is held in memory to be restored)."""
        pieces, size = [], 0
        async for chunk in self.chunks():
            size += len(chunk)
            if size > limit:
                self.discard()
                raise UpstreamError(f"the upstream's answer is over {limit} bytes")
            pieces.append(chunk)
        return b"".join(pieces)


@dataclass(eq=False)
class _Connection(asyncio.Protocol):
    pool: UpstreamPool
    transport: asyncio.Transport | None = None
    body: _Body = field(default_factory=_Body)
    head: asyncio.Future[tuple[int, list[tuple[bytes, bytes]]]] | None = None
    _headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    _parser: httptools.HttpResponseParser | None = None
    complete: bool = False
    reusable: bool = False
    lost: bool = False
    until_close: bool = False
    """The answer has neither a length nor chunks: its body ends when the upstream closes
    the connection (legal HTTP/1.1, and what Python's http.server does)."""
    paused: bool = False
    interim: bool = False
    """The message being parsed is an interim answer (`100 Continue`, `103 Early Hints`):
    the request's own answer follows it on this connection."""
    head_bytes: int = 0
    """Bytes read while the answer's head is not complete (`MAX_HEAD`)."""

    def start(self) -> None:
        """Ready for the next response on this connection."""
        self.body = _Body()
        self.head = asyncio.get_running_loop().create_future()
        self._headers = []
        self._parser = httptools.HttpResponseParser(self)
        self.complete = False
        self.until_close = False
        self.interim = False
        self.head_bytes = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        if self._parser is None:
            self.close()  # bytes nobody asked for: the connection cannot be trusted
            return
        room = MAX_HEAD - self.head_bytes
        if self._in_head() and len(data) > room:
            # Only the head's allowance is parsed while the head is not complete: a read
            # holds up to 256 KiB, and a head that arrived in one would be taken whole.
            self.data_received(data[:room])
            if self._in_head():
                self._fail(UpstreamError(f"the upstream's answer head is over {MAX_HEAD} bytes"))
                self._parser = None
                self.close()
            else:
                self.data_received(data[room:])
            return
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(UpstreamError(f"the upstream sent bad HTTP: {error}"))
            self._parser = None
            self.close()
            return
        if self._in_head():  # all of it was head
            self.head_bytes += len(data)

    def _in_head(self) -> bool:
        """Whether the answer's head (interim answers' included) is still being read."""
        return self._parser is not None and self.head is not None and not self.head.done()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.complete:
            return
        if self.until_close and exc is None and self.head is not None and self.head.done():
            self.complete = True  # the close is the body's end
            self.body.end()
            return
        self._fail(UpstreamError("the upstream closed the connection"))

    def read_more(self, body: _Body) -> None:
        """`body` was taken: read the upstream again if it was paused for it."""
        if self.paused and body is self.body and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()

    def _fail(self, error: Exception) -> None:
        if self.head is not None and not self.head.done():
            self.head.set_exception(error)
        else:
            self.body.end(error)

    # httptools callbacks
    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name, value))

    def on_headers_complete(self) -> None:
        assert self._parser is not None and self.head is not None
        status = self._parser.get_status_code()
        if 100 <= status < 200 and status != 101:
            # Interim: skipped. Taken as the answer, it left the real one to arrive on a
            # connection back in the pool — read by whichever request took it next.
            self.interim = True
            self._headers = []
            return
        framed = any(
            name.lower() == b"content-length"
            or (name.lower() == b"transfer-encoding" and b"chunked" in value.lower())
            for name, value in self._headers
        )
        self.until_close = not framed and status >= 200 and status not in NO_BODY_STATUSES
        if not self.head.done():
            self.head.set_result((status, self._headers))

    def on_body(self, body: bytes) -> None:
        self.body.add(bytes(body))
        if self.body.size > BUFFERED and not self.paused and self.transport is not None:
            self.paused = True  # back-pressure: the reader resumes it (`read_more`)
            self.transport.pause_reading()

    def on_message_complete(self) -> None:
        assert self._parser is not None
        if self.interim:  # the parser goes on to the answer itself
            self.interim = False
            return
        self.complete = True
        self.reusable = self._parser.should_keep_alive()
        self._parser = None
        self.body.end()
        if self.paused and self.transport is not None:  # all of it is in; free for the next
            self.paused = False
            self.transport.resume_reading()
        if self.reusable and not self.lost:
            self.pool.release(self)

    def close(self) -> None:
        self.reusable = False
        if self.transport is not None:
            self.transport.close()


@dataclass
class UpstreamPool:
    """Kept-alive connections to one upstream base URL, `http://` or `https://`.

    An https upstream's certificate and hostname are verified against the system's CA store
    (and `SSL_CERT_FILE`), plus `ca_file` when given (`tls.tls_context`); a certificate that
    does not verify ends the connection before a byte of any request is sent. Raises
    `ValueError` for a URL of another scheme or without a host, or a CA file it cannot read.
    """

    base_url: str
    connect_timeout: float = 5.0
    read_timeout: float = 120.0
    max_idle: int = 64
    ca_file: str | None = None
    """A PEM file of certificates to trust besides the system's (`--upstream-ca`)."""
    _idle: list[_Connection] = field(default_factory=list)

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(
                f"the upstream must be an http:// or https:// URL, not {self.base_url!r}"
            )
        secure = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if secure else 80)
        self.prefix = parts.path.rstrip("/")
        self.host_header = parts.netloc.encode()
        self.tls: ssl.SSLContext | None = tls_context(self.ca_file) if secure else None

    async def request(
        self, method: bytes, path: bytes, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> UpstreamResponse:
        """Send one request; returns once the status and headers are in."""
        head = [method + b" " + self.prefix.encode() + path + b" HTTP/1.1\r\n"]
        head.append(b"host: " + self.host_header + b"\r\naccept-encoding: identity\r\n")
        head.extend(
            name + b": " + value + b"\r\n"
            for name, value in headers
            if name.lower() not in HOP_BY_HOP
        )
        head.append(b"content-length: " + str(len(body)).encode() + b"\r\n\r\n")
        payload = b"".join(head) + body
        connection = await self._connection()
        connection.start()
        # This exchange's own head and body, taken now: a response that arrives in one read
        # is complete, and its connection back in the pool (perhaps already taken by the
        # next request, with a new head and body), before this coroutine resumes.
        answer_head, answer_body = connection.head, connection.body
        assert connection.transport is not None and answer_head is not None
        connection.transport.write(payload)
        try:
            async with asyncio.timeout(self.read_timeout):
                status, response_headers = await answer_head
        except TimeoutError:
            connection.close()
            raise UpstreamError("the upstream did not answer in time", timeout=True) from None
        response = UpstreamResponse(
            status, response_headers, connection, answer_body, self.read_timeout
        )
        if not all(
            value.strip().lower() in IDENTITY
            for name, value in response_headers
            if name.lower() == b"content-encoding"
        ):
            response.discard()  # a body it cannot read is neither restored nor relayed
            raise UpstreamError("the upstream's answer is encoded (content-encoding)")
        return response

    async def _connection(self) -> _Connection:
        while self._idle:
            connection = self._idle.pop()
            if not connection.lost:
                return connection
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                _transport, protocol = await loop.create_connection(
                    lambda: _Connection(self),
                    self.host,
                    self.port,
                    ssl=self.tls,
                    server_hostname=self.host if self.tls is not None else None,
                )
        except TimeoutError:
            raise UpstreamError(
                "the upstream did not accept a connection in time", timeout=True, unreachable=True
            ) from None
        except ssl.SSLCertVerificationError as error:
            raise UpstreamError(
                f"the upstream's TLS certificate is not trusted ({error.verify_message}): "
                "trust its CA with --upstream-ca FILE or SSL_CERT_FILE",
                unreachable=True,
            ) from None
        except ssl.SSLError as error:
            raise UpstreamError(
                f"the TLS handshake with the upstream failed: {error.reason or 'no reason'}",
                unreachable=True,
            ) from None
        except OSError as error:
            raise UpstreamError(
                f"the upstream cannot be reached: {error.strerror or type(error).__name__}",
                unreachable=True,
            ) from None
        return protocol

    def release(self, connection: _Connection) -> None:
        if len(self._idle) < self.max_idle:
            self._idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()
