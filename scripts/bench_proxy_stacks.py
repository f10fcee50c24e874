"""The proxy's HTTP stack, measured against well-kept ones doing the same work, in one run.

    python scripts/bench_proxy_stacks.py [--latency-seconds 5] [--load-seconds 8]

The question measured: HTTP framing, back-pressure and timeouts from a well-kept stack
(uvicorn/h11, httpx or aiohttp) if one keeps the throughput goal (≥ 3,000 req/s and
≤ 1 ms added at p50 on PII-free 1 KB prompts). Each variant below does the proxy's work —
parse the JSON, run the rules tier over the message, forward to the echo upstream,
pass the answer back (streamed answers event by event) — on a different stack:

- `redacto`: `redacto proxy` as shipped (asyncio protocols, httptools, uvloop);
- `uvicorn+httpx`: an ASGI app on uvicorn (httptools, uvloop) with httpx's client;
- `uvicorn+ours`: the same ASGI app with the proxy's own upstream client;
- `aiohttp`: aiohttp's server and client (its C parser, uvloop);
- with `--baseline REV`, also `redacto@REV`: `redacto proxy` as it was at that commit (a
  git worktree), to show what a change to the shipped stack cost.

The variants skip the vault and restoring (the PII-free bodies hide nothing, so the proxy
skips them too). Prints a Markdown table for docs/journal/proxy.md (§ The HTTP stack:
uvicorn against the hand-written server); fails on a non-2xx answer or a socket error, as
bench_proxy.py does.

    python scripts/bench_proxy_stacks.py --serve VARIANT PORT UPSTREAM   # one on its own
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "proxy"))

from bench_proxy import (  # noqa: E402
    BODIES,
    CHAT,
    TARGET_ADDED_P50_MS,
    TARGET_RPS,
    Body,
    start_echo_and_redacto,
)
from bench_proxy_load import (  # noqa: E402
    Server,
    checkout_at,
    run_wrk,
    start_proxy_at,
    start_server,
    stop_all,
)

from redacto.proxy.detectors import RuleTier  # noqa: E402
from redacto.proxy.payload import RequestRedactor  # noqa: E402
from redacto.upstream import UpstreamPool  # noqa: E402
from redacto.vault import Vault  # noqa: E402

VARIANTS = ("uvicorn+httpx", "uvicorn+ours", "aiohttp")
PROSE_BODIES = [body for body in BODIES if body.name == "PII-free prose"]

Chunks = Callable[[], AsyncIterator[bytes]]


async def _redacted(redactor: RequestRedactor, raw: bytes) -> bytes:
    body = orjson.loads(raw)
    hidden = await redactor.redact("chat", body, Vault())
    return orjson.dumps(body) if hidden else raw


def _asgi_app(upstream: str, ours: bool) -> Any:
    redactor = RequestRedactor(rules=RuleTier())
    pool = UpstreamPool(upstream)
    client = httpx.AsyncClient(base_url=upstream, timeout=120)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        raw = b""
        while True:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        forwarded = await _redacted(redactor, raw)
        headers = [(b"content-type", b"application/json")]
        if ours:
            response = await pool.request(b"POST", CHAT.encode(), headers, forwarded)
            status, kind, chunks = response.status, response.content_type, response.chunks
        else:
            request = client.build_request("POST", CHAT, content=forwarded, headers=headers)
            answer = await client.send(request, stream=True)
            status = answer.status_code
            kind = answer.headers.get("content-type", "").encode()
            chunks = answer.aiter_raw
        out = [(b"content-type", kind or b"application/json")]
        await send({"type": "http.response.start", "status": status, "headers": out})
        async for chunk in chunks():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    return app


def _serve_uvicorn(port: int, upstream: str, ours: bool) -> None:
    import uvicorn

    config = uvicorn.Config(
        _asgi_app(upstream, ours), host="127.0.0.1", port=port, log_level="warning",
        loop="uvloop", http="httptools", lifespan="off", access_log=False,
    )  # fmt: skip
    server = uvicorn.Server(config)

    async def main() -> None:
        serving = asyncio.get_running_loop().create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        print(f"stack on {server.servers[0].sockets[0].getsockname()[1]}", flush=True)
        await serving

    import uvloop

    uvloop.run(main())


def _serve_aiohttp(port: int, upstream: str) -> None:
    import aiohttp
    import uvloop
    from aiohttp import web

    redactor = RequestRedactor(rules=RuleTier())

    async def main() -> None:
        session = aiohttp.ClientSession(base_url=upstream)

        async def handle(request: web.Request) -> web.StreamResponse:
            forwarded = await _redacted(redactor, await request.read())
            headers = {"content-type": "application/json"}
            async with session.post(CHAT, data=forwarded, headers=headers) as answer:
                kind = answer.headers.get("content-type", "application/json")
                if "text/event-stream" not in kind:
                    return web.Response(
                        status=answer.status, body=await answer.read(), content_type=kind
                    )
                response = web.StreamResponse(status=answer.status, headers={"content-type": kind})
                await response.prepare(request)
                async for chunk in answer.content.iter_any():
                    await response.write(chunk)
                await response.write_eof()
                return response

        app = web.Application()
        app.router.add_post(CHAT, handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", port)
        await site.start()
        print(f"stack on {runner.addresses[0][1]}", flush=True)
        await _forever()

    uvloop.run(main())


async def _forever() -> None:
    await asyncio.Event().wait()


def serve(variant: str, port: int, upstream: str) -> None:
    """One variant on `port` in front of `upstream`, until interrupted."""
    try:
        if variant == "aiohttp":
            _serve_aiohttp(port, upstream)
        else:
            _serve_uvicorn(port, upstream, ours=variant == "uvicorn+ours")
    except KeyboardInterrupt:
        pass


def _check(server: Server, body: Body) -> None:
    response = httpx.post(server.url + CHAT, content=body.json(), timeout=30)
    if response.status_code != 200 or body.text[:40] not in response.text.replace('","', ""):
        if body.stream and response.status_code == 200:
            return  # the stream's text comes in 8-character pieces: status is the check
        raise RuntimeError(f"{server.name}: {response.status_code} {response.text[:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency-seconds", type=int, default=5)
    parser.add_argument("--load-seconds", type=int, default=8)
    parser.add_argument("--serve", nargs=3, metavar=("VARIANT", "PORT", "UPSTREAM"))
    parser.add_argument("--baseline", metavar="REV", help="also measure redacto at REV")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2])
        return
    with tempfile.TemporaryDirectory() as name, ExitStack() as stack:
        folder = Path(name)
        started: dict[str, Server] = {}
        baseline = (
            stack.enter_context(checkout_at(args.baseline, folder)) if args.baseline else None
        )
        stack.callback(stop_all, started)
        echo = start_echo_and_redacto(started, folder, ner=False)
        if baseline is not None:
            started[f"redacto@{args.baseline}"] = start_proxy_at(
                baseline, echo.url, folder, "--no-ner"
            )
        for variant in VARIANTS:
            started[variant] = start_server(
                variant,
                [sys.executable, __file__, "--serve", variant, "0", echo.url],
                r"stack on ([0-9]+)",
                folder,
            )
        _measure(started, folder, args.latency_seconds, args.load_seconds)


def _measure(started: dict[str, Server], folder: Path, latency_s: int, load_s: int) -> None:
    print("| body | stack | c=1 p50 ms | added p50 ms | c=16 req/s | CPU µs/req | goal |")
    print("|---|---|--:|--:|--:|--:|---|")
    for body in PROSE_BODIES:
        script = body.wrk_script(folder)
        direct_p50 = 0.0
        for path in started:
            server = started[path]
            _check(server, body)
            url = server.url + CHAT
            run_wrk(url, script, 4, 1)  # warm-up
            latency = run_wrk(url, script, 1, latency_s)
            before = server.cpu_seconds()
            load = run_wrk(url, script, 16, load_s)
            cpu_us = (server.cpu_seconds() - before) / load.requests * 1e6
            if path == "direct":
                direct_p50 = latency.p50_ms
                added, goal = "—", "—"
            else:
                extra = latency.p50_ms - direct_p50
                met = extra <= TARGET_ADDED_P50_MS and load.rps >= TARGET_RPS
                added, goal = f"{extra:.2f}", "met" if met else "missed"
            print(
                f"| {body.label} | {path} | {latency.p50_ms:.2f} | {added} "
                f"| {load.rps:,.0f} | {cpu_us:,.0f} | {goal} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
