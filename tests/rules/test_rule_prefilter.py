"""The prefilter skips only recognizers that cannot match: scans with it find exactly what
scans without it find, on every corpus text and on random texts built to be awkward."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from redacto.document import Category
from redacto.rules import CATEGORY_RULES, RECOGNIZERS, recognizers_for
from redacto.rules.matching import scan_text
from redacto.rules.prefilter import recognizers_that_could_match, required_needles

ROOT = Path(__file__).resolve().parents[2]
SUITES = sorted((ROOT / "eval" / "suites").glob("*.jsonl"))
VECTORS = sorted((ROOT / "tests" / "vectors" / "rules").glob("*.json"))


def corpus_texts() -> list[str]:
    texts = [
        json.loads(line)["text"] for suite in SUITES for line in suite.read_text().splitlines()
    ]
    vectors = [json.loads(path.read_text()) for path in VECTORS]
    texts += [vector["text"] for vector in vectors if "text" in vector]
    return texts


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


def test_plain_prose_runs_no_recognizer() -> None:
    prose = (
        "Please summarise the meeting notes for the team. We discussed the roadmap, the "
        "hiring plan and the budget review; everyone agreed the migration should finish."
    )
    assert recognizers_that_could_match(prose, recognizers_for(Category.GENERAL)) == ()


def test_a_digit_wakes_the_number_recognizers_and_an_at_sign_the_email_one() -> None:
    general = recognizers_for(Category.GENERAL)
    assert "email" in {r.name for r in recognizers_that_could_match("write to a@b", general)}
    woken = {r.name for r in recognizers_that_could_match("call 5", general)}
    assert {"phone", "ssn", "payment_card"} <= woken
    assert "email" not in woken


def test_required_needles_read_from_the_regex() -> None:
    assert required_needles(RECOGNIZERS["email"].patterns[0].regex) == frozenset("@")
    assert required_needles(re.compile(r"[^ ]+")) is None
    assert required_needles(re.compile(r"x?y*")) is None
    assert required_needles(re.compile(r"(?:ab|cd)")) == frozenset({"ab", "cd"})
    # A digit stands for every digit: OCR's O read as zero makes a 0 beside other digits.
    assert required_needles(re.compile(r"0[1-9]")) == frozenset("0123456789")
    assert required_needles(re.compile(r"(?=[a-z]*[0-9])[a-z0-9]+")) == frozenset("0123456789")
