"""Which recognizers could match a text at all, decided in one pass over its characters.

Scanning a 1 KB text with every pattern costs about half a millisecond; most texts a
de-identifying proxy sees hold no identifier, and most patterns need a character the text
does not have (a digit, an `@`, a `:`). Each pattern's *required characters* are read from
its parsed regex: a set such that every match contains at least one of them (or, for a
positive lookaround, the text does); a pattern that needs context words needs one of them in
the text too. A pattern is also skipped when the text has no stretch short enough that
holds enough digits: a 9-digit SSN pattern cannot match prose whose longest number is a
year, however many years it names (`required_digits`: at least D digits in any match, no
match longer than W characters). A pattern that cannot match is skipped, and a recognizer
none of whose patterns can; the result is exactly what the full scan finds (the tests
compare both on the corpus). Where the regex does not let this be proved (a negated
class, `\\w`, a back-reference), the pattern always runs.

    could = patterns_that_could_match(text, read_ocr_zeros(text), recognizers)
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # the stdlib's own regex parser
import re._parser as sre_parse  # type: ignore[import-not-found]
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from redacto.rules.catalog import CONTEXT_WORD, Pattern, Recognizer

_DIGITS = frozenset("0123456789")
_DIGIT = re.compile("[0-9]")
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


def required_digits(regex: re.Pattern[str]) -> tuple[int, int | None]:
    """(D, W): every match holds at least D ASCII digits and is at most W characters long
    (None: no bound). Only characters a match consumes count, and only from classes that
    hold nothing but digits; a lookaround or back-reference counts as none."""
    parsed = sre_parse.parse(regex.pattern, regex.flags)
    _low, high = parsed.getwidth()
    return _digits(list(parsed.data), regex.flags), None if high >= sre.MAXREPEAT else high


def _digits(items: list[tuple[Any, Any]], flags: int) -> int:
    """The fewest digits a match of the sequence `items` consumes."""
    total = 0
    for op, arg in items:
        if op is sre.LITERAL:
            total += chr(arg) in _DIGITS
        elif op is sre.IN:
            chars = _class(arg, flags)
            total += bool(chars) and chars <= _DIGITS  # type: ignore[operator]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, _high, body = arg
            total += low * _digits(list(body), flags)
        elif op is sre.SUBPATTERN:
            total += _digits(list(arg[3]), flags)
        elif op is sre.ATOMIC_GROUP:
            total += _digits(list(arg), flags)
        elif op is sre.BRANCH:
            total += min(_digits(list(alternative), flags) for alternative in arg[1])
    return total


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


def _words_of(text: str) -> frozenset[str]:
    """The text's words as context phrases are compared with them: runs of [A-Za-z0-9],
    lower-cased. A context pattern can match only where all words of a phrase are here."""
    if text.isascii():  # lower-casing cannot then join or split a run of [A-Za-z0-9]
        return frozenset(CONTEXT_WORD.findall(text.lower()))
    return frozenset(word.lower() for word in CONTEXT_WORD.findall(text))


@dataclass(frozen=True)
class _Phrases:
    """A recognizer's context phrases, grouped by their first word."""

    first_words: frozenset[str]
    by_first_word: dict[str, tuple[tuple[str, ...], ...]]

    @classmethod
    def of(cls, recognizer: Recognizer) -> _Phrases:
        grouped: dict[str, list[tuple[str, ...]]] = {}
        for phrase in recognizer.context_phrases:
            grouped.setdefault(phrase[0], []).append(phrase)
        return cls(frozenset(grouped), {first: tuple(p) for first, p in grouped.items()})


@dataclass(frozen=True)
class _Need:
    """What one pattern needs of a text: one of its needles (none: nothing provable), for a
    pattern that needs context every word of one of its recognizer's context phrases, and
    `digits` digits within some `width` characters of the text as searched."""

    pattern: Pattern
    chars: frozenset[str]
    runs: frozenset[str]
    phrases: _Phrases | None
    digits: int
    width: int | None

    @classmethod
    def of(cls, pattern: Pattern, phrases: _Phrases | None) -> _Need:
        needles = required_needles(pattern.regex)
        digits, width = required_digits(pattern.regex)
        return cls(
            pattern,
            frozenset(needle for needle in needles or () if len(needle) == 1),
            frozenset(needle for needle in needles or () if len(needle) > 1),
            phrases,
            digits,
            width,
        )

    def met(self, read: _Read) -> bool:
        if (
            (self.chars or self.runs)
            and read.characters.isdisjoint(self.chars)
            and not any(run in read.lowered for run in self.runs)
        ):
            return False
        if self.digits and not read.has_digits(self.digits, self.width):
            return False
        return self.phrases is None or read.mentions(self.phrases)


class _Read:
    """What the needs read of a text, each made only when one asks for it: its characters,
    its lower-cased text and words, and where the text as searched (OCR's O read as zero)
    has its digits."""

    def __init__(self, text: str, searched: str) -> None:
        self._text = text
        self._searched = searched
        self._narrowest: dict[int, int] = {}
        self._mentioned: dict[int, bool] = {}

    @cached_property
    def characters(self) -> frozenset[str]:
        return frozenset(self._text)

    @cached_property
    def lowered(self) -> str:
        return self._text.lower()

    @cached_property
    def _words(self) -> frozenset[str]:
        return _words_of(self._text)

    def mentions(self, phrases: _Phrases) -> bool:
        """Whether every word of one of the phrases is a word of the text."""
        found = self._mentioned.get(id(phrases))
        if found is None:
            words = self._words
            found = self._mentioned[id(phrases)] = any(
                all(word in words for word in phrase)
                for first in phrases.first_words & words
                for phrase in phrases.by_first_word[first]
            )
        return found

    @cached_property
    def _digit_positions(self) -> list[int]:
        return [found.start() for found in _DIGIT.finditer(self._searched)]

    def has_digits(self, count: int, width: int | None) -> bool:
        """Whether some `width` characters in a row (None: the whole text) hold `count` digits."""
        positions = self._digit_positions
        if len(positions) < count:
            return False
        if width is None:
            return True
        span = self._narrowest.get(count)
        if span is None:
            # The fewest characters in a row that hold `count` of the digits.
            span = self._narrowest[count] = 1 + min(
                last - first for first, last in zip(positions, positions[count - 1 :], strict=False)
            )
        return span <= width


@dataclass(frozen=True)
class _RecognizerNeeds:
    """Its patterns' needs, and the characters one of which every one of them needs (None:
    some pattern needs no character), so that most texts dismiss it with one test."""

    needs: tuple[_Need, ...]
    any_of: frozenset[str] | None

    @classmethod
    def of(cls, recognizer: Recognizer) -> _RecognizerNeeds:
        phrases = _Phrases.of(recognizer)
        needs = tuple(
            _Need.of(pattern, phrases if pattern.needs_context else None)
            for pattern in recognizer.patterns
        )
        every_needs_a_char = all(need.chars and not need.runs for need in needs)
        any_of = frozenset().union(*(need.chars for need in needs)) if every_needs_a_char else None
        return cls(needs, any_of)

    def could_match(self, read: _Read) -> tuple[Pattern, ...]:
        if self.any_of is not None and read.characters.isdisjoint(self.any_of):
            return ()
        return tuple(need.pattern for need in self.needs if need.met(read))


_PLANS: dict[tuple[str, ...], tuple[_RecognizerNeeds, ...]] = {}


def _plan(recognizers: Sequence[Recognizer]) -> tuple[_RecognizerNeeds, ...]:
    key = tuple(recognizer.name for recognizer in recognizers)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = tuple(_RecognizerNeeds.of(r) for r in recognizers)
    return plan


def patterns_that_could_match(
    text: str, searched: str, recognizers: Sequence[Recognizer]
) -> list[tuple[Pattern, ...]]:
    """For each recognizer, in order, those of its patterns that could match `text`.

    `searched` is `text` as the patterns search it (`read_ocr_zeros`: the same length).
    """
    read = _Read(text, searched)
    return [needs.could_match(read) for needs in _plan(recognizers)]


def recognizers_that_could_match(
    text: str, searched: str, recognizers: Sequence[Recognizer]
) -> tuple[Recognizer, ...]:
    """The recognizers, in their order, with a pattern that could match `text`."""
    could = patterns_that_could_match(text, searched, recognizers)
    return tuple(
        recognizer for recognizer, patterns in zip(recognizers, could, strict=True) if patterns
    )
