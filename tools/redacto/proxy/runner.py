"""The proxy served by uvicorn: one `ProxyServer` per process, on uvloop where installed,
with the proxy's bounds on each connection (`protocol.ProxyProtocol`)."""

from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn

from redacto.asgi.runner import uvicorn_config
from redacto.proxy.protocol import ProxyProtocol, connection_bounds
from redacto.proxy.server import Proxy

STOP_GRACE_S = 1
"""On a stop, answers under way get this long to finish; then they are cancelled (a
request being scrubbed is told to stop, and is never forwarded)."""


def proxy_config(proxy: Proxy) -> uvicorn.Config:
    """uvicorn's settings for `proxy` (`redacto.asgi.runner.uvicorn_config`): its protocol
    with the proxy's bounds, on uvloop where installed; the keep-alive deadline is
    `Limits.idle_timeout_s`."""
    return uvicorn_config(
        proxy,
        ProxyProtocol.factory(connection_bounds(proxy.limits)),
        keep_alive_s=proxy.limits.idle_timeout_s,
        stop_grace_s=STOP_GRACE_S,
    )


class ProxyServer(uvicorn.Server):
    """uvicorn's server for one proxy: the vault store is opened (and checked) before it
    listens and closed after; `on_ready` is told the port once it listens."""

    def __init__(self, proxy: Proxy, on_ready: Callable[[int], None] | None = None) -> None:
        super().__init__(proxy_config(proxy))
        self.proxy = proxy
        self.on_ready = on_ready

    @property
    def port(self) -> int:
        sockets = self.servers[0].sockets
        return int(sockets[0].getsockname()[1])

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        await self.proxy.vaults.open()
        try:
            await super().serve(sockets)
        finally:
            await self.proxy.vaults.close()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.on_ready is not None:
            self.on_ready(self.port)


def run_forever(
    proxy: Proxy, sock: socket.socket, on_ready: Callable[[int], None] | None = None
) -> None:
    """Serve `proxy` on the listening `sock` until Ctrl-C or SIGTERM (then KeyboardInterrupt
    for Ctrl-C, as uvicorn raises the signal again once it has stopped)."""
    ProxyServer(proxy, on_ready).run(sockets=[sock])
