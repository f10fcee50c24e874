"""One document's or conversation's values and their placeholders, in memory only.

The same value gets the same placeholder every time (`[EMAIL_1]`), so a model can still
tell two people apart and its answer can be mapped back. Once a value is known, every
later occurrence is hidden too, also where no detector would find it again (a name the
model tier found in turn one, pasted in turn three; a name on a CV's first line, repeated
in its last). Nothing here is ever written to disk or to a log.
"""

from __future__ import annotations

import copy
import hashlib
import re
from dataclasses import dataclass, field
from typing import Self

from redacto.pipeline.placeholders import PlaceholderBook
from redacto.vault.known import KnownValues

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_[0-9]+\]")
"""What a placeholder looks like; only the vault's own ones are ever mapped back."""


class VaultFull(RuntimeError):
    """The vault holds as many values as it may: refuse, never forget one."""


@dataclass
class Vault:
    """One document's or conversation's value ↔ placeholder book: the pipeline's numbering
    (`PlaceholderBook`), plus each placeholder's value, every spelling met, and the search
    that hides known values again."""

    max_values: int = 10_000
    _book: PlaceholderBook = field(default_factory=PlaceholderBook)
    _originals: dict[str, str] = field(default_factory=dict)
    _spellings: dict[str, str] = field(default_factory=dict)
    _known: KnownValues = field(default_factory=KnownValues)
    seen_texts: set[int] = field(default_factory=set)
    """Hashes of texts the model tier has read already (a conversation resends its past)."""

    def __len__(self) -> int:
        return len(self._originals)

    def copy(self) -> Self:
        """A vault that starts as this one and changes on its own (a subclass's own fields
        are shared, not copied). A request can redact with a copy and keep it only if it
        finished in time (the proxy's deadline). Costs a copy of each table — about
        0.2 ms for 10,000 values — and none of the values' index (`KnownValues.copy`)."""
        book = copy.copy(self._book)
        book._by_value = dict(book._by_value)
        book._next_number = dict(book._next_number)
        twin = copy.copy(self)
        twin._book = book
        twin._originals = dict(self._originals)
        twin._spellings = dict(self._spellings)
        twin._known = self._known.copy()
        twin.seen_texts = set(self.seen_texts)
        return twin

    def placeholder_for(self, label: str, value: str) -> str:
        """The placeholder of `value`, numbered now if it is new to the conversation."""
        found = self._book.find(value)
        if found is None:
            if len(self._originals) >= self.max_values:
                raise VaultFull(f"the conversation holds more than {self.max_values} values")
            found = self._book.assign(label, value)
            self._originals[found] = value
            self._spell(value, found)
            self._added(label, value, found)
        elif value not in self._spellings:
            self._spell(value, found)
            self._spelled(value, found)
        return found

    def _spell(self, value: str, token: str) -> None:
        self._spellings[value] = token
        self._known.add(value, token)

    def _added(self, label: str, value: str, token: str) -> None:
        """A new value was numbered (a vault shared through a store records it)."""

    def _spelled(self, value: str, token: str) -> None:
        """A known value came in a new spelling (a shared vault records it)."""

    def learn(self, token: str, value: str, spellings: tuple[str, ...] = ()) -> None:
        """Take a value its store numbered already (`token`), with its other spellings."""
        self._book.record(value, token)
        self._originals[token] = value
        for spelling in (value, *spellings):
            self._spell(spelling, token)

    def continue_numbering(self, label: str, last: int) -> None:
        """The store has numbered `label` up to `last`: the next new value gets `last + 1`."""
        self._book.continue_numbering(label, last)

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
        """Where `text` holds a known value: (start, end, placeholder), in order
        (`redacto.vault.known`: one pass over the text, however many values are known)."""
        return self._known.find(text)
