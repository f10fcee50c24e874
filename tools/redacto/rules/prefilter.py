"""Which recognizer patterns could match a text at all, decided from facts read once per text.

Scanning a 1 KB text with every pattern costs about half a millisecond; most texts a
de-identifying proxy sees hold no identifier, and most patterns need something the text
does not have. What each pattern needs is data beside its regex in `recognizers.yaml`
(`prefilter:`, proved from the regex by `devtools/generated/rule_prefilter.py`; `PrefilterSpec` says
what it means): so many digits within so many characters (a 9-digit SSN pattern cannot
match prose whose longest number is a year, however many years it names), so many of a
character (an IPv6 address's two colons), a needle of each of some groups (`@`, a month's
name where a word begins). A pattern that needs context words needs every word of one of
its phrases as a word of the text. A pattern that cannot match is skipped, and a recognizer
none of whose patterns can; the result is exactly what the full scan finds (the tests
compare both on the corpus and on random texts).

The facts are read once per text and only when a requirement asks for them (where the
digits are, the lower-cased text, the words); each distinct requirement is tested at most
once; the digit requirements, which nearly every pattern has, are one comparison each; and
a recognizer whose patterns all need more digits close together than the text has is
dismissed with one.

    could = patterns_that_could_match(text, read_ocr_zeros(text), recognizers)
"""

from __future__ import annotations

import operator
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from redacto.rules.catalog import CONTEXT_WORD, Pattern, PrefilterSpec, Recognizer

_DIGIT_RUN = re.compile("[0-9]+")
_DIGITS = "0123456789"
_DIGIT_MASK = str.maketrans(
    {chr(code): "1" if chr(code) in _DIGITS else " " for code in range(128)}
)

"""For `str.translate` of an ASCII text: each digit becomes "1", every other character a
space, so `find` locates digits and the ends of their runs (a regex would test a class at
every character, several times slower)."""
_NEVER = float("inf")
_ANY_WIDTH = 2**62
"""A width no text reaches: `width: None` compared as a number."""
_WORD_CHARACTERS = frozenset(string.ascii_letters + string.digits)
_LOWER_WORD_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)
_ASCII_WORDS = str.maketrans(
    {chr(code): chr(code).lower() if chr(code) in _WORD_CHARACTERS else " " for code in range(128)}
)
"""An ASCII text with every character outside [A-Za-z0-9] made a space, lower-cased: its
`split()` is `CONTEXT_WORD`'s words, lower-cased, without a regex (several times faster)."""


def _words_among(text: str, wanted: frozenset[str]) -> frozenset[str]:
    """Those of `wanted` that are words of the text as context phrases are compared with
    them: runs of [A-Za-z0-9], lower-cased."""
    if text.isascii():
        return wanted.intersection(text.translate(_ASCII_WORDS).split())
    return wanted.intersection(word.lower() for word in CONTEXT_WORD.findall(text))


def _digit_runs(text: str) -> list[tuple[int, int]]:
    """[start, end) of each run of ASCII digits."""
    if not text.isascii():
        return [run.span() for run in _DIGIT_RUN.finditer(text)]
    mask = text.translate(_DIGIT_MASK)
    runs = []
    start = mask.find("1")
    while start >= 0:
        end = mask.find(" ", start)
        if end < 0:
            runs.append((start, len(mask)))
            break
        runs.append((start, end))
        start = mask.find("1", end)
    return runs


class _Facts:
    """What the requirements read of one text, each made only when first asked for."""

    __slots__ = ("_context_words", "_lowered", "_positions", "_text", "_words", "searched")

    def __init__(self, text: str, searched: str, context_words: frozenset[str]) -> None:
        self._text = text
        self.searched = searched
        self._context_words = context_words
        self._lowered: str | None = None
        self._words: frozenset[str] | None = None
        self._positions: dict[str, list[int]] = {}

    def lowered(self) -> str:
        if self._lowered is None:
            self._lowered = self.searched.lower()
        return self._lowered

    def words(self) -> frozenset[str]:
        """The words of the text (read as written, not as searched) that some context
        phrase of the plan holds: a set of a few, not of every word."""
        if self._words is None:
            self._words = _words_among(self._text, self._context_words)
        return self._words

    def digit_spans(self, counts: Sequence[int], size: int) -> list[float]:
        """`spans[n]`: the fewest characters in a row that hold n ASCII digits (`inf` where
        the text has fewer), for each n of `counts`; `size` entries."""
        spans: list[float] = [0, *[_NEVER] * (size - 1)]
        searched = self.searched
        if not any(digit in searched for digit in _DIGITS):
            return spans
        positions: list[int] = []
        longest = 0
        for start, end in _digit_runs(searched):
            positions.extend(range(start, end))
            longest = max(longest, end - start)
        for count in counts:
            if count > len(positions):
                break
            if count <= longest:  # inside one run of digits
                spans[count] = count
            else:
                spans[count] = 1 + min(map(operator.sub, positions[count - 1 :], positions))
        return spans

    def chars_within(self, char: str, count: int, width: int | None) -> bool:
        """Whether some `width` characters in a row hold `count` of `char`."""
        searched = self.searched
        if searched.count(char) < count:
            return False
        if width is None or count <= 1:
            return True
        positions = self._positions.get(char)
        if positions is None:
            positions = self._positions[char] = []
            position = searched.find(char)
            while position >= 0:
                positions.append(position)
                position = searched.find(char, position + 1)
        return 1 + min(map(operator.sub, positions[count - 1 :], positions)) <= width


_Test = Callable[[_Facts], bool]


def _has_chars(char: str, count: int, width: int | None) -> _Test:
    return lambda facts: facts.chars_within(char, count, width)


def _has_one_of(needles: tuple[str, ...]) -> _Test:
    chars = tuple(needle for needle in needles if len(needle) == 1)
    runs = tuple(needle.lower() for needle in needles if len(needle) > 1)

    def test(facts: _Facts) -> bool:
        searched = facts.searched
        if any(char in searched for char in chars):
            return True
        return bool(runs) and any(run in facts.lowered() for run in runs)

    return test


def _starts_a_word(runs: tuple[str, ...]) -> _Test:
    runs = tuple(run.lower() for run in runs)

    def test(facts: _Facts) -> bool:
        lowered = facts.lowered()
        if not facts.searched.isascii():
            # Lower-casing may change lengths or make a letter out of a non-ASCII character
            # (the Kelvin sign): then the character before a run is not read here.
            return any(run in lowered for run in runs)
        for run in runs:
            position = lowered.find(run)
            while position >= 0:
                if position == 0 or lowered[position - 1] not in _LOWER_WORD_CHARACTERS:
                    return True
                position = lowered.find(run, position + 1)
        return False

    return test


def _mentions(recognizer: Recognizer) -> _Test:
    """Whether every word of one of the recognizer's context phrases is a word of the text."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in recognizer.context_phrases:
        by_first.setdefault(phrase[0], []).append(phrase)
    first_words = frozenset(by_first)

    def test(facts: _Facts) -> bool:
        words = facts.words()
        return any(
            all(word in words for word in phrase)
            for first in first_words & words
            for phrase in by_first[first]
        )

    return test


_Digits = tuple[int, int]
"""(n, width): some `width` characters in a row hold n digits; (0, _) holds for every text."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """Every distinct test but the digits', the digit counts asked about, and per
    recognizer: the digits all its patterns imply, and each pattern with its digits and the
    indices of its other tests, cheapest first."""

    tests: tuple[_Test, ...]
    counts: tuple[int, ...]
    context_words: frozenset[str]
    recognizers: tuple[tuple[_Digits, tuple[tuple[Pattern, _Digits, tuple[int, ...]], ...]], ...]


class _PlanBuilder:
    def __init__(self) -> None:
        self.tests: list[_Test] = []
        self.index: dict[tuple[object, ...], int] = {}

    def test(self, key: tuple[object, ...], make: Callable[[], _Test]) -> int:
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.tests)
            self.tests.append(make())
        return found

    def pattern(
        self, pattern: Pattern, recognizer: Recognizer
    ) -> tuple[Pattern, _Digits, tuple[int, ...]]:
        spec = pattern.prefilter or PrefilterSpec()
        tests = [
            *(
                self.test(
                    ("chars", char, count, spec.width), partial(_has_chars, char, count, spec.width)
                )
                for char, count in spec.counts.items()
            ),
            *(self.test(("one of", group), partial(_has_one_of, group)) for group in spec.one_of),
            *(
                self.test(("word start", group), partial(_starts_a_word, group))
                for group in spec.word_starts
            ),
        ]
        if pattern.needs_context:
            tests.append(self.test(("context", recognizer.name), partial(_mentions, recognizer)))
        return pattern, _digits(spec), tuple(tests)


def _digits(spec: PrefilterSpec | None) -> _Digits:
    if spec is None:
        return 0, _ANY_WIDTH
    return spec.digits, _ANY_WIDTH if spec.width is None else spec.width


def _gate(recognizer: Recognizer) -> _Digits:
    """Digits every pattern of the recognizer implies: the fewest any needs, within the
    widest any allows."""
    needed = [_digits(pattern.prefilter) for pattern in recognizer.patterns]
    return min(count for count, _ in needed), max(width for _, width in needed)


_PLANS: dict[tuple[int, ...], tuple[Sequence[Recognizer], _Plan]] = {}
"""Plans by the identities of their recognizers; each entry keeps its recognizers alive, so
an identity is never another object's while its plan is kept."""


def _plan(recognizers: Sequence[Recognizer]) -> _Plan:
    key = tuple(map(id, recognizers))
    cached = _PLANS.get(key)
    if cached is None:
        builder = _PlanBuilder()
        planned = tuple(
            (_gate(recognizer), tuple(builder.pattern(p, recognizer) for p in recognizer.patterns))
            for recognizer in recognizers
        )
        counts = {gate[0] for gate, _ in planned}
        counts |= {digits[0] for _, patterns in planned for _, digits, _ in patterns}
        context_words = frozenset(
            word for r in recognizers for phrase in r.context_phrases for word in phrase
        )
        plan = _Plan(tuple(builder.tests), tuple(sorted(counts)), context_words, planned)
        cached = _PLANS[key] = (tuple(recognizers), plan)
    return cached[1]


def patterns_that_could_match(
    text: str, searched: str, recognizers: Sequence[Recognizer]
) -> list[tuple[Pattern, ...]]:
    """For each recognizer, in order, those of its patterns that could match `text`.

    `searched` is `text` as the patterns search it (`read_ocr_zeros`: the same length).
    """
    plan = _plan(recognizers)
    tests = plan.tests
    facts = _Facts(text, searched, plan.context_words)
    spans = facts.digit_spans(plan.counts, 1 + max(plan.counts, default=0))
    known: list[bool | None] = [None] * len(tests)
    could: list[tuple[Pattern, ...]] = []
    for (gate_count, gate_width), patterns in plan.recognizers:
        if spans[gate_count] > gate_width:
            could.append(())
            continue
        found = []
        for pattern, (count, width), needs in patterns:
            if spans[count] > width:
                continue
            for index in needs:
                passed = known[index]
                if passed is None:
                    passed = known[index] = tests[index](facts)
                if not passed:
                    break
            else:
                found.append(pattern)
        could.append(tuple(found))
    return could


def recognizers_that_could_match(
    text: str, searched: str, recognizers: Sequence[Recognizer]
) -> tuple[Recognizer, ...]:
    """The recognizers, in their order, with a pattern that could match `text`."""
    could = patterns_that_could_match(text, searched, recognizers)
    return tuple(
        recognizer for recognizer, patterns in zip(recognizers, could, strict=True) if patterns
    )
