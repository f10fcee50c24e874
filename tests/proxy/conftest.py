"""A real echo upstream and a real proxy in front of it, each on its own thread; a real
`redis-server` for the shared vault."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from echo_upstream import EchoUpstream, stop_loop
from redis_server import RedisServer

from redacto.proxy import Proxy, ProxyConfig, build_proxy, serve
from redacto.proxy.vault_key import VaultKey


@dataclass
class RunningProxy:
    proxy: Proxy
    url: str
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread

    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=timeout)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(stop_loop(), self.loop).result(5)
        self.thread.join(5)


def start_proxy(proxy: Proxy) -> RunningProxy:
    ready = threading.Event()
    holder: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        server = loop.run_until_complete(serve(proxy, "127.0.0.1", 0))
        holder["port"] = server.sockets[0].getsockname()[1]
        ready.set()
        loop.run_forever()
        server.close()
        loop.run_until_complete(server.wait_closed())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    loop = holder["loop"]
    assert isinstance(loop, asyncio.AbstractEventLoop)
    return RunningProxy(proxy, f"http://127.0.0.1:{holder['port']}", loop, thread)


@pytest.fixture
def upstream() -> Iterator[EchoUpstream]:
    server = EchoUpstream.start()
    yield server
    server.stop()


@pytest.fixture
def running(upstream: EchoUpstream) -> Iterator[RunningProxy]:
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url, read_timeout_s=2.0)))
    yield proxy
    proxy.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer.start(folder)
    yield server
    server.stop()


@pytest.fixture
def vault_key() -> VaultKey:
    return VaultKey.from_master(os.urandom(32))
