"""Every open conversation's vault, bounded in number and age, keyed so that only the
credential that opened a conversation reaches its values.

The vault itself (`redacto.vault.Vault`: one value, one placeholder) lives below the faces;
this is the proxy's own part: which conversation a request continues, and forgetting.
Nothing here is ever written to disk or to a log.

`VaultStore` keeps every conversation's vault in this process's memory (the default, one
process); `redis_vault.RedisVaultStore` keeps them in Redis, sealed, for many processes and
hosts. The proxy uses either through the same calls (`Vaults`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from redacto.vault import Vault


class VaultUnavailable(RuntimeError):
    """The vault store cannot be used now (unreachable, too slow, unreadable): the request
    is refused with 503 and nothing is forwarded. The message names no value."""


def conversation_name(
    secret: bytes, credential: bytes | None, conversation: bytes | None
) -> str | None:
    """The key of the conversation a request names under the credential it sends: a keyed
    hash (HMAC-SHA256 with `secret`) of both, so the key reveals neither and belongs to the
    credential. None without a credential or without a name: the request's own vault."""
    if not credential or conversation is None:
        return None
    digest = hmac.new(secret, digestmod=hashlib.sha256)
    for part in (credential, conversation):
        digest.update(len(part).to_bytes(8, "big") + part)  # no two splits hash alike
    return digest.hexdigest()


class Vaults(Protocol):
    """Where the proxy keeps its conversations' vaults: in memory, or in a shared store.

    A request names its conversation (`name_of`), takes a copy of its vault (`checkout`),
    redacts with it, and hands it back (`commit`) before anything is forwarded, if it
    finished within its deadline. `commit` says False when the conversation changed
    meanwhile (another process, with a shared store), and the request is then redacted
    again from a fresh copy.
    """

    def name_of(self, credential: bytes | None, conversation: bytes | None) -> str | None:
        """The conversation's key in the store (None: the request's own vault)."""
        ...

    async def checkout(self, name: str | None) -> Vault:
        """A copy of the conversation's vault, the request's own to change (raises
        `VaultUnavailable`)."""
        ...

    async def commit(self, vault: Vault) -> bool:
        """Keep what the request added; False: redact again from a fresh checkout. Called
        only for a request that finished in time: an abandoned one never commits, so what
        its scrub still writes reaches no other request."""
        ...

    async def open(self) -> None:
        """Before serving: the store answers and can be read (raises if not)."""
        ...

    async def close(self) -> None:
        """Let go of connections (the process is ending)."""
        ...


@dataclass
class ConversationVault(Vault):
    """A named conversation's vault in this process's memory, or a request's copy of it."""

    name: str = ""
    generation: int = 0
    """How many requests had committed to the conversation when this copy was taken."""


@dataclass
class _Entry:
    vault: ConversationVault
    used: float


@dataclass
class VaultStore:
    """Every open conversation's vault: at most `max_conversations`, each forgotten
    `ttl_s` seconds after its last request (the least recently used goes first)."""

    max_conversations: int = 1_000
    ttl_s: float = 3_600.0
    max_values: int = 10_000
    clock: Callable[[], float] = time.monotonic
    _entries: OrderedDict[str, _Entry] = field(default_factory=OrderedDict)
    _secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    """Keys the credential's hash: this process's own, never stored or logged."""

    def __len__(self) -> int:
        return len(self._entries)

    def name_of(self, credential: bytes | None, conversation: bytes | None) -> str | None:
        """The key of the conversation a request continues: the conversation the client
        names (`X-Redacto-Conversation`) under the credential it sends (`Authorization`),
        as a keyed hash with this process's own secret.

        A vault belongs to the credential that created it: another client naming the same
        conversation with another credential, or with none, gets another vault and no
        value back. Without a credential, or without a name, a request gets a vault of its
        own: placeholders still stay the same from turn to turn (each request resends its
        history, numbered in order of first appearance), but the model tier reads that
        history again. Never guessed from the content: two users whose chats open with the
        same system prompt would share a vault, and a placeholder the model invents for one
        could be restored to the other's value.
        """
        return conversation_name(self._secret, credential, conversation)

    async def checkout(self, name: str | None) -> Vault:
        """A copy of the conversation's vault (copy on write: ≈ 0.2 ms for 10,000 values),
        so that a scrub abandoned at its deadline changes nothing another request reads."""
        if name is None:
            return Vault(max_values=self.max_values)
        return self._entry(name).vault.copy()

    async def commit(self, vault: Vault) -> bool:
        """The request's copy becomes its conversation's vault; False if another request
        committed since the copy was taken (the proxy's lock lets one request at a time
        redact a conversation, so only a bug makes this happen)."""
        if not isinstance(vault, ConversationVault):
            return True  # a request's own vault: kept nowhere
        entry = self._entries.get(vault.name)
        if entry is not None and entry.vault.generation != vault.generation:
            return False
        vault.generation += 1
        if entry is None:  # forgotten meanwhile (the bound on conversations): kept again
            self._entry(vault.name).vault = vault
        else:
            entry.vault = vault
        return True

    async def open(self) -> None:
        """Nothing to check."""

    async def close(self) -> None:
        """Nothing to let go of."""

    def vault(self, conversation: str | None) -> Vault:
        """The conversation's vault (a new one when it is new, expired, or None: a
        request that names no conversation gets a vault of its own, kept nowhere)."""
        if conversation is None:
            return Vault(max_values=self.max_values)
        return self._entry(conversation).vault

    def _entry(self, conversation: str) -> _Entry:
        now = self.clock()
        self._expire(now)
        entry = self._entries.get(conversation)
        if entry is None:
            vault = ConversationVault(max_values=self.max_values, name=conversation)
            entry = self._entries[conversation] = _Entry(vault, now)
            while len(self._entries) > self.max_conversations:
                self._entries.popitem(last=False)
        entry.used = now
        self._entries.move_to_end(conversation)
        return entry

    def _expire(self, now: float) -> None:
        while self._entries:
            oldest = next(iter(self._entries.values()))
            if now - oldest.used <= self.ttl_s:
                return
            self._entries.popitem(last=False)
