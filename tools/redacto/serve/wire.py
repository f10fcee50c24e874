"""Connection plumbing of the review server: read deadlines, and what may reach the log.

`DeadlineReader` is the socket reader under each connection's `rfile`: every read waits at
most the idle timeout, and never past the deadline set for what is being read (the whole
request head, then the whole body), so a client sending a byte now and then cannot hold a
thread for ever. `loggable` turns anything a client sent into one short line of printable
ASCII, so a request cannot write escape sequences to the operator's terminal.
"""

from __future__ import annotations

import io
import re
import socket
import time

_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")
LOGGED_CHARS = 120


class DeadlineReader(io.RawIOBase):
    """Reads a socket, each read bounded by `idle_s` and by `deadline` (monotonic time),
    raising `TimeoutError` when either passes."""

    def __init__(self, connection: socket.socket, idle_s: float) -> None:
        self.connection = connection
        self.idle_s = idle_s
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        timeout = self.idle_s
        if self.deadline is not None:
            timeout = min(timeout, self.deadline - time.monotonic())
            if timeout <= 0:
                raise TimeoutError("the request took too long")
        self.connection.settimeout(timeout)
        return self.connection.recv_into(buffer)


def loggable(text: str) -> str:
    """`text` as one line of printable ASCII (other characters as `\\xNN`), cut short."""
    shown = _UNPRINTABLE.sub(lambda match: ascii(match.group())[1:-1], text[:LOGGED_CHARS])
    return shown + ("…" if len(text) > LOGGED_CHARS else "")
