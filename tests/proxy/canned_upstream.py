"""A recording fake upstream that answers every request with the same canned bytes: a
redirect, a header the proxy must not relay, a status line of any kind.

It records each connection it accepted and each request it read whole (the raw head and
body), so a test can also use one as the "other host" a redirect points to, which must
receive nothing.

    upstream = CannedUpstream.start(b"HTTP/1.1 307 X\\r\\nlocation: …\\r\\n…")
    ... upstream.url, upstream.connections, upstream.requests ...
    upstream.stop()
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import httptools

from devtools.fixtures.server_thread import ServerThread


class _Connection(asyncio.Protocol):
    def __init__(self, upstream: CannedUpstream) -> None:
        self.upstream = upstream
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.raw: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.upstream.connections += 1

    def data_received(self, data: bytes) -> None:
        self.raw.append(data)
        self.parser.feed_data(data)

    def on_message_complete(self) -> None:
        assert self.transport is not None
        self.upstream.requests.append(b"".join(self.raw))
        self.raw = []
        self.transport.write(self.upstream.answer)


def chunked(*events: bytes) -> bytes:
    """`events` as an HTTP/1.1 chunked body, its last chunk included."""
    return b"".join(b"%x\r\n%s\r\n" % (len(event), event) for event in events) + b"0\r\n\r\n"


@dataclass
class CannedUpstream:
    """Answers every request with `answer`, on its own thread and event loop."""

    answer: bytes
    port: int = 0
    connections: int = 0
    """Connections accepted."""
    requests: list[bytes] = field(default_factory=list)
    """Each request as it arrived (head and body), in order."""
    _server: ServerThread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @classmethod
    def start(cls, answer: bytes) -> CannedUpstream:
        upstream = cls(answer)
        upstream._server = ServerThread.start(lambda: _Connection(upstream))
        upstream.port = upstream._server.port
        return upstream

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
