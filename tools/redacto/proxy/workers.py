"""`redacto proxy --workers N`: N processes serving one listening socket, each a uvicorn
server of its own proxy, sharing a Redis vault. One event loop is one core's worth of work:
this is how one host gives the proxy more than one core.

The parent binds and listens, forks the workers (each inherits the socket; the kernel hands
each new connection to one of them), waits for each to say it is ready, and then only
watches: Ctrl-C or SIGTERM stops them all; a worker that ends on its own ends the others
too, so a service manager sees one failure and restarts the whole. Each worker reads a
pipe from the parent and stops when it closes, so a parent killed outright leaves no worker
behind.

Not uvicorn's own `--workers` supervisor: it starts a worker anew when one dies (a proxy
would go on with a worker that may fail the same way again, and nobody told), and it
spawns them through multiprocessing, whose resource tracker is one more process; its
workers also need the application as an import string, where each proxy worker builds its
own from this command's options.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from types import FrameType

POLL_S = 0.2
STOP_WAIT_S = 10.0
READY_WAIT_S = 120.0

ServeOne = Callable[[socket.socket, Callable[[], None]], int]
"""A worker's whole life: serve on the socket, call the second argument once listening,
return the exit status."""


class WorkersFailed(RuntimeError):
    """A worker did not start, or ended on its own."""


def run_workers(
    sock: socket.socket, workers: int, serve_one: ServeOne, on_ready: Callable[[], None]
) -> None:
    """Fork `workers` processes that each run `serve_one` on the listening `sock`, until
    Ctrl-C or SIGTERM; raises `WorkersFailed` if one does not start or ends on its own."""
    ready_read, ready_write = os.pipe()
    alive_read, alive_write = os.pipe()  # the workers' end reads EOF once the parent is gone
    children: dict[int, bool] = {}  # pid: still running
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the worker; its coverage is its own process's
            os.close(ready_read)
            os.close(alive_write)
            _worker(sock, serve_one, ready_write, alive_read)
        children[pid] = True
    os.close(ready_write)
    os.close(alive_read)
    sock.close()  # the workers hold it now; a parent holding it would keep connections queued
    stop = threading.Event()

    def asked_to_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, asked_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        _wait_ready(ready_read, children, stop)
        on_ready()
        while not stop.is_set():
            if _reap(children):
                raise WorkersFailed("a worker ended on its own; the others were stopped")
            stop.wait(POLL_S)
    finally:
        _stop_all(children)
        os.close(ready_read)
        os.close(alive_write)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _worker(  # pragma: no cover - runs in the forked worker
    sock: socket.socket, serve_one: ServeOne, ready: int, alive: int
) -> None:
    os.setpgid(0, 0)  # Ctrl-C reaches the parent, which passes it on once
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch_parent() -> None:
        with contextlib.suppress(OSError):
            while os.read(alive, 4096):
                pass
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch_parent, name="redacto-parent-watch", daemon=True).start()

    def tell_ready() -> None:
        os.write(ready, b"r")

    status = 1
    try:
        status = serve_one(sock, tell_ready)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def _reap(children: dict[int, bool]) -> bool:
    """Whether a worker has ended since the last look (it is marked ended)."""
    ended = False
    for pid, running in children.items():
        if running and os.waitpid(pid, os.WNOHANG)[0] == pid:
            children[pid] = False
            ended = True
    return ended


def _wait_ready(ready: int, children: dict[int, bool], stop: threading.Event) -> None:
    deadline = time.monotonic() + READY_WAIT_S
    waiting = len(children)
    while waiting:
        if stop.is_set():
            raise KeyboardInterrupt
        if _reap(children) or time.monotonic() > deadline:
            raise WorkersFailed("a worker did not start (its error is above)")
        with contextlib.suppress(InterruptedError):
            readable, _, _ = select.select([ready], [], [], POLL_S)
            if readable:
                waiting -= len(os.read(ready, waiting))


def _stop_all(children: dict[int, bool]) -> None:
    """Ctrl-C to each worker still running; SIGKILL to one that has not ended in time."""
    for pid, running in children.items():
        if running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + STOP_WAIT_S
    while any(children.values()) and time.monotonic() < deadline:
        _reap(children)
        time.sleep(0.05)
    for pid, running in children.items():
        if running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            children[pid] = False
