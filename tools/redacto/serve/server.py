"""`ReviewServer`: the review page and its API on 127.0.0.1, behind a random token.

An ASGI application (`app.ReviewApp` behind `guard.TokenGuard`) served by uvicorn on one
event loop, with the bounds on each connection of the shared protocol (`redacto.asgi`) and
the review page's own (`protocol.ReviewProtocol`): the request head must arrive within
`header_timeout_s` (an idle kept-alive connection is closed after it too), a body within
`body_timeout_s`, a client that takes nothing of an answer for `idle_timeout_s` is
disconnected, and at most `max_connections` connections are served at once. The job board
blocks (its worker owns the model), so the application calls it on a pool of threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
import socket
import threading
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor

import uvicorn

from redacto.asgi.protocol import Bounds
from redacto.asgi.runner import listening_socket, uvicorn_config
from redacto.engines import Engine
from redacto.prompts import PromptLibrary
from redacto.serve.app import ReviewApp
from redacto.serve.jobs import JobBoard, ServeConfig
from redacto.serve.protocol import ReviewProtocol
from redacto.serve.token_guard import TokenGuard

STOP_GRACE_S = 1
"""On a stop, answers under way (an event stream) get this long; then they are cancelled."""


class ReviewServer:
    """`redacto serve`: the review page and its API on 127.0.0.1, behind a random token."""

    def __init__(
        self,
        engine: Engine,
        prompts: PromptLibrary,
        config: ServeConfig | None = None,
        *,
        port: int = 0,
    ) -> None:
        self.config = config = config or ServeConfig()
        self.token = secrets.token_urlsafe(24)
        self.board = JobBoard(engine, prompts, config)
        try:
            self.socket = listening_socket("127.0.0.1", port)
        except BaseException:
            self.board.close()
            raise
        self.port: int = self.socket.getsockname()[1]
        # One thread a connection at most: each waits on the board for one request.
        self._threads = ThreadPoolExecutor(config.max_connections, "redacto-http")
        self._app = ReviewApp(self.board, self._threads)
        app = TokenGuard(self._app, self.token, self.port)
        bounds = Bounds(
            header_timeout_s=config.header_timeout_s,
            body_timeout_s=config.body_timeout_s,
            send_timeout_s=config.idle_timeout_s,
        )
        protocol = ReviewProtocol.factory(bounds, max_connections=config.max_connections)
        settings = uvicorn_config(
            app,
            protocol,
            keep_alive_s=config.header_timeout_s,
            stop_grace_s=STOP_GRACE_S,
            loop="asyncio",
        )
        self._uvicorn = _ReviewUvicorn(settings, self._app.stopping)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The page's address; the token in it is the only key to the server."""
        return f"http://127.0.0.1:{self.port}/t/{self.token}/"

    @property
    def address(self) -> tuple[str, int]:
        """The address it listens on: loopback only."""
        host, port = self.socket.getsockname()[:2]
        return host, port

    def serve_forever(self) -> None:
        """Serve until stopped: from the main thread, by Ctrl-C, SIGTERM or SIGHUP (the
        signal is raised again once the server has stopped, for the caller's handler)."""
        self._uvicorn.run(sockets=[self.socket])

    def start(self) -> ReviewServer:
        """Serve from a background thread (tests, benchmarks); `close` stops it."""
        self._thread = threading.Thread(target=self.serve_forever, name="redacto-http", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and stop the jobs (`JobBoard.close`). Safe to call from the thread
        that ran `serve_forever` once it has returned."""
        if self._thread is not None:
            self._uvicorn.should_exit = True
            self._thread.join()
        self.board.close()  # wakes the event streams' waits too
        self._threads.shutdown(wait=True, cancel_futures=True)
        self.socket.close()

    def __enter__(self) -> ReviewServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _ReviewUvicorn(uvicorn.Server):
    """uvicorn's server, stopping on SIGHUP (the terminal closed) as on SIGINT and SIGTERM,
    and ending the event streams (`stopping`) before it waits for answers under way."""

    def __init__(self, config: uvicorn.Config, stopping: asyncio.Event) -> None:
        super().__init__(config)
        self.stopping = stopping

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.stopping.set()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        with super().capture_signals():
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            previous = signal.signal(signal.SIGHUP, self.handle_exit)
            try:
                yield
            finally:
                signal.signal(signal.SIGHUP, previous)
