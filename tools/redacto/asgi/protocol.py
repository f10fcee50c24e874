"""uvicorn's HTTP/1.1 protocol (httptools) with the bounds on a client connection that
uvicorn's settings do not give (`Bounds`), for both faces that serve HTTP: the proxy and the
review page. What uvicorn does give is used as it is: the idle deadline of a kept-alive
connection is its `timeout_keep_alive`, pipelined requests wait in the socket, an answer is
written no faster than the client reads it, and the body is read only as fast as the
application asks for it.

What this subclass adds, and why uvicorn alone would not do:

- **A deadline on a request's headers** (`header_timeout_s`, from the connection's start
  or the request's first byte) **and on its body** (`body_timeout_s`, from the end of its
  headers): uvicorn arms `timeout_keep_alive` only after an answer, so a connection that
  sends nothing, or trickles its headers a byte at a time, would be held for ever.
- **A bound on the request line and headers** (`max_header_bytes`, 431): httptools takes
  headers of any size.
- **Trailer fields refused** (400 `trailers_refused`): httptools hands a chunked body's
  trailer fields on as more headers, and uvicorn appends them to a scope the application
  has already checked.
- **A refusal before the request was read whole lingers.** The answer goes out, the
  server's side is half-closed, and what the client still sends is read and dropped for
  `LINGER_S` before the connection is closed: uvicorn closes at once, and closing a
  socket with unread bytes in it resets the connection, so the client could lose the
  answer (a 413 for a body it is still sending, say).
- **A client that takes nothing of an answer for `send_timeout_s` is disconnected:**
  uvicorn waits for the socket to drain for ever.
- **A client that half-closes is still answered.** uvicorn closes the connection when the
  client has sent all it will: the answer to a request sent whole goes out first, and a
  request cut short is refused (400, or as `bad_request` says of its line).
- **The request target as sent** is in the scope (`TARGET`): the parsed `path` and
  `query_string` do not show an empty `?` or a `#` fragment, and an absolute-form target
  would look like its path alone.

A face says how a refusal reads (`refusal_body`) and what a request line the parser
rejected is answered (`bad_request`, given the line as sent) by subclassing.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import (
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.server import ServerState

TARGET = "redacto.target"
"""The scope's key for the request target exactly as the client sent it (bytes)."""
CLIENT_DONE = "redacto.client_done"
"""The scope's key for an `asyncio.Event` set once the client sends nothing more (it
half-closed or left): a stream that waits on no request body can stop on it, where
uvicorn's `http.disconnect` comes only when the connection is lost."""
LINGER_S = 2.0
"""How long a refused request's remaining bytes are read and dropped before closing."""

LINE_BYTES = 8 * 1024
"""How much of a request's first line is kept for `GuardedProtocol.bad_request`."""


@dataclass(frozen=True)
class Bounds:
    """Bounds on one client connection (the face's own settings say which values)."""

    header_timeout_s: float
    """From a connection's start, or a request's first byte, to the end of its headers."""
    body_timeout_s: float
    """From the end of a request's headers to the end of its body."""
    send_timeout_s: float
    """A client that takes none of an answer for this long is disconnected."""
    max_header_bytes: int = 64 * 1024
    """The request line and headers together; more is answered 431."""


class Rejected(Exception):
    """A request refused before it was read whole: answered, then its connection closed."""

    def __init__(self, status: int, message: str, code: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class GuardedProtocol(HttpToolsProtocol):
    """One client connection, parsed and answered by uvicorn, within `Bounds`."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        bounds: Bounds,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.bounds = bounds
        self._timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._in_message = False
        self._head_done = False
        self._head_size = 0
        self._message_cycle: RequestResponseCycle | None = None
        """The cycle of the request being received (None until its headers are in)."""
        self._discarding = False
        self._line = b""
        """The start of the request being received, as sent, up to its first line's end."""
        self.client_done = asyncio.Event()
        """Set when the client has half-closed or the connection is lost: it sends nothing
        more (in each request's scope, `CLIENT_DONE`); the connection closes once the
        answers under way are out."""

    @classmethod
    def factory(cls, bounds: Bounds, **more: Any) -> Callable[..., GuardedProtocol]:
        """What uvicorn's `Config(http=…)` takes: it calls this with its own arguments
        (`more`: a subclass's own keyword arguments)."""
        return functools.partial(cls, bounds=bounds, **more)

    # what a face says
    answers_slow_heads = True
    """A request whose head is not in by its deadline is answered 408 (False: the
    connection is closed without a word, as for a connection that sent nothing)."""

    def refusal_body(self, rejection: Rejected) -> tuple[bytes, bytes]:
        """The content type and body of a refusal the protocol answers itself."""
        return b"text/plain; charset=utf-8", str(rejection).encode()

    def bad_request(self, line: bytes) -> Rejected:
        """The refusal of a request the parser rejected; `line`: its first line as sent
        (or as much of it as had arrived), for a face that answers some lines otherwise."""
        return Rejected(400, "bad HTTP", "bad_request")

    def refusal_bytes(self, rejection: Rejected) -> bytes:
        """A whole HTTP answer for `rejection` that closes the connection."""
        kind, body = self.refusal_body(rejection)
        head = b"content-type: %s\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
        return STATUS_LINE[rejection.status] + head % (kind, len(body)) + body

    # timers
    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _answering(self) -> bool:
        """An earlier request's answer is under way (a pipelined request waits for it)."""
        return self.cycle is not None and not self.cycle.response_complete

    def _timed_out(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        half_sent = self._in_message and not self._discarding
        if half_sent and (self._head_done or self.answers_slow_heads):  # say so
            self._refuse(Rejected(408, "the request was not sent in time", "request_timeout"))
        else:
            self._drop()

    def _drop(self) -> None:
        """Close now; what the client has not taken is thrown away."""
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    def _refuse(self, rejection: Rejected) -> None:
        """Answer `rejection` in the application's place, then linger and close."""
        cycle = self._message_cycle
        if cycle is not None:
            if cycle.response_started:  # an answer is going out: it cannot be framed
                self._drop()
                return
            cycle.disconnected = True  # the application's reads end; its answer goes nowhere
            cycle.message_event.set()
        self.transport.write(self.refusal_bytes(rejection))
        self._linger()

    def _linger(self) -> None:
        """Send nothing more; read and drop what the client still sends, then close."""
        self._discarding = True
        self._in_message = False
        self._unset_keepalive_if_required()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.flow.resume_reading()
        self._arm(LINGER_S)

    def close_after_answer(self) -> None:
        """An answer that closes the connection is out: close, or linger first while the
        client is still sending the request."""
        if self._in_message and not self.transport.is_closing():
            self._linger()
        else:
            self.transport.close()

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.bounds.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self.client_done.set()
        self._disarm()
        if self._send_timer is not None:
            self._send_timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
        self._unset_keepalive_if_required()
        if not self._head_done and b"\n" not in self._line and len(self._line) < LINE_BYTES:
            self._line += data[: LINE_BYTES - len(self._line)]
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._refuse(Rejected(400, "protocol upgrades are not served", "bad_request"))
        except httptools.HttpParserError as error:
            cause = error.__context__  # a callback's own refusal, raised inside the parser
            if isinstance(cause, Rejected):
                self._refuse(cause)
            else:
                self._refuse(self.bad_request(self.request_line()))

    def request_line(self) -> bytes:
        """The first line of the request being received, as sent (so far)."""
        return self._line.split(b"\n", 1)[0].rstrip(b"\r")

    # asyncio.Protocol's own signature: uvicorn's override types it as returning None.
    def eof_received(self) -> bool | None:  # type: ignore[override]
        """The client has half-closed: it sends nothing more. A request it had not sent
        whole is refused (while its head was unfinished as `bad_request` says of its line,
        400 after), answers under way still go out, then the connection closes. uvicorn
        would close at once, and the answers would be lost."""
        self.client_done.set()
        if self._discarding or self.transport.is_closing():
            return None
        if self._in_message:
            if self._head_done:
                self._refuse(Rejected(400, "the request ended early", "incomplete_request"))
            else:
                self._refuse(self.bad_request(self.request_line()))
            return True
        return True if self._answering() or self.pipeline else None

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.bounds.send_timeout_s, self._drop)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def on_response_complete(self) -> None:
        if self._discarding:  # a lingering connection starts no pipelined request
            return
        super().on_response_complete()
        if self.client_done.is_set() and not self._answering():  # the last answer it gets
            self.transport.close()

    # httptools callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_message = True
        self._head_done = False
        self._head_size = 0
        self._message_cycle = None
        if not self._answering():
            self._arm(self.bounds.header_timeout_s)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._count_head(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._head_done:
            raise Rejected(400, "trailer fields are not accepted", "trailers_refused")
        super().on_header(name, value)
        self._count_head(len(name) + len(value))

    def _count_head(self, size: int) -> None:
        self._head_size += size
        if self._head_size > self.bounds.max_header_bytes:
            raise Rejected(431, "the request's headers are too large", "headers_too_large")

    def on_headers_complete(self) -> None:
        self._head_done = True
        scope = cast(dict[str, Any], self.scope)
        scope[TARGET] = self.url
        scope[CLIENT_DONE] = self.client_done
        starts_now = not self._answering()
        super().on_headers_complete()
        self._message_cycle = self.cycle
        self.cycle.transport = cast(asyncio.Transport, _ClosingLingers(self))
        if starts_now:
            self._arm(self.bounds.body_timeout_s)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_message = False
        self._head_done = False
        self._line = b""
        self._disarm()


class _ClosingLingers:
    """The transport as a request's cycle sees it: when the application's answer closes
    the connection, `GuardedProtocol.close_after_answer` decides how."""

    def __init__(self, protocol: GuardedProtocol) -> None:
        self._protocol = protocol
        self._transport = protocol.transport

    def write(self, data: bytes) -> None:
        self._transport.write(data)

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def close(self) -> None:
        self._protocol.close_after_answer()
