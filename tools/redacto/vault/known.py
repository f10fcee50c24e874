"""Where a text holds values a vault knows: an index that grows value by value.

The vault once kept one regular expression of every known spelling and compiled it anew
whenever a value was added; a request that added values one by one rebuilt it each time,
and Python's `re` tries each alternative at each position, so finding values cost
(text length × values): 1,000 values took 2.6 s a request, 3,000 up to 33 s, on the event
loop. Here a value is filed under its first four folded characters when it is added, and
a text is scanned once, each position asking only the values filed under the four
characters found there, one dictionary lookup per length among them: the cost is the
text's length (and the number of lengths sharing a prefix), not the number of values, and
adding a value costs a dictionary insertion.

Matching is the regular expression's, kept as it was: case-insensitive, at any position,
leftmost first and the longest value first where several start at one place; a value of
fewer than `SHORT_VALUE` characters only as a whole word (no ASCII letter or digit either
side).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SHORT_VALUE = 4
"""A known value shorter than this is hidden only as a whole word, never inside one."""


class _Fold(dict[int, str]):
    """`str.translate` table: each character to its case-folded form when that is one
    character (so offsets in the folded text are offsets in the original), else its
    lower-case form when that is one character, else itself (ß stays ß, İ stays İ)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        folded = char.casefold()
        if len(folded) != 1:
            folded = char.lower() if len(char.lower()) == 1 else char
        self[code] = folded
        return folded


_FOLD = _Fold()


def fold(text: str) -> str:
    """`text` case-folded character by character: the same length, offsets kept."""
    if text.isascii():
        return text.lower()
    return text.translate(_FOLD)


def _is_word_char(char: str) -> bool:
    return char.isascii() and char.isalnum()


@dataclass
class KnownValues:
    """Every spelling a vault knows, filed for a one-pass scan (`find`)."""

    _long: dict[str, dict[int, dict[str, str]]] = field(default_factory=dict)
    """First `SHORT_VALUE` folded characters → length → folded spelling → token."""
    _long_lengths: dict[str, list[int]] = field(default_factory=dict)
    """First `SHORT_VALUE` folded characters → the lengths filed under them, longest first."""
    _short: dict[str, str] = field(default_factory=dict)
    """Folded short spelling → token."""
    _short_lengths: list[int] = field(default_factory=list)
    """The lengths of the short spellings, longest first."""
    _owned: set[str] = field(default_factory=set)
    """Prefixes whose tables this index made itself; the others it shares with the index it
    was copied from (or that was copied from it) and copies before changing them."""

    def copy(self) -> KnownValues:
        """An index that starts as this one and changes on its own. The prefix tables are
        shared until either side files a spelling under them (copy on write), so a copy
        costs a few dictionary copies, not one per value."""
        self._owned = set()  # from now on this side's tables are shared too
        return KnownValues(
            dict(self._long), dict(self._long_lengths), dict(self._short), self._short_lengths
        )

    def add(self, spelling: str, token: str) -> None:
        """File one spelling (a second spelling of the same fold keeps the first token)."""
        folded = fold(spelling)
        if not folded:
            return
        if len(folded) < SHORT_VALUE:
            self._short.setdefault(folded, token)
            if len(folded) not in self._short_lengths:
                self._short_lengths = sorted({*self._short_lengths, len(folded)}, reverse=True)
            return
        prefix = folded[:SHORT_VALUE]
        if prefix not in self._owned:
            shared = self._long.get(prefix, {})
            self._long[prefix] = {length: dict(table) for length, table in shared.items()}
            self._owned.add(prefix)
        by_length = self._long[prefix]
        if len(folded) not in by_length:
            by_length[len(folded)] = {}
            self._long_lengths[prefix] = sorted(by_length, reverse=True)
        by_length[len(folded)].setdefault(folded, token)

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """Where `text` holds a known spelling: (start, end, token), in order, none overlapping."""
        if not self._long and not self._short:
            return []
        folded = fold(text)
        found: list[tuple[int, int, str]] = []
        at, end = 0, len(folded)
        while at < end:
            match = self._long_at(folded, at) or self._short_at(text, folded, at)
            if match is None:
                at += 1
                continue
            found.append(match)
            at = match[1]
        return found

    def _long_at(self, folded: str, at: int) -> tuple[int, int, str] | None:
        prefix = folded[at : at + SHORT_VALUE]
        by_length = self._long.get(prefix)
        if by_length is None:
            return None
        for length in self._long_lengths[prefix]:
            token = by_length[length].get(folded[at : at + length])
            if token is not None:
                return at, at + length, token
        return None

    def _short_at(self, text: str, folded: str, at: int) -> tuple[int, int, str] | None:
        if not self._short or (at > 0 and _is_word_char(text[at - 1])):
            return None
        for length in self._short_lengths:
            after = at + length
            token = self._short.get(folded[at:after]) if after <= len(folded) else None
            if token is None:
                continue
            if after == len(text) or not _is_word_char(text[after]):
                return at, after, token
        return None
