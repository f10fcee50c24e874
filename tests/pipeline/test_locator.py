"""The text locator: exact, normalized, unique near-occurrence, shared run, or not located."""

import itertools

import pytest

from redacto.pipeline.locator import LocateMethod, Locator

NOTE = (
    "Mrs. Chen (MRN4471829) wrote to inquire@blucurrent. mail on 3/15/48. "
    "Seen by Dr. Srnith. Her daughter Lisa and ‘Ann O’Neil’ visited. Annual review."
)


def spans_text(text: str, value: str) -> tuple[LocateMethod, list[str]] | None:
    located = Locator(text).locate(value)
    if located is None:
        return None
    return located.method, [text[span.start : span.end] for span in located.spans]


LEVELS = [
    ("Mrs. Chen", LocateMethod.EXACT, ["Mrs. Chen"]),
    ("Lisa", LocateMethod.EXACT, ["Lisa"]),
    ("3/15/48", LocateMethod.EXACT, ["3/15/48"]),
    # the model's tidy version of OCR's broken email
    ("inquire@blucurrent.mail", LocateMethod.NORMALIZED, ["inquire@blucurrent. mail"]),
    ("MRS CHEN", LocateMethod.NORMALIZED, ["Mrs. Chen"]),
    ("Ann O'Neil", LocateMethod.NORMALIZED, ["Ann O’Neil"]),
    ("lisa", LocateMethod.NORMALIZED, ["Lisa"]),
    # OCR read "m" as "rn": the one near occurrence
    ("Dr. Smith", LocateMethod.UNIQUE, ["Dr. Srnith"]),
    # glued to its label: the shared run, widened to the token
    ("4471829", LocateMethod.SUBSTRING, ["MRN4471829"]),
    ("inquire@ucal.com", LocateMethod.SUBSTRING, ["inquire@blucurrent"]),
    # a near miss around a real name: its words of four or more letters, every occurrence
    ("Mrs. Lisa", LocateMethod.WORDS, ["Lisa"]),
    ("Lisa Whitfield", LocateMethod.WORDS, ["Lisa"]),
]
NOT_LOCATED = ["Robert Paulson", "", "   ", "...", "Chenoweth", "Lis", "4471"]
"""Values of NOTE no level places."""


@pytest.mark.parametrize(("value", "method", "found"), LEVELS)
def test_levels(value, method, found):
    assert spans_text(NOTE, value) == (method, found)


@pytest.mark.parametrize("value", NOT_LOCATED)
def test_not_located(value):
    assert spans_text(NOTE, value) is None


NEAR = [
    # a word of the value is in the text: a near miss, which could be a real value
    ("Seen by Dr. Lee.", "Lee Kowalski", True),
    ("Call 408-555-1234 today.", "408-555-0134", True),
    # two approximate occurrences: the unique level cannot choose, the trace is there
    ("Dr. Kirby saw Mr. Kerby.", "Korby", True),
    # no trace: the model's invention (FINDINGS 2: prompt examples)
    ("Mrs. Chen (MRN 4471829) called.", "Robert Paulson", False),
    ("Mrs. Chen (MRN 4471829) called.", "ACCOUNT 00412-7781", False),
    # words shorter than three letters or digits are no trace
    ("Seen by Dr. Lee.", "J. Dr", False),
]


@pytest.mark.parametrize(("text", "value", "near"), NEAR)
def test_near_tells_a_near_miss_from_an_invention(text, value, near):
    locator = Locator(text)
    assert locator.locate(value) is None
    assert locator.near(value) is near


def test_exact_respects_word_boundaries():
    assert spans_text("Annual report by Ann.", "Ann") == (LocateMethod.EXACT, ["Ann"])


def test_every_occurrence_in_any_case_is_found():
    text = "Jane Smith paid. JANE SMITH signed. jane  smith left."
    assert spans_text(text, "Jane Smith") == (
        LocateMethod.EXACT,
        ["Jane Smith", "JANE SMITH", "jane  smith"],
    )


def test_two_near_occurrences_are_ambiguous():
    assert spans_text("Seen by Dr. Srnith and Dr. Smyth.", "Dr. Smith") is None


def test_fuzzy_match_may_not_swallow_a_longer_word():
    assert spans_text("Chenoweth signed.", "Chen") is None


def test_spans_are_sorted_and_disjoint():
    located = Locator("ab-cd ab cd abcd").locate("ab cd")
    assert located is not None
    ends = [(span.start, span.end) for span in located.spans]
    assert ends == sorted(ends)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ends))


O_AS_ZERO = [
    # OCR read 0 as O in both copies, so no single fuzzy occurrence is unique
    ("MRN 44O7O29, copy filed under 44O7O29.", "4407029", ["44O7O29", "44O7O29"]),
    # the model read the O and the page has the digit
    ("Account 1O0-2048 closed.", "100-2048", ["1O0-2048"]),
    ("Account 100-2048 closed.", "1OO-2O48", ["100-2048"]),
]


@pytest.mark.parametrize(("text", "value", "found"), O_AS_ZERO)
def test_the_letter_o_is_read_as_zero_in_values_with_digits(text, value, found):
    assert spans_text(text, value) == (LocateMethod.O_AS_ZERO, found)


def test_o_as_zero_needs_a_digit_in_the_value():
    # "Bob" never matches "B0b": a value without digits is not a number OCR garbled
    assert spans_text("Signed B0b and B0b.", "Bob") is None
