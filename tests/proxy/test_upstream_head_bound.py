"""An upstream answer's head is bounded at `MAX_HEAD` however it arrives.

The bound was checked after each read had been parsed, and a read holds up to 256 KiB: a
head of 126 KB written at once was taken whole (a `200` with 600 headers of 200 bytes was
relayed), while the same head sent a header at a time was refused. Only the head's
allowance is parsed now; a head within it, and the body after it in the same read, are
read as before.
"""

from __future__ import annotations

import asyncio

import pytest

from redacto.upstream import UpstreamError, UpstreamPool
from redacto.upstream.client import MAX_HEAD

BODY = b'{"choices": []}'


async def _answer(head: bytes) -> bytes:
    """The body the pool reads from an upstream that writes `head` and `BODY` at once."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.write(head + b"content-length: %d\r\n\r\n" % len(BODY) + BODY)
        await writer.drain()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    pool = UpstreamPool(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}", read_timeout=5)
    try:
        response = await pool.request(b"POST", b"/v1/chat/completions", [], b"{}")
        return await response.read()
    finally:
        pool.close()
        server.close()


def headers(total: int) -> bytes:
    """A status line and headers of about `total` bytes."""
    line = b"x-filler: " + b"a" * 190 + b"\r\n"
    return b"HTTP/1.1 200 OK\r\n" + line * (total // len(line))


@pytest.mark.parametrize("size", [MAX_HEAD + 1024, 2 * MAX_HEAD, 4 * MAX_HEAD])
def test_a_head_over_the_bound_written_at_once_is_refused(size):
    with pytest.raises(UpstreamError, match="head is over"):
        asyncio.run(_answer(headers(size)))


def test_interim_answers_count_towards_the_bound():
    interim = b"HTTP/1.1 100 Continue\r\n\r\n" * (MAX_HEAD // 25 + 1)
    with pytest.raises(UpstreamError, match="head is over"):
        asyncio.run(_answer(interim + b"HTTP/1.1 200 OK\r\n"))


@pytest.mark.parametrize("size", [1024, MAX_HEAD - 1024])
def test_a_head_within_the_bound_and_its_body_in_the_same_read_are_read(size):
    assert asyncio.run(_answer(headers(size))) == BODY
