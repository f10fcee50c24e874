"""Every open conversation's vault, bounded in number and age, keyed so that only the
credential that opened a conversation reaches its values.

The vault itself (`redacto.vault.Vault`: one value, one placeholder) lives below the faces;
this is the proxy's own part: which conversation a request continues, and forgetting.
Nothing here is ever written to disk or to a log.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from redacto.vault import Vault


@dataclass
class _Entry:
    vault: Vault
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

    def for_request(self, credential: bytes | None, conversation: bytes | None) -> Vault:
        """The vault of the conversation a request continues: the conversation the client
        names (`X-Redacto-Conversation`) under the credential it sends (`Authorization`).

        A vault belongs to the credential that created it: its key is a keyed hash of the
        credential and the conversation's name, so another client naming the same
        conversation with another credential, or with none, gets another vault and no
        value back. Without a credential, or without a name, a request gets a vault of its
        own: placeholders still stay the same from turn to turn (each request resends its
        history, numbered in order of first appearance), but the model tier reads that
        history again. Never guessed from the content: two users whose chats open with the
        same system prompt would share a vault, and a placeholder the model invents for one
        could be restored to the other's value.
        """
        if not credential or conversation is None:
            return self.vault(None)
        digest = hmac.new(self._secret, digestmod=hashlib.sha256)
        for part in (credential, conversation):
            digest.update(len(part).to_bytes(8, "big") + part)  # no two splits hash alike
        return self.vault(digest.hexdigest())

    def vault(self, conversation: str | None) -> Vault:
        """The conversation's vault (a new one when it is new, expired, or None: a
        request that names no conversation gets a vault of its own, kept nowhere)."""
        if conversation is None:
            return Vault(max_values=self.max_values)
        now = self.clock()
        self._expire(now)
        entry = self._entries.get(conversation)
        if entry is None:
            entry = self._entries[conversation] = _Entry(Vault(max_values=self.max_values), now)
            while len(self._entries) > self.max_conversations:
                self._entries.popitem(last=False)
        entry.used = now
        self._entries.move_to_end(conversation)
        return entry.vault

    def _expire(self, now: float) -> None:
        while self._entries:
            oldest = next(iter(self._entries.values()))
            if now - oldest.used <= self.ttl_s:
                return
            self._entries.popitem(last=False)
