"""Real `redacto proxy` processes sharing one real Redis: a conversation whose turns
alternate between two proxies gets every value back, whole and streamed; fifty first turns
of one conversation at once through two processes give one placeholder per value; `--workers`
serves one port from several processes; nothing in Redis is a value; a proxy without its
key does not start."""

from __future__ import annotations

import asyncio
import base64
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil
import pytest
from typer.testing import CliRunner

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.redis_server import RedisServer
from devtools.fixtures.running_proxy import streamed_text
from redacto.cli import app

pytestmark = pytest.mark.slow  # starts Redis and proxy processes

REDACTO = str(Path(sys.executable).parent / "redacto")
CHAT = "/v1/chat/completions"
PLACEHOLDER = re.compile(r"\[[A-Z]+_[0-9]+\]")


@dataclass
class ProxyProcess:
    process: subprocess.Popen[str]
    url: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_proxy_process(
    upstream: EchoUpstream,
    redis_url: str,
    key: str,
    log: Path,
    *extra: str,
    vault_in_env: bool = False,
) -> ProxyProcess:
    command = [REDACTO, "proxy", "--upstream", upstream.url, "--listen", "127.0.0.1:0"]
    command += ["--pass-header", "x-echo-reply", "--pass-header", "x-echo-piece"]
    env = os.environ | {"REDACTO_VAULT_KEY": key}
    if vault_in_env:
        env["REDACTO_VAULT"] = redis_url
    else:
        command += ["--vault", redis_url]
    with log.open("a") as errors:
        process = subprocess.Popen(
            [*command, *extra],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
        )
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        ready = re.search(r"Proxy on (http://127\.0\.0\.1:[0-9]+)/v1", lines.get(timeout=120))
    except queue.Empty:
        ready = None
    if ready is None:
        process.kill()
        pytest.fail(f"the proxy did not start: {log.read_text()[-2000:]}")
    return ProxyProcess(process, ready.group(1))


@pytest.fixture
def key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


@pytest.fixture
def two_proxies(
    upstream: EchoUpstream, redis_server: RedisServer, key: str, tmp_path: Path
) -> Iterator[list[ProxyProcess]]:
    started: list[ProxyProcess] = []
    try:
        for number in range(2):
            log = tmp_path / f"proxy-{number}.log"
            started.append(start_proxy_process(upstream, redis_server.url, key, log))
        yield started
    finally:
        for proxy in started:
            proxy.stop()


def answer_text(response: httpx.Response, stream: bool) -> str:
    assert response.status_code == 200, response.text
    if not stream:
        return str(response.json()["choices"][0]["message"]["content"])
    return streamed_text(response.text)


HEADERS = {"authorization": "Bearer alice-key", "x-redacto-conversation": "support-chat-7"}
TURNS = [
    "Hi, I am writing from jane.doe@example.org about my SSN 536-22-8741.",
    "My husband's address is bob.ray@example.com and his phone is (415) 555-0132.",
    "The card was 4111 1111 1111 1111; jane.doe@example.org is still my address.",
    "Thanks. Please write to bob.ray@example.com as well.",
]
VALUES = [
    "jane.doe@example.org", "536-22-8741", "536228741", "bob.ray@example.com",
    "(415) 555-0132", "4155550132", "4111 1111 1111 1111", "4111111111111111",
]  # fmt: skip


def test_turns_alternating_between_two_processes_get_every_value_back(
    two_proxies: list[ProxyProcess], upstream: EchoUpstream, redis_server: RedisServer
) -> None:
    messages: list[dict[str, Any]] = []
    forwarded_before: list[Any] = []
    placeholders_so_far: list[str] = []
    with httpx.Client(timeout=30) as client:
        for number, text in enumerate(TURNS):
            proxy, stream = two_proxies[number % 2], number % 2 == 1
            messages.append({"role": "user", "content": text})
            # The model answers with every placeholder it has been shown so far, most of
            # them handed out by the other process.
            reply = " ".join(placeholders_so_far) or "nothing yet"
            headers = {**HEADERS, "x-echo-reply": reply, "x-echo-piece": "3"}
            body = {"model": "m", "messages": messages, "stream": stream}
            response = client.post(proxy.url + CHAT, json=body, headers=headers)
            answer = answer_text(response, stream)
            forwarded = upstream.seen[-1]["messages"]
            # The history is forwarded exactly as the other process forwarded it.
            assert forwarded[: len(forwarded_before)] == forwarded_before
            seen = orjson.dumps(forwarded).decode()
            assert not [value for value in VALUES if value in seen], "a value reached the model"
            assert PLACEHOLDER.sub("", answer).strip() == answer.strip(), "a placeholder came back"
            for token in PLACEHOLDER.findall(seen):
                if token not in placeholders_so_far:
                    placeholders_so_far.append(token)
            messages.append({"role": "assistant", "content": answer})
            forwarded_before = [*forwarded, {"role": "assistant", "content": reply}]
    assert len(placeholders_so_far) == 5  # two emails, an SSN, a phone, a card
    final = messages[-1]["content"]
    for value in ("jane.doe@example.org", "536-22-8741", "bob.ray@example.com"):
        assert value in final
    assert "(415) 555-0132" in final and "4111 1111 1111 1111" in final
    dump = redis_server.dump()
    assert dump, "nothing was kept in Redis"
    for secret in [*VALUES, "alice-key", "support-chat-7"]:
        assert secret.encode() not in dump, "Redis holds a value in clear"


POOL = [f"user{number}.test@example.org" for number in range(10)]
CONCURRENT = 50


def first_turn(number: int) -> str:
    picked = [POOL[number % 10], POOL[(number + 3) % 10], POOL[(number + 7) % 10]]
    return f"Request number {number}: write to {picked[0]}, {picked[1]} and {picked[2]} today."


def test_fifty_concurrent_first_turns_through_two_processes_give_one_placeholder_per_value(
    two_proxies: list[ProxyProcess], upstream: EchoUpstream, redis_server: RedisServer
) -> None:
    async def send_all() -> list[str]:
        limits = httpx.Limits(max_connections=CONCURRENT)
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:

            async def send(number: int) -> str:
                proxy = two_proxies[number % 2]
                body = {"model": "m", "messages": [{"role": "user", "content": first_turn(number)}]}
                response = await client.post(proxy.url + CHAT, json=body, headers=HEADERS)
                return answer_text(response, False)

            return await asyncio.gather(*(send(number) for number in range(CONCURRENT)))

    answers = asyncio.run(send_all())
    assert answers == [first_turn(number) for number in range(CONCURRENT)]
    tokens_of: dict[str, set[str]] = defaultdict(set)
    values_of: dict[str, set[str]] = defaultdict(set)
    pattern = re.compile(r"Request number ([0-9]+): write to (\S+), (\S+) and (\S+) today\.")
    assert len(upstream.seen) == CONCURRENT
    for seen in upstream.seen:
        found = pattern.fullmatch(seen["messages"][0]["content"])
        assert found is not None
        number = int(found.group(1))
        originals = pattern.fullmatch(first_turn(number))
        assert originals is not None
        for value, token in zip(originals.groups()[1:], found.groups()[1:], strict=True):
            tokens_of[value].add(token)
            values_of[token].add(value)
    assert all(len(tokens) == 1 for tokens in tokens_of.values()), "a value got two placeholders"
    assert all(len(values) == 1 for values in values_of.values()), "a placeholder got two values"
    assert sorted(values_of) == sorted(f"[EMAIL_{n}]" for n in range(1, 11))
    with redis_server.client() as client:
        (key,) = client.scan_iter(match="redacto:vault:*")
        assert int(client.hget(key, "total") or 0) == len(POOL)
    assert not [value for value in POOL if value.encode() in redis_server.dump()]


def test_workers_share_one_port_and_stop_together(
    upstream: EchoUpstream, redis_server: RedisServer, key: str, tmp_path: Path
) -> None:
    proxy = start_proxy_process(
        upstream, redis_server.url, key, tmp_path / "workers.log", "--workers", "2"
    )
    try:
        port = int(proxy.url.rsplit(":", 1)[1])
        workers = psutil.Process(proxy.process.pid).children()
        assert len(workers) == 2
        for worker in workers:
            listening = [c for c in worker.net_connections("tcp") if c.status == "LISTEN"]
            assert [c.laddr.port for c in listening] == [port]
        with httpx.Client(timeout=30) as client:
            for _ in range(6):  # new connections: the kernel spreads them over the workers
                body = {"model": "m", "messages": [{"role": "user", "content": TURNS[0]}]}
                headers = {**HEADERS, "x-echo-reply": "[EMAIL_1] [SSN_1]", "connection": "close"}
                response = client.post(proxy.url + CHAT, json=body, headers=headers)
                assert answer_text(response, False) == "jane.doe@example.org 536-22-8741"
    finally:
        proxy.stop()
    assert proxy.process.returncode == 0
    assert not [worker for worker in workers if worker.is_running() and worker.status() != "zombie"]


def test_a_worker_that_ends_ends_the_others_and_the_vault_url_stays_off_command_lines(
    upstream: EchoUpstream, redis_server: RedisServer, key: str, tmp_path: Path
) -> None:
    log = tmp_path / "workers.log"
    proxy = start_proxy_process(
        upstream, redis_server.url, key, log, "--workers", "2", vault_in_env=True
    )
    try:
        workers = psutil.Process(proxy.process.pid).children()
        assert len(workers) == 2
        for process in (proxy.process.pid, *(worker.pid for worker in workers)):
            assert redis_server.url not in " ".join(psutil.Process(process).cmdline())
        workers[0].kill()  # a worker dies on its own
        assert proxy.process.wait(20) == 1
    finally:
        proxy.stop()
    assert "a worker ended on its own" in log.read_text()
    assert not [worker for worker in workers if worker.is_running() and worker.status() != "zombie"]


@pytest.mark.parametrize(
    ("arguments", "env", "says"),
    [
        (["--vault", "redis://127.0.0.1:1/0"], {}, "REDACTO_VAULT_KEY"),
        (["--vault", "redis://127.0.0.1:1/0"], {"REDACTO_VAULT_KEY": "c2hvcnQ="}, "32 bytes"),
        (["--vault", "redis://127.0.0.1:1/0"], {"REDACTO_VAULT_KEY": "not base64!"}, "base64"),
        (["--vault", "http://127.0.0.1:1/0"], {}, "redis://"),
        (["--workers", "2"], {}, "shared vault"),
    ],
    ids=["no-key", "short-key", "not-base64", "not-redis", "workers-in-memory"],
)
def test_a_shared_vault_without_its_key_does_not_start(
    arguments: list[str], env: dict[str, str], says: str
) -> None:
    result = CliRunner().invoke(
        app,
        ["proxy", "--upstream", "http://127.0.0.1:9", *arguments],
        env={"REDACTO_VAULT_KEY": None, "REDACTO_VAULT": None, **env},  # type: ignore[dict-item]
    )
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert "not base64!" not in result.output  # the key is never repeated


def test_the_key_file_is_read(tmp_path: Path, redis_server: RedisServer, key: str) -> None:
    # A key file that holds a key: the proxy gets as far as Redis (a bad path does not).
    missing = CliRunner().invoke(
        app,
        ["proxy", "--upstream", "http://127.0.0.1:9", "--vault", redis_server.url,
         "--vault-key-file", str(tmp_path / "none")],
        env={"REDACTO_VAULT_KEY": None},  # type: ignore[dict-item]
    )  # fmt: skip
    assert missing.exit_code == 2
    (tmp_path / "key").write_text(key + "\n")
    process = subprocess.Popen(
        [REDACTO, "proxy", "--upstream", "http://127.0.0.1:9", "--listen", "127.0.0.1:0",
         "--vault", redis_server.url, "--vault-key-file", str(tmp_path / "key")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={k: v for k, v in os.environ.items() if k != "REDACTO_VAULT_KEY"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        assert "vault redis://" in process.stdout.readline()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(15)
