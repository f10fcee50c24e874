"""`redacto proxy --workers N`: N proxy processes on one port, sharing a Redis vault.

The parent binds the port with `SO_REUSEPORT` (resolving port 0) and holds it without
listening, so the port stays this deployment's; each worker is the same `redacto proxy`
command with `--worker`, which listens on that port with `SO_REUSEPORT` too, and the kernel
spreads new connections over the workers. One event loop is one core's worth of work: this
is how one host gives the proxy more than one core.

The parent starts every worker, waits for each to say it is ready, and then only watches:
Ctrl-C or SIGTERM stops them all (each finishes as a single proxy does); a worker that ends
on its own ends the others too, so a service manager sees one failure and restarts the
whole, rather than a proxy quietly serving with fewer workers. Each worker reads a pipe
from the parent and stops when it closes, so a parent killed outright (SIGKILL) leaves no
worker behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

POLL_S = 0.2
STOP_WAIT_S = 10.0
READY_WAIT_S = 120.0


class WorkersFailed(RuntimeError):
    """A worker did not start, or ended on its own."""


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` with `SO_REUSEPORT`, not listening: it keeps the port
    (and resolves port 0) while the workers bind it too."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    held = socket.socket(family, kind, proto)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    held.bind(address)
    return held


def run_workers(
    command: list[str], workers: int, host: str, port: int, on_ready: Callable[[int], None]
) -> None:
    """Run `workers` copies of `command` (a `redacto proxy` command line without `--listen`)
    on `host:port` until Ctrl-C or SIGTERM; raises `WorkersFailed` if one fails."""
    held = reserve_port(host, port)
    port = held.getsockname()[1]
    listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    stop = threading.Event()

    def asked_to_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, asked_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    children: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(workers):
            children.append(
                subprocess.Popen(
                    [*command, "--listen", listen, "--worker"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    process_group=0,  # Ctrl-C reaches the parent, which passes it on once
                )
            )
        for child in children:
            _wait_ready(child, stop)
        on_ready(port)
        while not stop.is_set():
            if any(child.poll() is not None for child in children):
                raise WorkersFailed("a worker ended on its own; the others were stopped")
            stop.wait(POLL_S)
    finally:
        _stop_all(children)
        held.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def worker_command() -> list[str]:
    """How to start this same `redacto` in another process."""
    return [sys.executable, "-c", "import sys; from redacto.cli import app; sys.exit(app())"]


def exit_with_parent() -> None:
    """In a worker: stop (as Ctrl-C does) when the parent's pipe on stdin closes."""

    def watch() -> None:
        # The file descriptor itself, not sys.stdin: a daemon thread blocked inside a
        # buffered reader's lock aborts the interpreter's shutdown ("could not acquire lock").
        with contextlib.suppress(OSError):
            while os.read(0, 4096):
                pass
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch, name="redacto-parent-watch", daemon=True).start()


def _wait_ready(child: subprocess.Popen[bytes], stop: threading.Event) -> None:
    stdout = child.stdout
    assert stdout is not None
    ready: list[bytes] = []
    reader = threading.Thread(target=lambda: ready.append(stdout.readline()), daemon=True)
    reader.start()
    deadline = time.monotonic() + READY_WAIT_S
    while reader.is_alive() and not stop.is_set() and time.monotonic() < deadline:
        reader.join(POLL_S)
    if stop.is_set():
        raise KeyboardInterrupt
    if not ready or b"/v1" not in ready[0]:
        raise WorkersFailed("a worker did not start (its error is above)")


def _stop_all(children: list[subprocess.Popen[bytes]]) -> None:
    """Ctrl-C to each worker, then their pipes closed once they have ended (closing them
    first would tell a worker twice, the second time while it is stopping)."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
    deadline = time.monotonic() + STOP_WAIT_S
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    for child in children:
        if child.stdin is not None:
            with contextlib.suppress(OSError):
                child.stdin.close()
