"""Run recognizers over a text, or over OCR elements joined into one text per page.

An identifier OCR split over several words ("(555)", "123-4567") is matched on the words
joined with single spaces; a character→element map then names every element the match
touches. Overlapping matches are resolved longest first, then by recognizer priority, so
each character — and in image mode each element — carries one label.

Patterns and validators search the text with OCR's letter O read as zero inside numbers
(`read_ocr_zeros`); offsets are unchanged by that reading, so the reported value is always
the original text of the span.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from redacto.rules.catalog import CONTEXT_WORD, Pattern, PreserveRule, Recognizer
from redacto.rules.normalise import normalise
from redacto.rules.prefilter import patterns_that_could_match

_DIGIT = re.compile(r"[0-9]")
_SPACE = " \t\n\r\f\v"
"""ASCII whitespace: what `\\s` is under `re.ASCII` and in java.util.regex."""
_WHITESPACE = re.compile(r"\s", re.ASCII)
_TOKEN_MASK = str.maketrans(
    {
        chr(code): "1" if chr(code).isdigit() else " " if chr(code) in _SPACE else "x"
        for code in range(128)
    }
)
"""For `str.translate` of an ASCII text: digits "1", whitespace " ", anything else "x"."""
_LETTER_O_AS_ZERO = str.maketrans("Oo", "00")
OCR_ZERO_MIN_DIGITS = 1
"""How many ASCII digits a token needs before its letter O's are read as zeros."""
LIST_GLUE = re.compile(r"(?:[ \t\n\r,;/&]|(?:and|or)(?=[ \t\n\r]))*", re.ASCII | re.IGNORECASE)
"""What may separate the items of a list of values: "555-1234, 555-5678 or 555-9012"."""


def read_ocr_zeros(text: str) -> str:
    """`text` with OCR's letter O read as zero inside numbers, one character for one.

    Tesseract and phone photos print `O` or `o` for a 0: "(5O3) 555-O199", "88-2O31". Inside
    a token (a run of non-whitespace characters), every `O`/`o` becomes `0` when the token's
    only letters are O/o and it holds at least `OCR_ZERO_MIN_DIGITS` ASCII digit: "(8OO)" and
    "Nov O5," read as numbers; "Ohio", "O'Brien", "OO", "FOO123" and "MO-4471" stay as they
    are. The result has the length of `text`, so its offsets (spans, element starts) are
    offsets into `text`.
    """
    if "O" not in text and "o" not in text:
        return text
    pieces: list[str] = []
    done = 0
    tokens = _ascii_digit_tokens(text) if text.isascii() else _digit_tokens(text)
    for start, end in tokens:
        token = text[start:end]
        if (read := _zeros_in_token(token)) != token:
            pieces += (text[done:start], read)
            done = end
    return "".join([*pieces, text[done:]]) if pieces else text


def _digit_tokens(text: str) -> Iterator[tuple[int, int]]:
    """[start, end) of each token (a run of non-whitespace characters) holding an ASCII digit.

    Only such a token can change: each is visited once. Its start is looked for back to the
    previous token's end only (a whitespace character, or the text's start): searching back
    to 0 made a text of many numbers quadratic.
    """
    position = 0
    while (digit := _DIGIT.search(text, position)) is not None:
        start = 1 + max(text.rfind(space, position, digit.start()) for space in _SPACE)
        after = _WHITESPACE.search(text, digit.end())
        position = len(text) if after is None else after.start()
        yield start, position


def _ascii_digit_tokens(text: str) -> Iterator[tuple[int, int]]:
    """`_digit_tokens` of an ASCII text, found with `find` on the text through `_TOKEN_MASK`
    (several times faster than regexes that test a class at every character)."""
    mask = text.translate(_TOKEN_MASK)
    position = 0
    while (digit := mask.find("1", position)) >= 0:
        start = mask.rfind(" ", position, digit) + 1
        position = mask.find(" ", digit)
        if position < 0:
            position = len(mask)
        yield start, position


def _zeros_in_token(token: str) -> str:
    if "O" not in token and "o" not in token:
        return token
    if len(_DIGIT.findall(token)) < OCR_ZERO_MIN_DIGITS:
        return token
    if any(char.isalpha() and char not in "Oo" for char in token):
        return token
    return token.translate(_LETTER_O_AS_ZERO)


@dataclass(frozen=True, slots=True)
class TextMatch:
    """A verified identifier at [start, end) of the text that was searched."""

    recognizer: str
    label: str
    pattern: str
    start: int
    end: int
    priority: int


@dataclass(frozen=True, slots=True)
class _WordIndex:
    """Each word, where it ends, where each occurs, and (`after_value[n]`) where the context
    of a match preceded by `words[:n]` may begin."""

    words: list[str]
    ends: list[int]
    positions: dict[str, list[int]]
    after_value: list[int]


class _Words:
    """The words of a text (runs of [A-Za-z0-9], lower-cased), indexed on first use.

    A word with three or more digits is a value: the context of a match never reaches back
    past one, so in "MRN: 4471829. Order 4471830" the context belongs to the first number.
    Only a pattern that needs context words reads them, so a scan without one never builds
    the index.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._phrases: dict[str, tuple[list[int], list[int]]] = {}

    @cached_property
    def _index(self) -> _WordIndex:
        found = list(CONTEXT_WORD.finditer(self._text))
        words = [m.group(0).lower() for m in found]
        ends = [m.end() for m in found]
        positions: dict[str, list[int]] = {}
        for position, word in enumerate(words):
            positions.setdefault(word, []).append(position)
        after_value = [0]
        for position, word in enumerate(words):
            is_value = not word.isalpha() and len(_DIGIT.findall(word)) >= 3
            after_value.append(position + 1 if is_value else after_value[-1])
        return _WordIndex(words, ends, positions, after_value)

    def mentions(self, recognizer: Recognizer) -> bool:
        """Whether any context phrase occurs in the text at all."""
        return bool(self._occurrences(recognizer.name, recognizer.context_phrases)[0])

    def context_before(self, start: int, recognizer: Recognizer) -> bool:
        """Whether a context phrase lies within the `window` words that end by `start`."""
        assert recognizer.context is not None
        return self._phrase_before(
            start, recognizer.name, recognizer.context_phrases, recognizer.context.window
        )

    def preserved_before(self, start: int, rule: PreserveRule) -> bool:
        """Whether a context rule's phrase lies within its `window` words that end by
        `start`, read as `context_before` reads a recognizer's."""
        assert rule.context is not None
        key = f"preserve:{rule.recognizer}:{rule.context.words}"
        return self._phrase_before(start, key, rule.context_phrases, rule.context.window)

    def _phrase_before(
        self, start: int, key: str, phrases: tuple[tuple[str, ...], ...], window: int
    ) -> bool:
        index = self._index
        count = bisect.bisect_right(index.ends, start)
        first = max(index.after_value[count], count - window)
        phrase_ends, phrase_starts = self._occurrences(key, phrases)
        position = bisect.bisect_right(phrase_ends, count) - 1
        while position >= 0 and phrase_ends[position] > first:
            if phrase_starts[position] >= first:
                return True
            position -= 1
        return False

    def _occurrences(
        self, key: str, phrases: tuple[tuple[str, ...], ...]
    ) -> tuple[list[int], list[int]]:
        """Word ranges [start, end) where `phrases` occur, sorted by end (cached by `key`)."""
        cached = self._phrases.get(key)
        if cached is None:
            index = self._index
            found = sorted(
                (position + len(phrase), position)
                for phrase in phrases
                for position in index.positions.get(phrase[0], ())
                if tuple(index.words[position : position + len(phrase)]) == phrase
            )
            cached = ([end for end, _ in found], [start for _, start in found])
            self._phrases[key] = cached
        return cached


class _ListItems:
    """The sorted spans of one recognizer's matches that a list may continue (the second
    pass). Spans accepted during one pattern's search are kept apart in the order found
    (left to right, so already sorted) and merged when it ends: inserting each into the
    sorted list cost a copy of its tail, quadratic in a long list."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.settled = sorted(spans)
        self.added: list[tuple[int, int]] = []

    def add(self, span: tuple[int, int]) -> None:
        self.added.append(span)

    def settle(self) -> None:
        self.settled.extend(self.added)
        self.settled.sort()  # two sorted runs: a linear merge
        self.added.clear()

    def last_ending_by(self, start: int) -> tuple[int, int] | None:
        """The last span, in sorted order, that ends at or before `start`."""
        found = [
            span
            for span in (_last_ending_by(self.settled, start), _last_ending_by(self.added, start))
            if span is not None
        ]
        return max(found, default=None)


def _last_ending_by(spans: Sequence[tuple[int, int]], start: int) -> tuple[int, int] | None:
    # Spans after this point start after `start`, so they end after it too.
    position = bisect.bisect_right(spans, (start, math.inf))
    while position > 0:
        position -= 1
        if spans[position][1] <= start:
            return spans[position]
    return None


def _list_head(
    text: str, start: int, earlier: _ListItems, heads: dict[int, int | None]
) -> int | None:
    """Where the list that a candidate at `start` continues begins, or None when it continues
    none: walk back over earlier matches joined to it by `LIST_GLUE` only.

    `heads` remembers the answer for each position asked about during one pattern's search,
    so a list of n items costs n steps, not n². It stays true while that search adds spans:
    candidates are searched left to right, so each added span ends after every position
    asked about so far."""
    walked: list[int] = []
    head: int | None = None
    while True:
        if start in heads:
            known = heads[start]
            head = head if known is None else known
            break
        span = earlier.last_ending_by(start)
        if span is None or not LIST_GLUE.fullmatch(text, span[1], start):
            heads[start] = None
            break
        walked.append(start)
        head = start = span[0]
    for position in walked:  # each leads to the same head
        heads[position] = head
    return head


def _in_context(
    text: str,
    start: int,
    words: _Words,
    recognizer: Recognizer,
    earlier: _ListItems | None,
    heads: dict[int, int | None],
) -> bool:
    """The context words hold for a candidate at `start`, or (given `earlier`, the second
    pass) for the first item of a list it continues: "Phones: 052 5552606 074-7111234"
    gives the second number the word too."""
    if words.context_before(start, recognizer):
        return True
    head = None if earlier is None else _list_head(text, start, earlier, heads)
    return head is not None and words.context_before(head, recognizer)


def _pattern_matches(
    text: str,
    words: _Words,
    recognizer: Recognizer,
    pattern: Pattern,
    priority: int,
    earlier: _ListItems | None = None,
) -> Iterable[TextMatch]:
    """Every verified match of one pattern. After a rejected candidate the search resumes
    one character later, so a valid identifier inside a rejected candidate is still found.
    `earlier` (the second pass only) holds the spans of the recognizer's matches that a
    list may continue; each match accepted here joins it.
    """
    if pattern.needs_context and not words.mentions(recognizer):
        return
    heads: dict[int, int | None] = {}
    position = 0
    while position <= len(text):
        found = pattern.search.search(text, position)
        if found is None:
            break
        start = found.start()
        candidate = found.group(0)
        accepted: str | None = candidate
        if pattern.needs_context and not _in_context(
            text, start, words, recognizer, earlier, heads
        ):
            accepted = None
        elif pattern.validator is not None:
            accepted = pattern.validator(candidate)
        if accepted:
            end = start + len(accepted)
            if earlier is not None:
                earlier.add((start, end))
            yield TextMatch(recognizer.name, recognizer.label, pattern.name, start, end, priority)
            position = end
        else:
            position = start + 1
    if earlier is not None:
        earlier.settle()


def _list_continuations(
    text: str,
    words: _Words,
    ranked: Sequence[tuple[int, Recognizer, tuple[Pattern, ...]]],
    kept: Sequence[TextMatch],
) -> list[TextMatch]:
    """The second pass: matches of context patterns whose context is that of a list they
    continue. Only kept matches (overlaps resolved) start a list, so a phone number that
    also reads as a record number does not lend "patient" to the code after it."""
    found: list[TextMatch] = []
    for priority, recognizer, patterns in ranked:
        spans = [(m.start, m.end) for m in kept if m.recognizer == recognizer.name]
        if not spans:
            continue
        earlier = _ListItems(spans)
        for pattern in patterns:
            if pattern.needs_context:
                found.extend(_pattern_matches(text, words, recognizer, pattern, priority, earlier))
    return found


def _resolve_overlaps(matches: list[TextMatch]) -> list[TextMatch]:
    """Keep the longest of overlapping matches (ties: recognizer priority, then position)."""
    kept: list[TextMatch] = []
    # One mark per character taken: a match is checked in its own length, not against
    # every match kept before it (matches are never empty).
    taken = bytearray(max((m.end for m in matches), default=0))
    ranked = sorted(matches, key=lambda m: (-(m.end - m.start), m.priority, m.start))
    for match in ranked:
        if taken.find(1, match.start, match.end) < 0:
            kept.append(match)
            taken[match.start : match.end] = b"\x01" * (match.end - match.start)
    return sorted(kept, key=lambda m: (m.start, m.end))


def scan_text(
    text: str,
    recognizers: Sequence[Recognizer],
    preserve: Sequence[PreserveRule] = (),
    *,
    prefilter: bool = True,
    preserved: bool = False,
) -> list[TextMatch]:
    """All non-overlapping verified matches in `text`, in order, minus the preserved ones;
    with `preserved`, only the preserved ones (what the category keeps readable).

    The rules read `text` normalised (`redacto.rules.normalise`: full-width digits, Unicode
    spaces and dashes, invisible characters, tabs and line breaks inside numbers); each
    match is mapped back, so its offsets are into `text` and cover every character of the
    value as written. `recognizers` are in priority order; their position is the
    tie-breaker between matches of equal length. Patterns, validators and preserve rules
    read the normalised text through `read_ocr_zeros`; context words are read from the
    normalised text itself. Patterns that cannot match are skipped first (`prefilter`: the
    same result, found sooner; False runs every pattern, for the tests that check that).
    """
    normalised = normalise(text)
    found = _scan(normalised.text, recognizers, preserve, prefilter, preserved)
    if not normalised.maps:
        return found
    return [
        replace(match, start=start, end=end)
        for match in found
        for start, end in (normalised.source_span(match.start, match.end),)
    ]


def _scan(
    text: str,
    recognizers: Sequence[Recognizer],
    preserve: Sequence[PreserveRule],
    prefilter: bool,
    preserved: bool = False,
) -> list[TextMatch]:
    """`scan_text` on a text that is already normalised."""
    searched = read_ocr_zeros(text)
    could = (
        patterns_that_could_match(text, searched, recognizers)
        if prefilter
        else [recognizer.patterns for recognizer in recognizers]
    )
    ranked = [
        (priority, recognizer, patterns)
        for priority, (recognizer, patterns) in enumerate(zip(recognizers, could, strict=True))
        if patterns
    ]
    if not ranked:
        return []
    words = _Words(text)
    found = [
        match
        for priority, recognizer, patterns in ranked
        for pattern in patterns
        for match in _pattern_matches(searched, words, recognizer, pattern, priority)
    ]
    kept = _resolve_overlaps(found)
    first_pass = set(found)
    continued = [
        match
        for match in _list_continuations(searched, words, ranked, kept)
        if match not in first_pass
    ]
    if continued:
        kept = _resolve_overlaps(found + continued)
    # Preserved matches are dropped only after overlaps are resolved, so a kept toll-free
    # number still shadows a weaker reading of the same digits (an account number, say).
    return [
        match
        for match in kept
        if any(_keeps(rule, match, searched, words) for rule in preserve) is preserved
    ]


def _keeps(rule: PreserveRule, match: TextMatch, searched: str, words: _Words) -> bool:
    """Whether `rule` keeps `match` readable: its digits, or its context words before it."""
    if rule.recognizer != match.recognizer:
        return False
    if rule.context is not None:
        return words.preserved_before(match.start, rule)
    return rule.keeps_digits(match.recognizer, searched[match.start : match.end])
