"""`[LABEL_N]` placeholders: one number per distinct value per document.

The same value gets the same placeholder everywhere, so a reader of the redacted output
can still tell that "[NAME_1] called [NAME_2]; [NAME_1] paid" involves two people.
Values are compared by their normalised form (letters and digits, case-folded), so
"Smith," and "SMITH" are one value. Numbers are given in reading order of first
appearance, per label, so the output does not depend on which step found what.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from redacto.pipeline.locator import skeleton


def value_key(value: str) -> str:
    """The form two values are compared in; punctuation-only values compare as written."""
    return skeleton(value) or value.strip().casefold()


def placeholder(label: str, number: int) -> str:
    return f"[{label}_{number}]"


@dataclass
class PlaceholderBook:
    """Hands out placeholders in the order values are first seen: the one numbering of
    every face — the pipeline's text redaction, and (inside `redacto.vault.Vault`) the
    proxy's conversations and proofread's documents.

    The first label a value is seen with is kept for it: one value, one placeholder, even
    if a later detection names it differently.
    """

    _by_value: dict[str, str] = field(default_factory=dict)
    _next_number: dict[str, int] = field(default_factory=dict)

    def assign(self, label: str, value: str) -> str:
        """The placeholder for `value`, numbering it now if it is new."""
        existing = self.find(value)
        if existing is not None:
            return existing
        number = self._next_number.get(label, 0) + 1
        self._next_number[label] = number
        self._by_value[value_key(value)] = placeholder(label, number)
        return self._by_value[value_key(value)]

    def find(self, value: str) -> str | None:
        """The placeholder `value` has (compared by `value_key`), or None when it is new."""
        return self._by_value.get(value_key(value))

    def record(self, value: str, token: str) -> None:
        """`value` has `token` already (numbered elsewhere: a shared vault's store)."""
        self._by_value[value_key(value)] = token

    def continue_numbering(self, label: str, last: int) -> None:
        """`label` is numbered up to `last` elsewhere: the next new value gets `last + 1`."""
        self._next_number[label] = max(self._next_number.get(label, 0), last)

    def __len__(self) -> int:
        return len(self._by_value)
