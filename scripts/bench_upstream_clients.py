"""Which HTTP client should carry the proxy's and proofread's upstream requests?

Each candidate sends the same requests to the echo upstream (tests/proxy/echo_upstream.py,
its own process) one after another, whole and streamed, over one kept-alive connection;
the figure is this process's CPU per request (what the client costs the proxy's event
loop), median of `--rounds`, plus wall time. Plain HTTP on loopback, then TLS.

    python scripts/bench_upstream_clients.py --requests 400 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
TEXT = "Please write to the team about the quarterly figures before Friday. " * 3


def body(stream: bool) -> bytes:
    return orjson.dumps(
        {"model": "m", "stream": stream, "messages": [{"role": "user", "content": TEXT}]}
    )


async def hand_written(url: str, n: int, stream: bool) -> None:
    from redacto.upstream import UpstreamPool

    pool = UpstreamPool(url)
    headers = [(b"content-type", b"application/json")]
    for _ in range(n):
        response = await pool.request(b"POST", b"/v1/chat/completions", headers, body(stream))
        async for _chunk in response.chunks():
            pass
    pool.close()


async def with_httpx(url: str, n: int, stream: bool) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=url, verify=False) as client:
        for _ in range(n):
            request = client.build_request(
                "POST",
                "/v1/chat/completions",
                content=body(stream),
                headers={"content-type": "application/json", "accept-encoding": "identity"},
            )
            response = await client.send(request, stream=True)
            async for _chunk in response.aiter_raw():
                pass
            await response.aclose()


async def with_aiohttp(url: str, n: int, stream: bool) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(ssl=False)
    async with aiohttp.ClientSession(url, connector=connector, auto_decompress=False) as session:
        for _ in range(n):
            async with session.post(
                "/v1/chat/completions",
                data=body(stream),
                headers={"content-type": "application/json", "accept-encoding": "identity"},
            ) as response:
                async for _chunk in response.content.iter_any():
                    pass


CLIENTS = {"hand-written (httptools)": hand_written, "httpx": with_httpx, "aiohttp": with_aiohttp}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'tests' / 'proxy'}:{ROOT / 'tools'}")
    upstream = subprocess.Popen(
        [sys.executable, str(ROOT / "tests/proxy/echo_upstream.py"), str(port)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert upstream.stdout is not None
        upstream.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        print(f"{'client':28} {'answer':9} {'CPU µs/req':>11} {'wall µs/req':>12}")
        for name, client in CLIENTS.items():
            for stream in (False, True):
                cpu, wall = [], []
                for _ in range(args.rounds):
                    c0, w0 = time.process_time(), time.perf_counter()
                    asyncio.run(client(url, args.requests, stream))
                    cpu.append((time.process_time() - c0) / args.requests * 1e6)
                    wall.append((time.perf_counter() - w0) / args.requests * 1e6)
                kind = "streamed" if stream else "whole"
                print(
                    f"{name:28} {kind:9} {statistics.median(cpu):11.0f} "
                    f"{statistics.median(wall):12.0f}",
                    flush=True,
                )
    finally:
        upstream.terminate()
        upstream.wait(5)


if __name__ == "__main__":
    main()
