"""A request's deadline (`--inspect-timeout`, `Limits.scrub_timeout_s`) runs from its
arrival, its wait for its conversation included, and a scrub that missed it changes no
vault.

Requests of one conversation (one `Authorization` and `X-Redacto-Conversation`) are
redacted one at a time. The deadline once started only when a request's turn came, so
twelve at once were answered one deadline after another (1.4, 2.7 … 15.7 s at a 2 s
deadline); and a scrub abandoned at its deadline went on writing the conversation's vault
while the next request read it. A context tier of exact cost stands in for the NER tier
where the timing must be exact; the last test runs the real NER tier the way the issue
measured it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from redis.asyncio import Redis

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.redis_server import RedisServer
from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.detectors import Found
from redacto.proxy.limits import Limits
from redacto.proxy.redis_vault import KEY_PREFIX
from redacto.proxy.vault import VaultStore
from redacto.proxy.vault_key import VaultKey

CONVERSATION = {"authorization": "Bearer key-of-one-user", "x-redacto-conversation": "busy"}
MARGIN_S = 0.5
"""What a request may take past its deadline: the answer's way back, a loaded machine."""


def chat(*contents: str) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": c} for c in contents]}


class PacedTier:
    """In the NER tier's place: finds nothing, and takes exactly `seconds` a text."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def find(self, text: str) -> list[Found]:
        time.sleep(self.seconds)
        return []


class GatedTier:
    """In the NER tier's place: finds nothing, at once — except in a text that holds
    `gate`, where it waits until `release` is set."""

    def __init__(self, gate: str) -> None:
        self.gate = gate
        self.waiting = threading.Event()
        self.release = threading.Event()

    def find(self, text: str) -> list[Found]:
        if self.gate in text:
            self.waiting.set()
            self.release.wait(30)
        return []


def scrubs_ended(within: float = 10.0) -> bool:
    ends = time.monotonic() + within
    while any(t.name == "redacto-scrub" for t in threading.enumerate()):
        if time.monotonic() > ends:
            return False
        time.sleep(0.02)
    return True


def proxy_with(config: ProxyConfig, tier: object) -> RunningProxy:
    proxy = build_proxy(config)
    proxy.redactor.ner = tier  # type: ignore[assignment]
    return start_proxy(proxy)


async def _at_once(
    url: str, bodies: list[dict], headers: list[dict]
) -> list[tuple[int, str, float]]:
    """Every body sent at once; each answer's status, error code, and seconds from its
    send to its answer."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def one(body: dict, head: dict) -> tuple[int, str, float]:
            began = time.monotonic()
            response = await client.post("/v1/chat/completions", json=body, headers=head)
            took = time.monotonic() - began
            code = response.json().get("error", {}).get("code", "") if response.is_error else ""
            return response.status_code, code, took

        return await asyncio.gather(*(one(b, h) for b, h in zip(bodies, headers, strict=True)))


@pytest.mark.slow
def test_twelve_requests_of_one_conversation_each_end_within_their_deadline(
    upstream: EchoUpstream,
) -> None:
    deadline = 1.0
    config = ProxyConfig(upstream=upstream.url, limits=Limits(scrub_timeout_s=deadline))
    running = proxy_with(config, PacedTier(0.3))  # 0.3 s a request: 3 fit in a deadline
    try:
        bodies = [chat(f"Turn {n}: write to user{n}@example.com") for n in range(12)]
        results = asyncio.run(_at_once(running.url, bodies, [CONVERSATION] * 12))
    finally:
        running.stop()
    took = sorted(seconds for _, _, seconds in results)
    assert took[-1] <= deadline + MARGIN_S, f"answers came after {took} s"  # before: 3.7 s
    assert {(status, code) for status, code, _ in results} <= {
        (200, ""),
        (503, "inspection_timeout"),
    }
    answered = sum(status == 200 for status, _, _ in results)
    assert 1 <= answered <= 4 and len(upstream.seen) == answered


@pytest.mark.slow
def test_sixty_requests_over_three_conversations_each_end_within_their_deadline(
    upstream: EchoUpstream,
) -> None:
    deadline = 1.0
    config = ProxyConfig(upstream=upstream.url, limits=Limits(scrub_timeout_s=deadline))
    running = proxy_with(config, PacedTier(0.2))
    try:
        bodies = [chat(f"Turn {n}: call 415-555-01{n:02d}") for n in range(60)]
        heads = [CONVERSATION | {"x-redacto-conversation": f"c{n % 3}"} for n in range(60)]
        results = asyncio.run(_at_once(running.url, bodies, heads))
    finally:
        running.stop()
    assert max(seconds for _, _, seconds in results) <= deadline + MARGIN_S
    assert {status for status, _, _ in results} <= {200, 503}


def _abandoned_then_next(running: RunningProxy, gate: GatedTier) -> tuple[int, str]:
    """A request whose scrub is held past its deadline (503), the scrub then let go to
    finish writing what it would; then the next request of the conversation. Returns the
    first status and what the upstream got from the second."""
    with running.client() as client:
        first = client.post(
            "/v1/chat/completions",
            json=chat("Write to ann.lee@example.com", "held here, then bob.ray@example.org"),
            headers=CONVERSATION,
        )
        assert gate.waiting.is_set()
        gate.release.set()  # the abandoned scrub goes on: it reads the second text now
        assert scrubs_ended()
        second = client.post(
            "/v1/chat/completions", json=chat("Now cy.fox@example.net"), headers=CONVERSATION
        )
    assert second.status_code == 200
    assert second.json()["choices"][0]["message"]["content"] == "Now cy.fox@example.net"
    return first.status_code, first.json()["error"]["code"]


def test_a_scrub_past_its_deadline_changes_nothing_in_a_memory_vault(
    upstream: EchoUpstream,
) -> None:
    gate = GatedTier("held here")
    config = ProxyConfig(upstream=upstream.url, limits=Limits(scrub_timeout_s=0.5))
    running = proxy_with(config, gate)
    try:
        assert _abandoned_then_next(running, gate) == (503, "inspection_timeout")
        store = running.proxy.vaults
        assert isinstance(store, VaultStore)
        vault = store.vault(store.name_of(b"Bearer key-of-one-user", b"busy"))
    finally:
        running.stop()
    # Before: the abandoned scrub had numbered ann.lee and bob.ray, the next request got
    # [EMAIL_3], and the vault held three values.
    assert upstream.seen[-1]["messages"][0]["content"] == "Now [EMAIL_1]"
    assert len(vault) == 1 and vault.original("[EMAIL_1]") == "cy.fox@example.net"


def test_a_scrub_past_its_deadline_changes_nothing_in_a_redis_vault(
    upstream: EchoUpstream, redis_server: RedisServer, vault_key: VaultKey
) -> None:
    gate = GatedTier("held here")
    config = ProxyConfig(
        upstream=upstream.url,
        limits=Limits(scrub_timeout_s=0.5),
        vault=redis_server.url,
        vault_key=vault_key,
    )
    running = proxy_with(config, gate)
    try:
        assert _abandoned_then_next(running, gate) == (503, "inspection_timeout")
        name = running.proxy.vaults.name_of(b"Bearer key-of-one-user", b"busy")
    finally:
        running.stop()
    assert upstream.seen[-1]["messages"][0]["content"] == "Now [EMAIL_1]"

    async def fields() -> dict[bytes, bytes]:
        client = Redis.from_url(redis_server.url)
        try:
            return await client.hgetall(KEY_PREFIX + str(name))
        finally:
            await client.aclose()

    held = asyncio.run(fields())
    assert held[b"total"] == b"1" and held[b"n:EMAIL"] == b"1"  # cy.fox only


@pytest.fixture
def ner_proxy(upstream: EchoUpstream) -> Iterator[RunningProxy]:
    config = ProxyConfig(upstream=upstream.url, ner=True, limits=Limits(scrub_timeout_s=2.0))
    running = start_proxy(build_proxy(config))
    yield running
    running.stop()


@pytest.mark.slow
def test_the_issue_twelve_16_kb_requests_through_the_ner_tier(ner_proxy: RunningProxy) -> None:
    """The issue's measure: twelve 16 KB requests of one conversation at once through the
    real NER tier at `--inspect-timeout 2` (before: answers at 1.4, 2.7 … 15.7 s)."""
    prose = "Joana Ferreira met the committee in Lisbon to review the minutes. " * 250
    bodies = [chat(f"Request {n}. {prose}") for n in range(12)]
    results = asyncio.run(_at_once(ner_proxy.url, bodies, [CONVERSATION] * 12))
    took = sorted(seconds for _, _, seconds in results)
    assert took[-1] <= 2.0 + 2 * MARGIN_S, f"answers came after {took} s"
    assert {status for status, _, _ in results} <= {200, 503}
