"""The rule safety net on a 300-element OCR page, timed per category (pytest-benchmark).

The page is built from a fixed seed: ordinary words with identifiers spread through it,
many OCR split over several elements, so the timings are comparable between runs. In the
normal test run each case runs once (`--benchmark-disable`) and checks that the page's
identifiers are found; with `--benchmark-enable` (docs/benchmarks.md) it is timed and must
stay under the budget of 50 ms a page.
"""

from __future__ import annotations

import random

import pytest

from redacto.document import Category, Document, Element, Mode
from redacto.rules import find_rule_detections

BUDGET_MS = 50.0
FILLER_TEXT = (
    "the patient was seen today for follow up and reports no new symptoms please call if "
    "questions arise statement balance due payment received thank you account summary "
    "page of total amount interest fee credit limit available"
)
FILLER = FILLER_TEXT.split()
IDENTIFIERS = (
    ("Phone:", "(415)", "555-0100"),
    ("Tel", "415", "555", "0199"),
    ("Email:", "jane.doe@example.com"),
    ("Card", "4111", "1111", "1111", "1111"),
    ("IBAN", "DE89", "3704", "0044", "0532", "0130", "00"),
    ("SSN", "123-45-6789"),
    ("DOB", "03/15/1948"),
    ("seen", "March", "5,", "2024"),
    ("MRN:", "4471829"),
    ("Account", "Number:", "1234", "5678", "9012"),
    ("Routing", "021000021"),
    ("Member", "ID:", "XJH123456789"),
    ("from", "192.168.1.20"),
    ("https://www.linkedin.com/in/jane-doe",),
    ("Call", "1-800-555-0199"),
)


def build_page(size: int, seed: int = 7) -> Document:
    """A page of `size` elements, about one in five belonging to an identifier."""
    rng = random.Random(seed)
    words: list[str] = []
    while len(words) < size:
        if rng.random() < 0.12:
            words.extend(rng.choice(IDENTIFIERS))
        else:
            words.append(rng.choice(FILLER))
    elements = [Element(index=i, text=word) for i, word in enumerate(words[:size])]
    return Document(mode=Mode.IMAGE, elements=tuple(elements))


PAGE = build_page(300)


@pytest.mark.parametrize("category", list(Category), ids=lambda category: category.value)
def test_the_rules_read_a_300_element_page_within_the_budget(benchmark, category):
    found = benchmark(find_rule_detections, PAGE, category)
    assert len(found) > 50  # some 60-70 identifiers' elements on the page, in every category
    if benchmark.enabled:
        assert benchmark.stats.stats.median * 1000 < BUDGET_MS
