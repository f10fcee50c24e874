"""uvicorn's settings and listening socket, the same for each face that serves HTTP."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import Any, Literal, cast

import uvicorn

BACKLOG = 2048


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` (port 0: any free port), listening. Raises OSError
    when the address cannot be had."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)  # the proxy's `--workers`: each worker serves it
    return sock


def uvicorn_config(
    app: Any,
    protocol: Callable[..., asyncio.Protocol],
    *,
    keep_alive_s: float,
    stop_grace_s: float,
    loop: Literal["auto", "asyncio"] = "auto",
) -> uvicorn.Config:
    """uvicorn's settings for an ASGI `app` served with `protocol` (a
    `GuardedProtocol.factory`): the idle deadline of a kept-alive connection is
    `keep_alive_s`; on a stop, answers under way get `stop_grace_s` before they are
    cancelled; no header of uvicorn's own (`server`, `date`), no access log of its own (each
    face logs what it may: never a path as sent), no lifespan, no websockets."""
    return uvicorn.Config(
        app,
        # uvicorn calls what it is given with its own arguments; it need not be a class.
        http=cast(type[asyncio.Protocol], protocol),
        loop=loop,
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
        timeout_keep_alive=cast(int, keep_alive_s),
        timeout_graceful_shutdown=cast(int, stop_grace_s),
        backlog=BACKLOG,
    )
