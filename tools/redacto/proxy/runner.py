"""The proxy served by uvicorn: one `ProxyServer` per process, on uvloop where installed,
with the proxy's bounds on each connection (`protocol.GuardedProtocol`)."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import cast

import uvicorn

from redacto.proxy.protocol import GuardedProtocol
from redacto.proxy.server import Proxy

STOP_GRACE_S = 1
"""On a stop, answers under way get this long to finish; then they are cancelled (a
request being scrubbed is told to stop, and is never forwarded)."""
BACKLOG = 2048


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` (port 0: any free port), not yet listening. Raises
    OSError when the address cannot be had."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)  # `--workers`: each worker serves it
    return sock


def uvicorn_config(proxy: Proxy) -> uvicorn.Config:
    """uvicorn's settings for `proxy`: its protocol with the proxy's bounds; the keep-alive
    deadline is `Limits.idle_timeout_s`; no header of uvicorn's own (`server`, `date`), no
    access log of its own (the proxy's names no path as sent), no lifespan."""
    return uvicorn.Config(
        proxy,
        # uvicorn calls what it is given with its own arguments; it need not be a class.
        http=cast(type[asyncio.Protocol], GuardedProtocol.factory(proxy.limits)),
        loop="auto",
        interface="asgi3",
        lifespan="off",
        ws="none",
        proxy_headers=False,
        server_header=False,
        date_header=False,
        log_config=None,
        log_level=logging.WARNING,
        access_log=False,
        # uvicorn types these as int; it hands them to call_later and wait_for as they are.
        timeout_keep_alive=cast(int, proxy.limits.idle_timeout_s),
        timeout_graceful_shutdown=STOP_GRACE_S,
        backlog=BACKLOG,
    )


class ProxyServer(uvicorn.Server):
    """uvicorn's server for one proxy: the vault store is opened (and checked) before it
    listens and closed after; `on_ready` is told the port once it listens."""

    def __init__(self, proxy: Proxy, on_ready: Callable[[int], None] | None = None) -> None:
        super().__init__(uvicorn_config(proxy))
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
