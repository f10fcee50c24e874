"""A conversation's values and their placeholders, in memory only, bounded in size and age.

The same value gets the same placeholder for the whole conversation (`[EMAIL_1]` every
time), so a model can still tell two people apart and the response can be mapped back.
Once a value is known, every later occurrence in the conversation is hidden, also where
no detector would find it again (a name the model tier found in turn one, pasted in turn
three). Nothing here is ever written to disk or to a log.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from redacto.pipeline.placeholders import placeholder, value_key

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_[0-9]+\]")
"""What a placeholder looks like; only the vault's own ones are ever mapped back."""
SHORT_VALUE = 4
"""A known value shorter than this is hidden only as a whole word, never inside one."""


class VaultFull(RuntimeError):
    """The conversation holds more values than the proxy keeps: refuse, never forget one."""


@dataclass
class Vault:
    """One conversation's value ↔ placeholder book."""

    max_values: int = 10_000
    _by_key: dict[str, str] = field(default_factory=dict)
    _originals: dict[str, str] = field(default_factory=dict)
    _spellings: dict[str, str] = field(default_factory=dict)
    _next_number: dict[str, int] = field(default_factory=dict)
    _matcher: re.Pattern[str] | None = None
    _folded: dict[str, str] = field(default_factory=dict)
    seen_texts: set[int] = field(default_factory=set)
    """Hashes of texts the model tier has read already (a conversation resends its past)."""

    def __len__(self) -> int:
        return len(self._originals)

    def placeholder_for(self, label: str, value: str) -> str:
        """The placeholder of `value`, numbered now if it is new to the conversation."""
        key = value_key(value)
        found = self._by_key.get(key)
        if found is None:
            if len(self._originals) >= self.max_values:
                raise VaultFull(f"the conversation holds more than {self.max_values} values")
            number = self._next_number.get(label, 0) + 1
            self._next_number[label] = number
            found = self._by_key[key] = placeholder(label, number)
            self._originals[found] = value
        if value not in self._spellings:
            self._spellings[value] = found
            self._matcher = None
        return found

    def original(self, token: str) -> str | None:
        """The value behind one of this vault's placeholders; None for anything else."""
        return self._originals.get(token)

    def hide_known(self, text: str) -> list[tuple[int, int, str]]:
        """Where `text` holds a known value: (start, end, placeholder), in order."""
        if not self._spellings:
            return []
        if self._matcher is None:
            self._matcher = _matcher(self._spellings)
            self._folded = {value.casefold(): token for value, token in self._spellings.items()}
        return [
            (found.start(), found.end(), self._token_of(found.group(0)))
            for found in self._matcher.finditer(text)
        ]

    def _token_of(self, matched: str) -> str:
        token = self._folded.get(matched.casefold())
        if token is not None:
            return token
        # Case-insensitive matching and casefold can disagree on a rare letter ("ß").
        return next(
            token
            for value, token in self._spellings.items()
            if re.fullmatch(re.escape(value), matched, re.IGNORECASE)
        )


def _matcher(spellings: dict[str, str]) -> re.Pattern[str]:
    """One regex for every known spelling, longest first; short ones as whole words."""
    parts = []
    for value in sorted(spellings, key=len, reverse=True):
        escaped = re.escape(value)
        if len(value) < SHORT_VALUE:
            escaped = rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])"
        parts.append(escaped)
    return re.compile("|".join(parts), re.IGNORECASE)


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
