"""Scrubbing a large request off the event loop, with a bound on its text.

The rules tier costs ≈ 0.2 ms a KB of prose and several times that on text dense with
numbers; on the event loop's thread a message of megabytes would stop every other client
for seconds. A large request is therefore parsed and redacted on a scrub thread of its own
while the loop goes on serving; it is answered 413 when its text is over the bound. The
deadline is the caller's (`Proxy`: from the request's arrival, its waits included): when
it passes, the scrub is abandoned and the request answered 503 — never forwarded
unscrubbed.

Scrub threads are daemons, so Ctrl-C ends the process at once even mid-scrub; the work an
abandoned scrub still does is bounded by the text bound (detection is linear in the text),
and it stops at the next text it would read. It works on the request's own copy of the
vault, which is never committed, so nothing it still writes is read by another request. A
thread's slot is given back when the thread really ends, so abandoned scrubs cannot pile
up.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TypeVar

from redacto.proxy.detectors import Found, TextDetector
from redacto.proxy.errors import Refused

T = TypeVar("T")


class ScrubAbandoned(RuntimeError):
    """The request's deadline passed; its scrub thread stops at the next text."""


@dataclass
class TextBudget:
    """A detector that reads at most `max_chars` characters for one request, and stops
    once the request is abandoned (`cancelled`)."""

    inner: TextDetector
    max_chars: int
    cancelled: threading.Event = field(default_factory=threading.Event)
    used: int = 0

    def find(self, text: str) -> list[Found]:
        if self.cancelled.is_set():
            raise ScrubAbandoned("the request was abandoned")
        self.used += len(text)
        if self.used > self.max_chars:
            raise Refused(
                413,
                f"the request holds more than {self.max_chars} characters of text to "
                "inspect; nothing was forwarded",
                "too_much_text",
            )
        return self.inner.find(text)


@dataclass
class Scrubber:
    """Runs blocking scrubs on daemon threads, `threads` at a time. The caller bounds the
    wait (for a thread, then for the scrub) with its request's deadline."""

    threads: int
    _slots: asyncio.Semaphore | None = None

    async def run(self, work: Callable[[], T], cancelled: threading.Event) -> T:
        """`work()` on a scrub thread; `cancelled` is set when this call is cancelled (its
        deadline passed, a stop) before the work is done."""
        loop = asyncio.get_running_loop()
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.threads)
        slots = self._slots
        await slots.acquire()
        done: asyncio.Future[T] = loop.create_future()

        def settle(result: T | None, error: BaseException | None) -> None:
            slots.release()
            if done.done():
                return  # abandoned: nobody waits for it
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(result)  # type: ignore[arg-type]

        def target() -> None:
            result, error = None, None
            try:
                result = work()
            except BaseException as raised:  # handed to the waiting request
                error = raised
            with suppress(RuntimeError):  # the loop has closed: the process is ending
                loop.call_soon_threadsafe(settle, result, error)

        threading.Thread(target=target, name="redacto-scrub", daemon=True).start()
        try:
            return await asyncio.shield(done)
        finally:
            if not done.done():  # past the deadline, a stop, or the request abandoned
                cancelled.set()  # the scrub stops at the next text it would read
                done.cancel()


def inspection_timeout() -> Refused:
    """The refusal of a request not inspected within its deadline."""
    return Refused(
        503,
        "the request could not be inspected in time; nothing was forwarded",
        "inspection_timeout",
    )
