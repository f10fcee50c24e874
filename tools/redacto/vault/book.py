"""One document's or conversation's values and their placeholders, in memory only.

The same value gets the same placeholder every time (`[EMAIL_1]`), so a model can still
tell two people apart and its answer can be mapped back. Once a value is known, every
later occurrence is hidden too, also where no detector would find it again (a name the
model tier found in turn one, pasted in turn three; a name on a CV's first line, repeated
in its last). Nothing here is ever written to disk or to a log.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from redacto.pipeline.placeholders import placeholder, value_key

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_[0-9]+\]")
"""What a placeholder looks like; only the vault's own ones are ever mapped back."""
SHORT_VALUE = 4
"""A known value shorter than this is hidden only as a whole word, never inside one."""


class VaultFull(RuntimeError):
    """The vault holds as many values as it may: refuse, never forget one."""


@dataclass
class Vault:
    """One document's or conversation's value ↔ placeholder book."""

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
            self._spellings[value] = found
            self._matcher = None
            self._added(label, value, found)
        elif value not in self._spellings:
            self._spellings[value] = found
            self._matcher = None
            self._spelled(value, found)
        return found

    def _added(self, label: str, value: str, token: str) -> None:
        """A new value was numbered (a vault shared through a store records it)."""

    def _spelled(self, value: str, token: str) -> None:
        """A known value came in a new spelling (a shared vault records it)."""

    def learn(self, token: str, value: str, spellings: tuple[str, ...] = ()) -> None:
        """Take a value its store numbered already (`token`), with its other spellings."""
        self._by_key[value_key(value)] = token
        self._originals[token] = value
        for spelling in (value, *spellings):
            self._spellings[spelling] = token
        self._matcher = None

    def continue_numbering(self, label: str, last: int) -> None:
        """The store has numbered `label` up to `last`: the next new value gets `last + 1`."""
        self._next_number[label] = max(self._next_number.get(label, 0), last)

    def text_hash(self, text: str) -> int:
        """What `seen_texts` holds for `text` (a shared vault keys it: its store sees it)."""
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")

    def mark_seen(self, text_hash: int) -> None:
        """The model tier has read the text with this hash."""
        self.seen_texts.add(text_hash)

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
