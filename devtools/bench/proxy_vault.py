"""The shared vault's cost: `redacto proxy` with its vaults in memory, in Redis, and in Redis
with two processes on one port, side by side in one run.

    python -m devtools.bench.proxy_vault [--latency-seconds 5] [--load-seconds 8]
        [--baseline COMMIT]

Starts on free loopback ports the echo upstream (devtools/fixtures/echo_upstream.py), a
`redis-server` of its own (devtools/fixtures/redis_server.py: no persistence) and three proxies in
front of the echo: `memory` (one process, the default vault), `redis` (one process,
`--vault redis://…`) and `redis ×2` (`--workers 2`: two processes on one port). Every request
names its conversation (`Authorization` and `X-Redacto-Conversation`), as a chat client does,
so the shared vault is used on every request; the bodies are devtools/bench/proxy.py's ≈ 1 KB
chat messages: PII-free prose, and the message with an email, a phone number, a card and an
SSN, whole and streamed, each request continuing one of 64 conversations in turn (their
values known after the first requests: each request reads them and adds nothing), and the
PII message once more with a new conversation on every request (each request numbers and
seals four new values).

Before timing, each body goes once through each proxy and must come back as the original
text; after it, Redis is dumped and must hold none of the values. For each body and path
wrk runs at one connection (latency) and at 16 (requests/s); *CPU µs/req* is the proxy's
processes' CPU (the workers' too) per request at 16 connections, *Redis µs/req* the Redis
server's. Prints Markdown for docs/journal/proxy.md (§ The shared vault), with the machine's
load average before and after. `--baseline COMMIT` runs the whole bench again with COMMIT's
code and prints both side by side.
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
import orjson

from devtools.bench.harness import (
    BenchError,
    Server,
    WrkRun,
    bench_parser,
    cpu_seconds,
    latency_and_load,
    main_or_compare,
    ms_cell,
    require_wrk,
    start_server,
    wrk_post_lines,
)
from devtools.bench.proxy import (
    LOOPBACK,
    PROSE,
    PROXY_READY,
    STRUCTURED_PII,
    WITH_PII,
    answer_text,
    redacto_command,
)
from devtools.fixtures.redis_server import RedisServer

CHAT = "/v1/chat/completions"
PATHS = ("direct", "memory", "redis", "redis ×2")
CREDENTIAL = "Bearer bench-client"
ONGOING = 64


@dataclass(frozen=True)
class Body:
    """One benchmark request: a chat message, whole or streamed, continuing one of
    `ONGOING` conversations in turn, or in a new conversation on every request."""

    name: str
    text: str
    stream: bool
    new_conversations: bool = False

    @property
    def label(self) -> str:
        where = "new conversations" if self.new_conversations else f"{ONGOING} conversations"
        return f"{self.name}, {'streamed' if self.stream else 'whole'}, {where}"

    def json(self) -> bytes:
        message = {"role": "user", "content": self.text}
        return orjson.dumps({"model": "m", "messages": [message], "stream": self.stream})

    def wrk_script(self, folder: Path, number: int) -> Path:
        """wrk's Lua script: the body, the credential, and the conversation's name (a new
        one per request, from a random start per wrk run, where asked)."""
        if self.new_conversations:
            conversation = '"bench-" .. run .. "-" .. count'
        else:
            conversation = f'"bench-{number}-" .. (count % {ONGOING})'

        lines = [
            *wrk_post_lines(self.json().decode()),
            f'wrk.headers["Authorization"] = "{CREDENTIAL}"',
            "math.randomseed(os.time() + os.clock() * 1e6)",
            "local run, count = math.random(1, 1e9), 0",
            "request = function()",
            "  count = count + 1",
            f'  wrk.headers["X-Redacto-Conversation"] = {conversation}',
            "  return wrk.format()",
            "end",
        ]
        path = folder / f"body-{number}.lua"
        path.write_text("\n".join(lines) + "\n")
        return path


BODIES = [
    Body("PII-free prose", PROSE, False),
    Body("PII-free prose", PROSE, True),
    Body("with PII", WITH_PII, False),
    Body("with PII", WITH_PII, True),
    Body("with PII", WITH_PII, False, new_conversations=True),
]


@contextmanager
def servers(folder: Path, redis: RedisServer) -> Iterator[dict[str, Server]]:
    """The echo upstream and the three proxies in front of it, stopped on the way out."""
    started: dict[str, Server] = {}
    try:
        echo = started["direct"] = start_server(
            "echo",
            [sys.executable, "-m", "devtools.fixtures.echo_upstream", "0"],
            r"echo upstream on ([0-9]+)",
            folder,
        )
        proxy = [*redacto_command(), "proxy", "--upstream", echo.url, *LOOPBACK]
        shared = ["--vault", redis.url]
        for path, extra in (
            ("memory", []),
            ("redis", shared),
            ("redis ×2", [*shared, "--workers", "2"]),
        ):
            started[path] = start_server(
                path.replace(" ×", "-x"),
                [*proxy, *extra],
                PROXY_READY,
                folder,
            )
        yield started
    finally:
        for server in reversed(started.values()):
            server.stop()


def check_round_trips(started: dict[str, Server]) -> None:
    """Every body through every proxy comes back as the original text."""
    with httpx.Client(timeout=60) as client:
        for number, body in enumerate(BODIES):
            for path in PATHS[1:]:
                headers = {
                    "content-type": "application/json",
                    "authorization": CREDENTIAL,
                    "x-redacto-conversation": f"check-{number}",
                }
                response = client.post(
                    started[path].url + CHAT, content=body.json(), headers=headers
                )
                if answer_text(response, body.stream) != body.text:
                    raise BenchError(f"{path}, {body.label}: the answer is not the original text")


def check_redis_holds_no_value(redis: RedisServer) -> int:
    """Raises if any value is in Redis in clear; returns how many keys it holds."""
    dump = redis.dump()
    digits = ["".join(ch for ch in value if ch.isdigit()) for value in STRUCTURED_PII[1:]]
    if any(value.encode() in dump for value in (*STRUCTURED_PII, *digits)):
        raise BenchError("Redis holds a value in clear")
    with redis.client() as client:
        return int(client.dbsize())


@dataclass(frozen=True)
class Row:
    body: Body
    path: str
    latency: WrkRun
    load: WrkRun
    cpu_us: float
    redis_us: float


def measure(
    started: dict[str, Server], redis: RedisServer, latency_s: int, load_s: int, folder: Path
) -> list[Row]:
    rows = []
    for number, body in enumerate(BODIES):
        script = body.wrk_script(folder, number)
        for path in PATHS:
            server = started[path]
            clocks = [
                partial(server.cpu_seconds, children=True),  # the workers too
                partial(cpu_seconds, redis.process.pid),
            ]
            run = latency_and_load(server.url + CHAT, script, latency_s, load_s, clocks)
            latency, load, (cpu_us, redis_us) = run.latency, run.load, run.cpu_us
            rows.append(Row(body, path, latency, load, cpu_us, redis_us))
            print(
                f"{body.label:52} {path:9} p50 {latency.p50_ms:7.3f} ms {load.rps:8.0f} req/s "
                f"{cpu_us:7.0f} µs CPU/req {redis_us:5.0f} µs Redis/req",
                file=sys.stderr,
                flush=True,
            )
    return rows


def table(rows: list[Row]) -> list[str]:
    direct = {row.body: row for row in rows if row.path == "direct"}
    lines = [
        "| body | path | c=1 p50 ms | added p50 ms | c=16 req/s | c=16 p50 ms | c=16 p99 ms "
        "| CPU µs/req | Redis µs/req |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        added = (
            "—"
            if row.path == "direct"
            else ms_cell(row.latency.p50_ms - direct[row.body].latency.p50_ms)
        )
        redis_us = f"{row.redis_us:,.0f}" if row.path.startswith("redis") else "—"
        lines.append(
            f"| {row.body.label} | {row.path} | {ms_cell(row.latency.p50_ms)} | {added} "
            f"| {row.load.rps:,.0f} | {ms_cell(row.load.p50_ms)} | {ms_cell(row.load.p99_ms)} "
            f"| {row.cpu_us:,.0f} | {redis_us} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--latency-seconds", type=int, default=5, help="each c=1 wrk run")
    parser.add_argument("--load-seconds", type=int, default=8, help="each c=16 wrk run")
    args = parser.parse_args(argv)
    packages = ("redis", "hiredis", "cryptography", "uvloop", "httptools", "orjson")
    tools = [["redis-server", "--version"], ["wrk", "--version"]]
    return main_or_compare(__spec__.name, args, argv, run, packages=packages, tools=tools)


def run(args: argparse.Namespace) -> None:
    require_wrk()
    os.environ["REDACTO_VAULT_KEY"] = base64.b64encode(os.urandom(32)).decode()
    with tempfile.TemporaryDirectory(prefix="bench-vault-") as temporary:
        folder = Path(temporary)
        redis = RedisServer.start(folder)
        try:
            with servers(folder, redis) as started:
                check_round_trips(started)
                rows = measure(started, redis, args.latency_seconds, args.load_seconds, folder)
            keys = check_redis_holds_no_value(redis)
        finally:
            redis.stop()
    print(
        "\n".join(
            [
                *table(rows),
                "",
                f"- Redis held {keys:,} keys after the run, none with a value in clear",
            ]
        )
    )


if __name__ == "__main__":
    sys.exit(main())
