"""The upstream client under concurrency: a kept-alive connection goes back to the pool the
moment its response is complete, possibly before the request that read it has resumed, and
the next request may take it at once. Each response must keep its own body."""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx
import orjson

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy
from redacto.upstream import UpstreamError, UpstreamPool

CHAT = b"/v1/chat/completions"


def chat(text: str) -> bytes:
    return orjson.dumps({"model": "m", "messages": [{"role": "user", "content": text}]})


def answer(raw: bytes) -> str:
    return str(orjson.loads(raw)["choices"][0]["message"]["content"])


async def _first_then_second_on_its_connection(url: str) -> tuple[str, str]:
    pool = UpstreamPool(url, read_timeout=2.0)
    first = asyncio.create_task(pool.request(b"POST", CHAT, [], chat("first")))
    # The loop runs this task again, before the first request resumes, as soon as the
    # first response is in and its connection is idle: take that connection then.
    while not pool._idle:
        await asyncio.sleep(0)
    second = await pool.request(b"POST", CHAT, [], chat("second"))
    first_body = await (await first).read()
    second_body = await second.read()
    pool.close()
    return answer(first_body), answer(second_body)


def test_a_response_keeps_its_body_when_its_connection_is_taken_before_it_resumes(
    upstream: EchoUpstream,
) -> None:
    assert asyncio.run(_first_then_second_on_its_connection(upstream.url)) == ("first", "second")


async def _discard_after_reuse(url: str) -> str:
    pool = UpstreamPool(url, read_timeout=2.0)
    first = await pool.request(b"POST", CHAT, [], chat("first"))
    await first.read()
    delayed = [(b"x-echo-delay", b"0.2")]
    second = asyncio.create_task(pool.request(b"POST", CHAT, delayed, chat("second")))
    await asyncio.sleep(0.05)  # the second request is on the first one's connection now
    first.discard()  # finished: it must not take the connection the second one is using
    text = answer(await (await second).read())
    pool.close()
    return text


def test_discarding_a_finished_response_leaves_its_reused_connection_alone(
    upstream: EchoUpstream,
) -> None:
    assert asyncio.run(_discard_after_reuse(upstream.url)) == "second"


async def _clients(url: str, clients: int, requests: int) -> list[tuple[str, str]]:
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=10, limits=limits) as client:

        async def one(number: int) -> list[tuple[str, str]]:
            pairs = []
            for turn in range(requests):
                text = f"client {number} turn {turn}"
                response = await client.post(CHAT.decode(), content=chat(text))
                pairs.append((text, response.json()["choices"][0]["message"]["content"]))
            return pairs

        batches = await asyncio.gather(*(one(number) for number in range(clients)))
    return [pair for batch in batches for pair in batch]


def test_many_clients_at_once_each_get_their_own_answer(running: RunningProxy) -> None:
    pairs = asyncio.run(_clients(running.url, clients=16, requests=10))
    assert len(pairs) == 160
    assert all(sent == got for sent, got in pairs)


async def _endless_head() -> tuple[str, float]:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.write(b"HTTP/1.1 200 OK\r\n")
        with contextlib.suppress(ConnectionError):
            while not writer.is_closing():
                writer.write(b"x-filler: " + b"a" * 4000 + b"\r\n")
                await writer.drain()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    pool = UpstreamPool(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}", read_timeout=20)
    began = time.monotonic()
    try:
        await pool.request(b"POST", CHAT, [], chat("hello"))
        return "answered", time.monotonic() - began
    except UpstreamError as error:
        return str(error), time.monotonic() - began
    finally:
        server.close()


def test_an_answer_head_without_end_is_refused_at_its_bound() -> None:
    # Before: read into memory until the read timeout (≈ 900 MB in 4 s on loopback).
    error, took = asyncio.run(_endless_head())
    assert "head is over" in error
    assert took < 5
