"""One request and its answer, as the proxy's ASGI application sees them: the request read
whole within the size bounds (`read_request`), the answer written whole or as a stream
(`Answer`). The deadlines on a connection are the protocol's (`protocol`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass

from redacto.asgi import Message, Receive, Scope, Send
from redacto.asgi.protocol import TARGET, Rejected
from redacto.proxy.limits import BodyBudget, Limits
from redacto.proxy.protocol import error_body
from redacto.upstream import HOP_BY_HOP

Headers = Iterable[tuple[bytes, bytes]]


@dataclass
class Request:
    """One client request, read whole."""

    method: bytes
    path: bytes
    """The request target as sent, query and fragment included."""
    headers: list[tuple[bytes, bytes]]
    body: bytes
    arrived: float = 0.0
    """When it had arrived — its body read whole — on the event loop's clock: its deadline
    (`Limits.scrub_timeout_s`) runs from here."""

    def header(self, name: bytes) -> bytes | None:
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None


class ClientGone(Exception):
    """The client closed its connection before its request was read whole."""


async def read_request(
    scope: Scope, receive: Receive, limits: Limits, bodies: BodyBudget
) -> Request:
    """The request of `scope`, its body counted into `bodies` as it arrives (the caller
    gives it back when it is done with it). Raises `Rejected` for a body over the bounds —
    at once when its Content-Length says so, before any of it is read — and `ClientGone`;
    either way what was counted has been given back."""
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    declared = _content_length(headers)
    if declared is not None and declared > limits.max_body_bytes:
        raise Rejected(413, "request too large", "too_large")
    chunks: list[bytes] = []
    held = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk: bytes = message.get("body", b"")
            if chunk:
                if held + len(chunk) > limits.max_body_bytes:
                    raise Rejected(413, "request too large", "too_large")
                if not bodies.take(len(chunk)):
                    raise Rejected(
                        503,
                        "the proxy holds as many request bodies as it may; try again shortly",
                        "busy",
                    )
                held += len(chunk)
                chunks.append(chunk)
            if not message.get("more_body", False):
                break
    except BaseException:
        bodies.give_back(held)
        raise
    target = scope.get(TARGET)
    if target is None:  # not our protocol: the target as uvicorn parsed it
        query = scope.get("query_string", b"")
        target = scope["raw_path"] + (b"?" + query if query else b"")
    return Request(
        method=scope["method"].encode(),
        path=target,
        headers=headers,
        body=chunks[0] if len(chunks) == 1 else b"".join(chunks),
        arrived=asyncio.get_running_loop().time(),
    )


def _content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the parser refuses it
    return None


class Answer:
    """Writes the answer to one request through ASGI: whole, or as a stream."""

    def __init__(self, send: Send, receive: Receive) -> None:
        self._send = send
        self._receive = receive
        self._left: asyncio.Future[Message] | None = None
        self.started = False

    async def whole(
        self, status: int, body: bytes, headers: Headers = (), *, close: bool = False
    ) -> None:
        """The whole answer; `close`: and then the connection is closed."""
        if self.started:  # a stream already began: an error can only end it
            await self.end_stream()
            return
        self.started = True
        framing = [(b"content-length", str(len(body)).encode())]
        if close:
            framing.append((b"connection", b"close"))
        await self._send(
            {"type": "http.response.start", "status": status, "headers": _head(headers, framing)}
        )
        await self._send({"type": "http.response.body", "body": body})

    async def refuse(self, rejection: Rejected) -> None:
        """`rejection`'s error body, and the connection closed."""
        await self.whole(rejection.status, error_body(str(rejection), rejection.code), close=True)

    async def start_stream(self, status: int, headers: Headers) -> None:
        """The head of a streamed answer (chunked); its pieces follow with `stream`."""
        self.started = True
        # The request is read whole: the next thing `receive` says is that the client left
        # (or that the answer is complete), so a stream can stop reading its upstream.
        self._left = asyncio.ensure_future(self._receive())
        await self._send(
            {"type": "http.response.start", "status": status, "headers": _head(headers, [])}
        )

    async def stream(self, data: bytes) -> None:
        """One piece of a streamed answer; returns once the client has room for more (the
        protocol disconnects a client that takes nothing for `Limits.send_timeout_s`)."""
        if data:
            await self._send({"type": "http.response.body", "body": data, "more_body": True})

    def gone(self) -> bool:
        """The client of a streamed answer has left."""
        return self._left is not None and self._left.done()

    async def end_stream(self) -> None:
        await self._send({"type": "http.response.body", "body": b""})
        if self._left is not None:
            self._left.cancel()


def _head(headers: Headers, framing: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The upstream's headers the proxy relays (`inbound.answer_headers` chose them; the
    hop-by-hop ones are dropped here too), JSON unless they say otherwise, and the proxy's
    own framing."""
    head = [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP]
    if not any(name.lower() == b"content-type" for name, _ in head):
        head.append((b"content-type", b"application/json"))
    head.extend(framing)
    return head
