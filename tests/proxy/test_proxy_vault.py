"""Conversations' vaults: bounded in number and age."""

from __future__ import annotations

from redacto.proxy.vault import VaultStore


def test_the_store_forgets_the_least_recent_and_the_expired() -> None:
    now = [0.0]
    store = VaultStore(max_conversations=2, ttl_s=10, clock=lambda: now[0])
    first = store.vault("one")
    first.placeholder_for("NAME", "Jane")
    assert store.vault("one") is first
    store.vault("two")
    store.vault("one")  # "two" is now the least recent
    store.vault("three")
    assert len(store) == 2
    assert store.vault("one") is first
    now[0] = 100.0
    assert store.vault("one") is not first  # expired: a new, empty vault
    assert len(store.vault(None)) == 0 and store.vault(None) is not store.vault(None)
