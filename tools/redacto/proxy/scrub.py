"""Scrubbing a large request off the event loop, with a bound on its text and a deadline.

The rules tier costs ≈ 0.2 ms a KB of prose and several times that on text dense with
numbers; on the event loop's thread a message of megabytes would stop every other client
for seconds. A large request is therefore parsed and redacted on a scrub thread of its own
while the loop goes on serving; it is answered 413 when its text is over the bound and
503 when it is not done by the deadline — never forwarded unscrubbed.

Scrub threads are daemons, so Ctrl-C ends the process at once even mid-scrub; the work an
abandoned scrub still does is bounded by the text bound (detection is linear in the text),
and it stops at the next text it would read. A thread's slot is given back when the
thread really ends, so abandoned scrubs cannot pile up.
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
    """Runs blocking scrubs on daemon threads, `threads` at a time, each within
    `timeout_s` of its request's arrival (waiting for a thread included)."""

    threads: int
    timeout_s: float
    _slots: asyncio.Semaphore | None = None

    async def run(self, work: Callable[[], T], cancelled: threading.Event) -> T:
        """`work()` on a scrub thread; `cancelled` is set when the deadline passes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.threads)
        slots = self._slots
        # `asyncio.timeout`, not `wait_for`: on 3.11 a cancel that lands in the loop turn in
        # which the awaited thing completes is swallowed by wait_for, and a stop (Ctrl-C)
        # then waited for the whole scrub and forwarded the request.
        try:
            async with asyncio.timeout(self.timeout_s):
                await slots.acquire()
        except TimeoutError:
            raise _too_slow() from None
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
            async with asyncio.timeout_at(deadline):
                return await asyncio.shield(done)
        except TimeoutError:
            raise _too_slow() from None
        finally:
            if not done.done():  # past the deadline, a stop, or the request abandoned
                cancelled.set()  # the scrub stops at the next text it would read
                done.cancel()


def _too_slow() -> Refused:
    return Refused(
        503,
        "the request could not be inspected in time; nothing was forwarded",
        "inspection_timeout",
    )
