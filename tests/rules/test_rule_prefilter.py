"""The prefilter skips only recognizers that cannot match: scans with it find exactly what
scans without it find, on every corpus text and on random texts built to be awkward."""

from __future__ import annotations

import random
import re

import pytest

from redacto.document import Category
from redacto.rules import CATEGORY_RULES, RECOGNIZERS, recognizers_for
from redacto.rules.matching import read_ocr_zeros, scan_text
from redacto.rules.prefilter import (
    recognizers_that_could_match,
    required_digits,
    required_needles,
)
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


def test_required_digits_read_from_the_regex() -> None:
    ssn = next(p for p in RECOGNIZERS["ssn"].patterns if p.name == "bare")
    assert required_digits(ssn.regex) == (9, 11)
    assert required_digits(re.compile(r"[0-9]{2,6}(?:[ -][0-9]{2,6}){1,4}")) == (4, 34)
    assert required_digits(re.compile(r"(?:12|3)x")) == (1, 3)
    assert required_digits(re.compile(r"(?=[0-9]{5})[a-z]+")) == (0, None)  # a lookahead
    assert required_digits(re.compile(r"[0-9a-f]{4}")) == (0, 4)  # not only digits


def test_required_needles_read_from_the_regex() -> None:
    assert required_needles(RECOGNIZERS["email"].patterns[0].regex) == frozenset("@")
    assert required_needles(re.compile(r"[^ ]+")) is None
    assert required_needles(re.compile(r"x?y*")) is None
    assert required_needles(re.compile(r"(?:ab|cd)")) == frozenset({"ab", "cd"})
    # A digit stands for every digit: OCR's O read as zero makes a 0 beside other digits.
    assert required_needles(re.compile(r"0[1-9]")) == frozenset("0123456789")
    assert required_needles(re.compile(r"(?=[a-z]*[0-9])[a-z0-9]+")) == frozenset("0123456789")
