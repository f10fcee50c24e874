"""What one client may ask of the proxy: bounds on size and on time.

Each bound is there so that one client — careless or hostile — cannot take the proxy from
the others: a body too large to hold, a message too large to scrub in time, a connection
that sends nothing, a client that never reads its answer. What a bound refuses is never
forwarded (docs/proxy-http.md, § One client cannot hold the proxy).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Limits:
    """Bounds on one client's requests and connections."""

    max_body_bytes: int = 64 * MIB
    """A request body over this is answered 413 — at once when its Content-Length says so,
    before a byte of it is read; a chunked one as soon as it passes the bound."""
    max_bodies_bytes: int = 256 * MIB
    """Request bodies held at once, every connection's together (received, queued or being
    handled); a body that would pass it is answered 503 (`busy`) and its connection closed.
    What a connection held is given back when it ends, whether or not its request did."""
    max_text_chars: int = 2_000_000
    """Characters of text the detectors read for one request (≈ 500,000 tokens, more than
    the context of the models this proxy fronts); more is answered 413."""
    scrub_timeout_s: float = 30.0
    """A request not inspected within this of its arrival (its body read whole) is
    answered 503 and never forwarded. Every wait before it is forwarded counts: for its
    conversation (one request at a time redacts one), for a scrub thread, the scrub itself
    and the vault; its vault is updated only if it finished in time (`--inspect-timeout`)."""
    inline_bytes: int = 16 * KIB
    """Bodies up to this are scrubbed on the event loop (the rules tier takes ≈ 0.2 ms a
    KB: a hop to a thread would cost more than it saves); larger ones on a scrub thread,
    so that the proxy keeps serving its other clients meanwhile."""
    scrub_threads: int = 2
    """Requests scrubbed on threads at once; the next ones wait (the wait counts in their
    `scrub_timeout_s`)."""
    max_header_bytes: int = 64 * KIB
    """The request line and headers together; more is answered 431."""
    header_timeout_s: float = 10.0
    """From a connection's start, or a request's first byte, to the end of its headers."""
    body_timeout_s: float = 60.0
    """From the end of a request's headers to the end of its body."""
    idle_timeout_s: float = 30.0
    """A kept-alive connection with no request in flight is closed after this."""
    send_timeout_s: float = 60.0
    """A client that takes none of a streamed answer for this long is disconnected (the
    upstream is read only as fast as the client takes the answer)."""


@dataclass
class BodyBudget:
    """The bytes of request bodies held across every connection of one event loop, within
    `Limits.max_bodies_bytes` (one loop, one thread: no lock)."""

    limit: int
    held: int = field(default=0)
    _since_trim: int = 0
    """Bytes taken since the allocator last gave memory back (`_give_memory_back`)."""

    def take(self, size: int) -> bool:
        """Count `size` more bytes; False (nothing counted) when they would pass the limit."""
        if self.held + size > self.limit:
            return False
        self.held += size
        self._since_trim += size
        return True

    def give_back(self, size: int) -> None:
        self.held -= size
        if self.held == 0 and self._since_trim >= TRIM_AFTER:
            self._since_trim = 0
            _give_memory_back()


TRIM_AFTER = 32 * MIB
"""Once this much body has come and every body is gone, the allocator is asked to return
its free memory to the system: glibc keeps what Python freed for reuse, so a burst of
large bodies left the process's resident size at its peak for good (measured in
docs/proxy-http.md, § Many half-sent bodies)."""


def _trimmer() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc: nothing to ask
        return None
    return trim


_MALLOC_TRIM = _trimmer()


def _give_memory_back() -> None:
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
