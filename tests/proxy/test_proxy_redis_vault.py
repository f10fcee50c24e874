"""The shared vault against a real redis-server: sealed values, numbering that two stores
agree on, a conflict found and redone, expiry renewed on use, and every failure of Redis
refused with nothing forwarded."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

import httpx
import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.redis_server import RedisServer, free_port
from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.engines.scripted import ScriptedEngine
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.redis_vault import KEY_PREFIX, RedisVaultStore, SharedVault
from redacto.proxy.vault import VaultUnavailable
from redacto.proxy.vault_key import VaultKey, VaultKeyError
from redacto.vault import VaultFull

T = TypeVar("T")
JANE = "jane.doe@example.org"
BOB = "bob.ray@example.com"
SSN = "536-22-8741"


def store(server: RedisServer, key: VaultKey, **options: float) -> RedisVaultStore:
    settings = {"ttl_s": 3_600.0, "timeout_s": 1.0, "max_values": 10_000} | options
    return RedisVaultStore.from_url(
        server.url,
        key,
        ttl_s=settings["ttl_s"],
        timeout_s=settings["timeout_s"],
        max_values=int(settings["max_values"]),
    )


def run(stores: list[RedisVaultStore], scenario: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        try:
            return await scenario()
        finally:
            for each in stores:
                await each.close()

    return asyncio.run(main())


def test_two_stores_share_numbering_and_redis_holds_no_value(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    one, two = store(redis_server, vault_key), store(redis_server, vault_key)
    name = one.name_of(b"Bearer alice", b"chat-1")
    assert name == two.name_of(b"Bearer alice", b"chat-1")

    async def scenario() -> None:
        first = await one.checkout(name)
        assert first.placeholder_for("EMAIL", JANE) == "[EMAIL_1]"
        assert first.placeholder_for("SSN", SSN) == "[SSN_1]"
        assert first.placeholder_for("EMAIL", JANE.upper() + ",") == "[EMAIL_1]"  # a spelling
        first.mark_seen(first.text_hash("a text the model tier read"))
        assert await one.commit(first)
        second = await two.checkout(name)
        assert second.original("[EMAIL_1]") == JANE and second.original("[SSN_1]") == SSN
        assert second.placeholder_for("EMAIL", BOB) == "[EMAIL_2]"
        assert second.text_hash("a text the model tier read") in second.seen_texts
        assert [span[2] for span in second.hide_known(f"{JANE.upper()}, {SSN}")] == [
            "[EMAIL_1]",
            "[SSN_1]",
        ]
        assert await two.commit(second)

    run([one, two], scenario)
    dump = redis_server.dump()
    for secret in (JANE, JANE.upper(), BOB, SSN, "Bearer alice", "chat-1", "model tier"):
        assert secret.encode() not in dump
    assert b"[EMAIL_2]" in dump  # placeholders are not secret: they are what Redis keys


def test_a_conflicting_commit_is_refused_and_a_fresh_copy_agrees(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    one, two = store(redis_server, vault_key), store(redis_server, vault_key)
    name = one.name_of(b"Bearer alice", b"chat-1")

    async def scenario() -> None:
        first, second = await one.checkout(name), await two.checkout(name)
        assert first.placeholder_for("EMAIL", JANE) == "[EMAIL_1]"
        assert second.placeholder_for("EMAIL", BOB) == "[EMAIL_1]"  # the same number...
        assert second.placeholder_for("EMAIL", JANE) == "[EMAIL_2]"
        assert await one.commit(first)
        assert not await two.commit(second)  # ... so the second is redone
        again = await two.checkout(name)
        assert again.placeholder_for("EMAIL", BOB) == "[EMAIL_2]"  # numbered by its commit
        assert again.placeholder_for("EMAIL", JANE) == "[EMAIL_1]"
        assert await two.commit(again)

    run([one, two], scenario)
    with redis_server.client() as client:
        (key,) = client.scan_iter(match=KEY_PREFIX + "*")
        assert int(client.hget(key, "total") or 0) == 2


def test_a_copy_taken_before_another_process_added_a_value_is_redone(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    # The second copy adds nothing, but the conversation learnt a value meanwhile: it must
    # be redacted again, or a value the vault knows could go out.
    one, two = store(redis_server, vault_key), store(redis_server, vault_key)
    name = one.name_of(b"Bearer alice", b"chat-1")

    async def scenario() -> None:
        first, second = await one.checkout(name), await two.checkout(name)
        first.placeholder_for("NAME", "Maria Gonzalez")
        assert await one.commit(first)
        assert not await two.commit(second)
        assert await two.commit(await two.checkout(name))

    run([one, two], scenario)


def test_a_copy_of_a_conversation_forgotten_and_made_again_is_stale(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    # The same version number, another life of the hash: the epoch tells them apart, or the
    # first process would restore [EMAIL_1] to Jane in a conversation where it is Bob.
    one, two = store(redis_server, vault_key), store(redis_server, vault_key)
    name = one.name_of(b"Bearer alice", b"chat-1")
    assert name is not None

    async def scenario() -> None:
        first = await one.checkout(name)
        first.placeholder_for("EMAIL", JANE)
        assert await one.commit(first)
        with redis_server.client() as client:
            client.delete(KEY_PREFIX + name)  # expired, evicted or flushed
        other = await two.checkout(name)
        other.placeholder_for("EMAIL", BOB)
        assert await two.commit(other)
        cached = await one.checkout(name)
        assert cached.original("[EMAIL_1]") == JANE  # this process's copy, from before
        assert not await one.commit(cached)
        fresh = await one.checkout(name)
        assert fresh.original("[EMAIL_1]") == BOB
        assert await one.commit(fresh)

    run([one, two], scenario)


def test_a_full_conversation_is_refused(redis_server: RedisServer, vault_key: VaultKey) -> None:
    one, two = store(redis_server, vault_key, max_values=2), store(redis_server, vault_key)
    name = one.name_of(b"Bearer alice", b"chat-1")

    async def scenario() -> None:
        vault = await one.checkout(name)
        vault.placeholder_for("EMAIL", JANE)
        vault.placeholder_for("EMAIL", BOB)
        assert await one.commit(vault)
        # Another process's copy does not know the bound; Redis does.
        more = await two.checkout(name)
        more.placeholder_for("SSN", SSN)
        with pytest.raises(VaultFull):
            await one.commit(more)

    run([one, two], scenario)


def test_every_use_renews_the_expiry(redis_server: RedisServer, vault_key: VaultKey) -> None:
    one = store(redis_server, vault_key, ttl_s=600)
    name = one.name_of(b"Bearer alice", b"chat-1")
    assert name is not None

    async def scenario() -> None:
        vault = await one.checkout(name)
        vault.placeholder_for("EMAIL", JANE)
        assert await one.commit(vault)
        with redis_server.client() as client:
            assert 590_000 < client.pttl(KEY_PREFIX + name) <= 600_000
            client.pexpire(KEY_PREFIX + name, 5_000)  # as if most of its life had gone by
        assert await one.commit(await one.checkout(name))  # a request that adds nothing
        with redis_server.client() as client:
            assert 590_000 < client.pttl(KEY_PREFIX + name) <= 600_000

    run([one], scenario)


def test_a_sealed_value_moved_elsewhere_does_not_open(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    one, other = store(redis_server, vault_key), store(redis_server, vault_key)
    alice, bob = one.name_of(b"Bearer alice", b"c"), one.name_of(b"Bearer bob", b"c")
    assert alice is not None and bob is not None

    async def scenario() -> None:
        for name, value in ((alice, JANE), (bob, BOB)):
            vault = await one.checkout(name)
            vault.placeholder_for("EMAIL", value)
            assert await one.commit(vault)
        with redis_server.client() as client:  # Alice's sealed value copied into Bob's field
            fields = client.hgetall(KEY_PREFIX + alice)
            sealed = next(value for field, value in fields.items() if field.startswith(b"o:"))
            for field in client.hkeys(KEY_PREFIX + bob):
                if field.startswith(b"o:"):
                    client.hset(KEY_PREFIX + bob, field, sealed)
        with pytest.raises(VaultUnavailable):
            await other.checkout(bob)  # a process that has not seen Bob's conversation yet

    run([one, other], scenario)


def test_a_proxy_with_another_key_refuses_to_start(
    redis_server: RedisServer, vault_key: VaultKey
) -> None:
    first = store(redis_server, vault_key)
    other = store(redis_server, VaultKey.from_master(os.urandom(32)))
    run([first], first.open)
    run([first], first.open)  # the same key opens its own check
    with pytest.raises(VaultKeyError, match="another key"):
        run([other], other.open)


def test_no_credential_or_no_conversation_never_touches_redis(vault_key: VaultKey) -> None:
    nowhere = RedisVaultStore.from_url(
        f"redis://127.0.0.1:{free_port()}/0", vault_key, ttl_s=60, timeout_s=0.5, max_values=10
    )

    async def scenario() -> None:
        for name in (nowhere.name_of(None, b"c"), nowhere.name_of(b"Bearer a", None)):
            vault = await nowhere.checkout(name)
            assert not isinstance(vault, SharedVault)
            vault.placeholder_for("EMAIL", JANE)
            assert await nowhere.commit(vault)

    run([nowhere], scenario)


# --- the proxy in front of a Redis that fails ---------------------------------------------


@pytest.fixture
def shared(
    upstream: EchoUpstream, redis_server: RedisServer, vault_key: VaultKey
) -> Iterator[RunningProxy]:
    config = ProxyConfig(
        upstream=upstream.url,
        read_timeout_s=2.0,
        vault=redis_server.url,
        vault_key=vault_key,
        vault_timeout_s=0.5,
    )
    running = start_proxy(build_proxy(config))
    yield running
    running.stop()


def ask(running: RunningProxy, text: str) -> httpx.Response:
    headers = {"authorization": "Bearer alice", "x-redacto-conversation": "chat"}
    body = {"model": "m", "messages": [{"role": "user", "content": text}]}
    with running.client(timeout=10) as client:
        return client.post("/v1/chat/completions", json=body, headers=headers)


@pytest.mark.parametrize("failure", ["stopped", "hanging"])
def test_a_redis_that_is_gone_or_hangs_is_answered_503_and_nothing_is_forwarded(
    shared: RunningProxy, upstream: EchoUpstream, redis_server: RedisServer, failure: str
) -> None:
    assert ask(shared, f"mail {JANE}").json()["choices"][0]["message"]["content"] == f"mail {JANE}"
    before = len(upstream.seen)
    if failure == "stopped":
        redis_server.stop()
    else:
        redis_server.pause()
    started = time.monotonic()
    try:
        answer = ask(shared, f"and {SSN} for {JANE}")
        waited = time.monotonic() - started
    finally:
        redis_server.resume()
    assert answer.status_code == 503
    error = answer.json()["error"]
    assert error["code"] == "vault_unavailable" and error["type"] == "redacto_proxy"
    assert "nothing was forwarded" in error["message"]
    assert SSN not in answer.text and JANE not in answer.text
    assert len(upstream.seen) == before
    assert waited < 5.0  # the vault's timeout (0.5 s a round trip), not the client's
    if failure == "hanging":  # back again: served again
        assert ask(shared, f"and {SSN}").status_code == 200


def test_a_name_the_model_tier_found_in_one_process_is_hidden_by_the_other(
    upstream: EchoUpstream, redis_server: RedisServer, vault_key: VaultKey
) -> None:
    # No rule finds a name: only the shared vault can hide it in the second process, and
    # only the shared record of texts read spares that process reading turn one again.
    text = "Jane Smith asked about the invoice."
    config = ProxyConfig(upstream=upstream.url, vault=redis_server.url, vault_key=vault_key)
    first_engine = ScriptedEngine.from_mapping(
        {"detect": ["NAME: Jane Smith"], "validate": ["PASS"]}
    )
    second_engine = ScriptedEngine.from_mapping({"detect": ["NONE"], "validate": ["PASS"]})
    first = start_proxy(build_proxy(config, first_engine))
    second = start_proxy(build_proxy(config, second_engine))
    headers = {"authorization": "Bearer k", "x-redacto-conversation": "c-7"}
    turns = [text, "And Jane Smith's order?"]
    try:
        for number, proxy in enumerate((first, second)):
            body = {
                "model": "m",
                "messages": [{"role": "user", "content": c} for c in turns[: number + 1]],
            }
            with proxy.client() as client:
                answer = client.post("/v1/chat/completions", json=body, headers=headers)
            assert answer.status_code == 200, answer.text
            assert answer.json()["choices"][0]["message"]["content"] == turns[number]
    finally:
        first.stop()
        second.stop()
    assert [m["content"] for m in upstream.seen[1]["messages"]] == [
        "[NAME_1] asked about the invoice.",
        "And [NAME_1]'s order?",
    ]
    for engine in (first_engine, second_engine):
        assert sum(r.step.value == "detect" for r in engine.requests) == 1
