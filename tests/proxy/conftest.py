"""A real echo upstream and a real proxy in front of it, each on its own thread; a real
`redis-server` for the shared vault."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from devtools.fixtures.echo_upstream import STEERING, EchoUpstream
from devtools.fixtures.redis_server import RedisServer
from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.vault_key import VaultKey


@pytest.fixture
def upstream() -> Iterator[EchoUpstream]:
    server = EchoUpstream.start()
    yield server
    server.stop()


@pytest.fixture
def running(upstream: EchoUpstream) -> Iterator[RunningProxy]:
    config = ProxyConfig(upstream=upstream.url, read_timeout_s=2.0, pass_headers=STEERING)
    proxy = start_proxy(build_proxy(config))
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
