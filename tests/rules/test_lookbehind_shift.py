"""`shift_lookbehinds` rearranges a pattern without changing what it matches: every
recognizer pattern's rearranged form finds what the pattern as written finds, on the corpus,
from every start position of awkward random texts, and beside the boundaries its lookbehinds
test."""

from __future__ import annotations

import random
import re

import pytest

from redacto.rules import RECOGNIZERS
from redacto.rules.catalog import REGEX_FLAGS, Pattern
from redacto.rules.lookbehind_shift import shift_lookbehinds
from rule_texts import corpus_texts

PATTERNS = [
    pytest.param(pattern, id=f"{name}.{pattern.name}")
    for name, recognizer in RECOGNIZERS.items()
    for pattern in recognizer.patterns
]
PIECES = [*"0123456789 -./()+:@OoxAZ\n", "www.", "a@b.", "555", "2023", "Jan "]


def spans(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [found.span() for found in regex.finditer(text)]


def test_most_patterns_are_rearranged() -> None:
    rearranged = [p for p in PATTERNS if p.values[0].search is not p.values[0].regex]
    assert len(rearranged) >= len(PATTERNS) * 2 // 3


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_corpus_matches_alike(pattern: Pattern) -> None:
    for text in corpus_texts():
        assert spans(pattern.search, text) == spans(pattern.regex, text)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_random_texts_match_alike_from_every_position(pattern: Pattern) -> None:
    rng = random.Random(pattern.name)
    for _ in range(150):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30)))
        for position in range(len(text) + 1):
            written = pattern.regex.search(text, position)
            rearranged = pattern.search.search(text, position)
            assert (rearranged and rearranged.span()) == (written and written.span()), text


@pytest.mark.parametrize(
    ("regex", "texts"),
    [
        (r"(?<![0-9])[0-9]{3}", ["123", "a123", "1234", "12", "x 456 7890"]),
        (r"(?<![A-Za-z-])(?<![0-9] )[0-9]{2}-[0-9]", ["12-3", "5 12-3", "a12-3", "-12-3"]),
        (r"(?<=#)[A-Z][0-9]+?", ["#A1", "A1", "##B22"]),
        (r"(?<!x)a{1,1}b", ["ab", "xab", "aab"]),
        (r"(?<!ab|cd)e+f", ["ef", "abef", "cdeef", "bdef", "eef"]),  # an alternation behind
        (r"(?<![0-9])\(x|y", ["(x", "1(x", "((x", "y"]),  # escaped; an alternative after
        (r"(?<!-)\d{2,}?x", ["12x", "-12x", "1234x"]),  # \d, at least two, lazily
        (r"(?<![A-Z])[]A]{2}", ["]A", "B]A", "AA]"]),  # `]` first in a class
        (r"(?<!z)[a-c]{1}d", ["ad", "zad", "zzbd"]),
    ],
)
def test_shapes_it_rearranges(regex: str, texts: list[str]) -> None:
    written = re.compile(regex, REGEX_FLAGS)
    rearranged = shift_lookbehinds(written)
    assert rearranged is not written
    for text in texts:
        assert spans(rearranged, text) == spans(written, text)
        for position in range(len(text) + 1):
            found = rearranged.search(text, position)
            expected = written.search(text, position)
            assert (found and found.span()) == (expected and expected.span()), (text, position)


def test_what_the_rearranged_pattern_reads() -> None:
    shifted = shift_lookbehinds(re.compile(r"(?<![A-Za-z0-9-])[0-9]{3}-[0-9]{4}", REGEX_FLAGS))
    assert shifted.pattern == r"[0-9](?<!(?:[A-Za-z0-9-])[0-9])[0-9]{2}-[0-9]{4}"
    assert shifted.flags == re.compile("", REGEX_FLAGS).flags


@pytest.mark.parametrize(
    "regex",
    [
        r"[0-9]{3}",  # no lookbehind
        r"(?<!x)(?:ab|cd)",  # a group first
        r"(?<!x)a?b",  # a first item that may match nothing
        r"(?<!x)a*b",
        r"(?<!x)a{0,2}b",
        r"(?<!x)a{,2}b",
        r"(?<!x)a++b",  # possessive
        r"(?<!x)(?=a)ab",  # a lookahead first
        r"(?<!x)\bab",  # an escape that is no character
        r"(?<!x)\Ab",
        r"(?<!x).b",
        r"(?<!x)",  # nothing after the lookbehind
    ],
)
def test_shapes_it_leaves_alone(regex: str) -> None:
    written = re.compile(regex)
    assert shift_lookbehinds(written) is written


def test_a_verbose_pattern_is_left_alone() -> None:
    written = re.compile(r"(?<!x) a b  # spaces and comments are not read", re.VERBOSE)
    assert shift_lookbehinds(written) is written
