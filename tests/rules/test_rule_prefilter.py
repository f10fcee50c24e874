"""The prefilter skips only recognizers that cannot match: scans with it find exactly what
scans without it find, on every corpus text and on random texts built to be awkward; and
what `devtools/generated/rule_prefilter.py` proves from a regex is what its matches need
(`python -m devtools.generated --check` says the lines in `recognizers.yaml` are its proofs)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from devtools.generated.rule_prefilter import derive, updated_yaml
from redacto.document import Category
from redacto.rules import CATEGORY_RULES, RECOGNIZERS, recognizers_for
from redacto.rules.catalog import RECOGNIZERS_FILE, PrefilterSpec
from redacto.rules.matching import read_ocr_zeros, scan_text
from redacto.rules.prefilter import recognizers_that_could_match
from rule_texts import corpus_texts


def both_scans(text: str, category: Category) -> tuple[list, list]:
    recognizers = recognizers_for(category)
    preserve = CATEGORY_RULES[category].preserve
    return (
        scan_text(text, recognizers, preserve),
        scan_text(text, recognizers, preserve, prefilter=False),
    )


@pytest.mark.parametrize("category", list(Category), ids=lambda c: c.name)
def test_the_corpus_scans_alike_with_and_without_the_prefilter(category: Category) -> None:
    texts = corpus_texts()
    assert len(texts) > 300
    found = 0
    for text in texts:
        filtered, full = both_scans(text, category)
        assert filtered == full
        found += len(full)
    assert found > 500  # the texts hold identifiers: the comparison is not of empty lists


AWKWARD = [
    "0", "1", "5", "9", "O", "o", "@", ":", "/", ".", "-", "+", " ", "\n", "www", "http",
    "plate", "MRN", "account", "acct", "case", "DL", "a", "Z", "x", ".com", "(", ")",
    # Month names at a word's start or inside one, colons and dots close together, and
    # characters whose lower case is longer or ASCII (the word-start test's fallback).
    "May", "aug", "caught", "Sept", "1st", "::", "1.2.", "\u212a", "\u0130", "é",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_random_awkward_texts_scan_alike(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        text = "".join(rng.choice(AWKWARD) for _ in range(rng.randint(1, 60)))
        for category in (Category.GENERAL, Category.FINANCIAL, Category.MEDICAL):
            filtered, full = both_scans(text, category)
            assert filtered == full, text


NUMBERY = [*"0123456789", " ", " ", "-", ".", "/", "(", ")", "+", "O", "x", "A", "#", "\n"]


@pytest.mark.parametrize("seed", range(4))
def test_random_number_like_texts_scan_alike(seed: int) -> None:
    """Digits as dense as identifiers have them, so the digit windows decide."""
    rng = random.Random(seed)
    found = 0
    for _ in range(300):
        text = "".join(rng.choice(NUMBERY) for _ in range(rng.randint(1, 40)))
        text = rng.choice(["", "call ", "SSN ", "acct ", "MRN ", "card "]) + text
        for category in (Category.GENERAL, Category.FINANCIAL, Category.MEDICAL):
            filtered, full = both_scans(text, category)
            assert filtered == full, text
            found += len(full)
    assert found > 20  # identifiers were found: the windows were put to the test


def test_no_recognizers_no_patterns() -> None:
    assert recognizers_that_could_match("call 415 555 0132", "call 415 555 0132", ()) == ()


def test_plain_prose_runs_no_recognizer() -> None:
    prose = (
        "Please summarise the meeting notes for the team. We discussed the roadmap, the "
        "hiring plan and the budget review; everyone agreed the migration should finish."
    )
    assert recognizers_that_could_match(prose, prose, recognizers_for(Category.GENERAL)) == ()


def woken(text: str, category: Category = Category.GENERAL) -> set[str]:
    found = recognizers_that_could_match(text, read_ocr_zeros(text), recognizers_for(category))
    return {recognizer.name for recognizer in found}


def test_an_at_sign_wakes_the_email_recognizer() -> None:
    assert "email" in woken("write to a@b")
    assert "email" not in woken("call 415 555 0132")


def test_number_recognizers_wake_only_where_enough_digits_lie_close_together() -> None:
    # A year, a version and a count: no stretch of the text holds a phone number's digits.
    assert not {"phone", "ssn", "payment_card"} & woken("In 2023 we shipped 2.4 in 3 weeks.")
    assert {"phone", "ssn"} <= woken("call 415 555 0132") - {"payment_card"}
    assert "payment_card" in woken("card 4111 1111 1111 1111")
    # OCR's O read as zero counts: the patterns search that reading.
    assert "phone" in woken("call (5O3) 555-O199")


def test_context_patterns_wake_only_where_a_whole_context_phrase_is_present() -> None:
    # "regression" holds the licence-plate word "reg", but not as a word.
    assert "licence_plate" not in woken("a regression in AB12 CDE")
    assert "licence_plate" in woken("reg AB12 CDE")


def test_months_wake_the_date_patterns_only_where_a_word_begins() -> None:
    assert "date" not in woken("the regression is caught within 3 days")
    assert "date" in woken("due 3 May")
    assert "date" in woken("due May-21")


def test_colons_wake_the_ipv6_pattern_only_two_together() -> None:
    assert "ip_address" not in woken("in parallel: fast unit tests")
    assert "ip_address" in woken("from fe80::")


PATTERNS = [
    pytest.param(pattern, id=f"{name}.{pattern.name}")
    for name, recognizer in RECOGNIZERS.items()
    for pattern in recognizer.patterns
]


def test_a_stale_prefilter_line_is_named_and_rewritten() -> None:
    text = RECOGNIZERS_FILE.read_text(encoding="utf-8")
    stale = text.replace("{width: 11, digits: 9}", "{width: 11, digits: 10}", 1)
    assert stale != text
    fixed, changed = updated_yaml(stale)
    assert fixed == text
    assert len(changed) == 1
    assert changed[0].startswith("ssn.")


def test_most_patterns_declare_what_they_need() -> None:
    assert sum(pattern.values[0].prefilter is not None for pattern in PATTERNS) > 45


@pytest.mark.parametrize(
    ("regex", "expected"),
    [
        (r"[0-9]{3}-[0-9]{2}-[0-9]{4}", PrefilterSpec(width=11, digits=9, counts={"-": 2})),
        (r"[0-9]{2,6}(?:[ -][0-9]{2,6}){1,4}", PrefilterSpec(width=34, digits=4)),
        (r"(?:12|3)x", PrefilterSpec(width=3, digits=1, one_of=(("1", "3"),))),
        # A lookahead consumes nothing: its digit is a needle, not a count.
        (r"(?=[a-z]*[0-9])[a-z0-9]+", PrefilterSpec(one_of=(tuple("0123456789"),))),
        (r"[0-9a-f]{4}", None),  # not only digits; letters are no test
        (r"[^ ]+", None),
        (r"x?y*", None),
        (r"(?:ab|cd)", PrefilterSpec(width=2, one_of=(("ab", "cd"),))),
        (r"0[1-9]", PrefilterSpec(width=2, digits=2, one_of=(("0",),))),
        (r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}", PrefilterSpec(width=15, digits=4, counts={".": 3})),
        (r"a@b", PrefilterSpec(width=3, counts={"@": 1}, one_of=(("a@b",),))),
        # A month's name after a boundary, or after a consumed space, begins a word.
        (r"(?<![A-Za-z0-9])(?i:may|june?)", PrefilterSpec(width=4, word_starts=(("jun", "may"),))),
        (r"[0-9] (?:may|jun)", PrefilterSpec(width=5, digits=1, word_starts=(("jun", "may"),))),
        (r"[0-9](?:may|jun)", PrefilterSpec(width=4, digits=1, one_of=(("jun", "may"),))),
    ],
)
def test_what_the_derivation_proves(regex: str, expected: PrefilterSpec | None) -> None:
    assert derive(regex) == expected


def test_runtime_reads_no_private_regex_module() -> None:
    tools = Path(__file__).resolve().parents[2] / "tools"
    for path in tools.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "re._parser" not in source and "re._compiler" not in source, path
