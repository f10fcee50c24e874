"""A vault belongs to the credential that created it, and its name stays with the proxy."""

from __future__ import annotations

import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy
from redacto.proxy.vault import VaultStore

ALICE = "My email is alice@example.org and my SSN is 536-22-8741."


def ask(running: RunningProxy, text: str, headers: dict[str, str], reply: str | None = None) -> str:
    body = {"model": "m", "messages": [{"role": "user", "content": text}]}
    if reply is not None:
        headers = {**headers, "x-echo-reply": reply}
    with running.client() as client:
        answer = client.post("/v1/chat/completions", json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["choices"][0]["message"]["content"]


@pytest.mark.parametrize(
    "other",
    [
        {"authorization": "Bearer bob"},
        {},
        {"authorization": ""},
        {"authorization": "Bearer alice-but-longer"},
    ],
    ids=["another-credential", "no-credential", "empty-credential", "a-longer-credential"],
)
def test_another_client_naming_the_same_conversation_gets_nothing_back(
    running: RunningProxy, upstream: EchoUpstream, other: dict[str, str]
) -> None:
    alice = {"authorization": "Bearer alice", "x-redacto-conversation": "team-chat"}
    assert ask(running, ALICE, alice) == ALICE
    # Alice's own next turn: her vault restores what her model writes with placeholders.
    assert ask(running, "again?", alice, reply="[EMAIL_1] [SSN_1]") == (
        "alice@example.org 536-22-8741"
    )
    # Another client, the same conversation name: the placeholders stay placeholders.
    intruder = {**other, "x-redacto-conversation": "team-chat"}
    assert ask(running, "[EMAIL_1] [SSN_1]", intruder) == "[EMAIL_1] [SSN_1]"
    assert ask(running, "hi", intruder, reply="[EMAIL_1] [SSN_1]") == "[EMAIL_1] [SSN_1]"


def test_the_conversation_header_is_never_forwarded(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    headers = {"authorization": "Bearer alice", "x-redacto-conversation": "team-chat"}
    ask(running, ALICE, headers)
    ask(running, "no values here", headers)
    with running.client() as client:
        assert client.get("/v1/models", headers=headers).status_code == 200
    assert len(upstream.seen_headers) == 3
    for seen in upstream.seen_headers:
        assert b"x-redacto-conversation" not in seen
        # Read for the vault, never forwarded unless configured.
        assert b"authorization" not in seen


def for_request(store: VaultStore, credential: bytes | None, conversation: bytes | None):
    """The vault a request naming `conversation` under `credential` gets, as the proxy
    finds it (`name_of`, then the store's vault under that key)."""
    return store.vault(store.name_of(credential, conversation))


def test_the_store_keys_a_vault_by_credential_and_conversation() -> None:
    store = VaultStore()
    alice = for_request(store, b"Bearer a", b"c")
    assert for_request(store, b"Bearer a", b"c") is alice
    assert for_request(store, b"Bearer b", b"c") is not alice
    assert for_request(store, b"Bearer a", b"d") is not alice
    # The two parts are length-prefixed: moving bytes from one to the other is another key.
    assert for_request(store, b"Bearer ac", b"") is not for_request(store, b"Bearer a", b"c")
    # No credential or no conversation: a vault for this request only, kept nowhere.
    assert for_request(store, None, b"c") is not for_request(store, None, b"c")
    assert for_request(store, b"Bearer a", None) is not for_request(store, b"Bearer a", None)
    assert len(store) == 4
    # Keys are keyed hashes, not the credential.
    assert not any(b"Bearer" in key.encode() for key in store._entries)
