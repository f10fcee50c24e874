"""Which recognizers could match a text at all, decided in one pass over its characters.

Scanning a 1 KB text with every pattern costs about half a millisecond; most texts a
de-identifying proxy sees hold no identifier, and most patterns need a character the text
does not have (a digit, an `@`, a `:`). Each pattern's *required characters* are read from
its parsed regex: a set such that every match contains at least one of them (or, for a
positive lookaround, the text does); a pattern that needs context words needs one of them in
the text too. A recognizer none of whose patterns has what it needs cannot match, so it is
skipped; the result is exactly what the full scan finds (the tests compare both on the
corpus). Where the regex does not let this be proved (a negated class, `\\w`, a
back-reference), the pattern always runs.

    active = recognizers_that_could_match(text, recognizers)
    matches = scan_text(text, active, preserve)
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # the stdlib's own regex parser
import re._parser as sre_parse  # type: ignore[import-not-found]
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redacto.rules.catalog import Recognizer

_DIGITS = frozenset("0123456789")
_PROSE = frozenset(" \t\n\r.,;:'\"()-!?" + string.ascii_letters)
"""Characters nearly every text holds: a requirement made of them saves nothing."""
_MAX_CLASS = 64
"""A character class larger than this is not worth requiring (it is in every text)."""

Needles = frozenset[str]
"""A requirement: the text holds at least one of these. A one-character needle is compared
exactly; a longer one (a run of literal characters, never a digit) case-insensitively."""


def required_needles(regex: re.Pattern[str]) -> Needles | None:
    """Needles at least one of which every match (or, for a lookaround, its text) holds.

    None when the regex does not let that be proved. A set holding a digit holds every
    digit: rules search text with OCR's O read as zero, and that reading makes a `0` only in
    a token that already holds a digit.
    """
    found = _sequence(list(sre_parse.parse(regex.pattern, regex.flags)), regex.flags)
    if found is not None and found & _DIGITS:
        found = found | _DIGITS
    return found


def _sequence(items: list[tuple[Any, Any]], flags: int) -> Needles | None:
    """The best requirement of a sequence: any one of its required items will do."""
    candidates = [found for item in items if (found := _item(item, flags)) is not None]
    candidates.extend(frozenset([run]) for run in _literal_runs(items, flags))
    if not candidates:
        return None
    # Prefer needles rare in ordinary prose (a digit, an `@`, "www"; not a space or a
    # letter), then the fewest.
    return min(candidates, key=lambda needles: (len(needles & _PROSE), len(needles)))


def _literal_runs(items: list[tuple[Any, Any]], flags: int) -> list[str]:
    """Runs of two or more literal characters in a row (digits break a run)."""
    runs, run = [], ""
    for op, arg in [*items, (None, None)]:
        char = chr(arg) if op is sre.LITERAL else ""
        if char and char not in _DIGITS:
            run += char
            continue
        if len(run) >= 2:
            runs.append(run.lower())
        run = ""
    return runs


def _item(item: tuple[Any, Any], flags: int) -> Needles | None:
    op, arg = item
    if op is sre.LITERAL:
        return _cased(frozenset(chr(arg)), flags)
    if op is sre.IN:
        return _class(arg, flags)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, body = arg
        return _sequence(list(body), flags) if low >= 1 else None
    if op is sre.SUBPATTERN:
        _group, add_flags, del_flags, body = arg
        return _sequence(list(body), (flags | add_flags) & ~del_flags)
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(arg), flags)
    if op is sre.ASSERT:  # a positive lookaround: what it requires is in the text
        _direction, body = arg
        return _sequence(list(body), flags)
    if op is sre.BRANCH:
        _unused, alternatives = arg
        union: set[str] = set()
        for alternative in alternatives:
            found = _sequence(list(alternative), flags)
            if found is None:
                return None
            union |= found
        return frozenset(union)
    return None


def _class(items: list[tuple[Any, Any]], flags: int) -> frozenset[str] | None:
    chars: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL:
            chars.add(chr(arg))
        elif op is sre.RANGE:
            low, high = arg
            if high - low >= _MAX_CLASS:
                return None
            chars.update(chr(code) for code in range(low, high + 1))
        else:  # NEGATE, CATEGORY (\d, \w, \s): not a small, known set
            return None
    found = _cased(frozenset(chars), flags)
    return found if len(found) <= _MAX_CLASS else None


def _cased(chars: frozenset[str], flags: int) -> frozenset[str]:
    if not flags & re.IGNORECASE:
        return chars
    return frozenset(c for char in chars for c in (char, char.lower(), char.upper()))


def _context_words(recognizer: Recognizer) -> frozenset[str] | None:
    """Lower-case words one of which the text holds whenever a context pattern can match."""
    if not recognizer.context_phrases:
        return None
    return frozenset(phrase[0] for phrase in recognizer.context_phrases)


@dataclass(frozen=True)
class _Need:
    """What one pattern needs of a text: one of its needles (none: nothing provable) and,
    for a pattern that needs context, one of its context words in the lower-cased text."""

    chars: re.Pattern[str] | None
    runs: frozenset[str]
    words: frozenset[str] | None

    @classmethod
    def of(cls, needles: Needles | None, words: frozenset[str] | None) -> _Need:
        if needles is None:
            return cls(None, frozenset(), words)
        chars = sorted(needle for needle in needles if len(needle) == 1)
        return cls(
            re.compile("[" + "".join(map(re.escape, chars)) + "]") if chars else None,
            frozenset(needle for needle in needles if len(needle) > 1),
            words,
        )

    def met(self, text: str, lowered: _Lowered, seen: dict[str, bool]) -> bool:
        if self.chars is not None or self.runs:
            found = False
            if self.chars is not None:
                key = self.chars.pattern
                found = seen.get(key)  # type: ignore[assignment]
                if found is None:
                    found = seen[key] = self.chars.search(text) is not None
            if not found and not any(run in lowered.text for run in self.runs):
                return False
        return self.words is None or any(word in lowered.text for word in self.words)


class _Lowered:
    """The lower-cased text, made only if a context pattern asks for it."""

    def __init__(self, text: str) -> None:
        self._source = text
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._source.lower()
        return self._text


_PLANS: dict[tuple[str, ...], tuple[tuple[_Need, ...], ...]] = {}


def _needs(recognizers: Sequence[Recognizer]) -> tuple[tuple[_Need, ...], ...]:
    key = tuple(recognizer.name for recognizer in recognizers)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = tuple(
            tuple(
                _Need.of(
                    required_needles(pattern.regex),
                    _context_words(recognizer) if pattern.needs_context else None,
                )
                for pattern in recognizer.patterns
            )
            for recognizer in recognizers
        )
    return plan


def recognizers_that_could_match(
    text: str, recognizers: Sequence[Recognizer]
) -> tuple[Recognizer, ...]:
    """The recognizers, in their order, with a pattern that could match `text`.

    Each distinct character class is searched once per call.
    """
    seen: dict[str, bool] = {}
    lowered = _Lowered(text)
    return tuple(
        recognizer
        for recognizer, needs in zip(recognizers, _needs(recognizers), strict=True)
        if any(need.met(text, lowered, seen) for need in needs)
    )
