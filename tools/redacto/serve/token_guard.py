"""The one check in front of every route of the review server (ASGI middleware).

Every request must carry the token (`/t/<token>/…`; anything else is a 404 that says
nothing) and a loopback `Host` naming the server's port (no DNS rebinding); a POST that
names another origin is refused (403). The target is read as the client sent it (the
protocol's `TARGET`), so an absolute-form target (`GET http://host/t/<token>/`) names no
token: it could be the token in another form, and it is not logged either.
"""

from __future__ import annotations

import hmac
import logging

from redacto.asgi import ASGIApp, Receive, Scope, Send
from redacto.asgi.protocol import TARGET
from redacto.serve.answers import Reply
from redacto.serve.wire import loggable

log = logging.getLogger("redacto.serve")

ROUTE = "redacto.route"
"""The scope's key for the path after `/t/<token>/`, set once the guard let it through."""


class TokenGuard:
    """`app` behind the token, a loopback `Host` and, for a POST, the page's own origin."""

    def __init__(self, app: ASGIApp, token: str, port: int) -> None:
        self.app = app
        self._token = token.encode()
        self._hosts = (f"127.0.0.1:{port}".encode(), f"localhost:{port}".encode())
        self._origins = (b"http://" + self._hosts[0], b"http://" + self._hosts[1])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: nothing to start
            return
        route = self._route(scope)
        if route is None:
            await _refuse(send, 404, "not found", scope["method"])
            return
        if scope["method"] == "POST" and not self._same_origin(scope):
            await _refuse(send, 403, "forbidden", scope["method"])
            return
        scope[ROUTE] = route
        await self.app(scope, receive, send)

    def _route(self, scope: Scope) -> str | None:
        """The path after `/t/<token>/`, or None for a request that may not see anything."""
        if _header(scope, b"host") not in self._hosts:
            return None
        target: bytes = scope.get(TARGET, scope["raw_path"])
        parts = target.split(b"?", 1)[0].split(b"/", 3)
        if len(parts) < 3 or parts[1] != b"t":
            return None
        if not hmac.compare_digest(parts[2], self._token):
            return None
        if len(parts) == 3:
            return None  # `/t/<token>` without the slash: relative links would break
        return parts[3].decode("latin-1")

    def _same_origin(self, scope: Scope) -> bool:
        """A POST from another origin (a page trying its luck) is refused."""
        origin = _header(scope, b"origin")
        return origin is None or origin in self._origins


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


async def _refuse(send: Send, status: int, text: str, method: str) -> None:
    await Reply(send).plain(status, text)
    log.info("%s - %d", loggable(method), status)
