"""The upstream client for synchronous callers (proofread): an async iterator stepped on an
event loop of the caller's own, one item at a time, so that the caller acts on each piece
of a streamed answer before the next one is read."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Generator
from typing import TypeVar

T = TypeVar("T")


def iterate(items: AsyncIterator[T]) -> Generator[T, None, None]:
    """`items`, synchronously. Must not be called on a thread that runs an event loop.

    Stopping early (the generator closed, an exception in the caller) closes `items`, so
    its connections are closed, then the loop."""
    loop = asyncio.new_event_loop()
    try:
        while True:
            try:
                item = loop.run_until_complete(anext(items))
            except StopAsyncIteration:
                return
            yield item
    finally:
        with contextlib.suppress(Exception):
            loop.run_until_complete(_close(items))
        loop.run_until_complete(asyncio.sleep(0))  # let closed transports finish closing
        loop.close()


async def _close(items: AsyncIterator[T]) -> None:
    close = getattr(items, "aclose", None)
    if close is not None:
        await close()
