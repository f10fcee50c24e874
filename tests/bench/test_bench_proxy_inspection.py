"""The proxy's inspection of one request, in-process (pytest-benchmark): `Proxy._redact`
(parse, walk, the rules tier, serialise) on the proxy bench's PII-free prose with numbers, a
fresh vault each call — the steadiest way to compare two versions of the code on a shared
machine (`python -m devtools.bench.micro --baseline COMMIT`, docs/benchmarks.md). With a
detector that finds nothing where the rules tier was, what is left is the cost of everything
around it. In the normal test run each case runs once (`--benchmark-disable`).
"""

from __future__ import annotations

import asyncio

import pytest

from devtools.bench.proxy import BODIES
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.detectors import Found
from redacto.vault import Vault


class FindsNothing:
    def find(self, text: str) -> list[Found]:
        return []


@pytest.mark.parametrize("rules", [True, False], ids=["rules tier", "finds nothing"])
def test_inspecting_1_kb_of_prose(benchmark, rules):
    proxy = build_proxy(ProxyConfig(upstream="http://127.0.0.1:9"))
    if not rules:
        proxy.redactor.rules = FindsNothing()
    raw = BODIES[0].json()
    loop = asyncio.new_event_loop()
    try:
        result = benchmark(lambda: loop.run_until_complete(proxy._redact("chat", raw, Vault())))
    finally:
        loop.close()
    assert result == (raw, 0)  # PII-free prose goes upstream as it came, nothing hidden
