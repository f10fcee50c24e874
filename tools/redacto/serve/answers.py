"""What every answer of the review server carries, and writing one through ASGI.

Every response forbids caching, framing and loading anything from another host. An error
answer closes its connection (a body may be left unread: the protocol lingers for it).
"""

from __future__ import annotations

import json

from redacto.asgi import Send

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Nothing from another host, no inline script or style, no plugins, no framing."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_SECURITY = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]


class Reply:
    """The answer to one request: whole (`send`, `json`, `plain`) or a stream (`start_stream`,
    `stream`, `end_stream`). Remembers its status, for the log."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status: int | None = None

    @property
    def started(self) -> bool:
        return self.status is not None

    async def send(
        self,
        status: int,
        kind: str,
        body: bytes,
        extra: dict[str, str] | None = None,
        *,
        close: bool = False,
    ) -> None:
        """The whole answer; `close`: and then the connection is closed."""
        headers = [(b"content-type", kind.encode()), (b"content-length", b"%d" % len(body))]
        headers += [(name.encode(), value.encode()) for name, value in (extra or {}).items()]
        if close:
            headers.append((b"connection", b"close"))
        await self._start(status, headers)
        await self._send({"type": "http.response.body", "body": body})

    async def json(self, status: int, body: object, *, close: bool = False) -> None:
        await self.send(status, "application/json", json.dumps(body).encode(), close=close)

    async def plain(self, status: int, text: str) -> None:
        await self.send(status, "text/plain; charset=utf-8", text.encode(), close=True)

    async def start_stream(self, kind: str) -> None:
        """The head of an answer whose pieces follow with `stream` (chunked)."""
        await self._start(200, [(b"content-type", kind.encode())])

    async def stream(self, data: bytes) -> None:
        """One piece; returns once the client has room for more (the protocol disconnects
        a client that takes nothing for the send deadline)."""
        await self._send({"type": "http.response.body", "body": data, "more_body": True})

    async def end_stream(self) -> None:
        await self._send({"type": "http.response.body", "body": b""})

    async def _start(self, status: int, headers: list[tuple[bytes, bytes]]) -> None:
        self.status = status
        await self._send(
            {"type": "http.response.start", "status": status, "headers": headers + _SECURITY}
        )
