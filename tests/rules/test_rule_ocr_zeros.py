"""OCR's letter O for zero: numbers with an O in them are still found, and shown as printed.

Tesseract and phone photos print "(5O3) 555-O199" for "(503) 555-0199". The rules read such
numbers with the O as a zero (tokens whose only letters are O/o and that hold a digit),
report the original text, and leave words and codes with an O alone.
"""

from __future__ import annotations

import random
import re

import pytest

from redacto.document import Category, Document, Element
from redacto.rules import find_rule_detections, find_rule_matches
from redacto.rules.matching import read_ocr_zeros
from rule_texts import corpus_texts


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("(5O3)", "(503)"),
        ("555-O199", "555-0199"),
        ("88-2O31", "88-2031"),
        ("O1/15/2O24", "01/15/2024"),
        ("1O.O.O.1", "10.0.0.1"),
        ("#O12345,", "#012345,"),  # punctuation around the number does not matter
        ("2o31", "2031"),  # a lower-case o too
        ("(8OO)", "(800)"),  # one digit is enough: toll-free area codes have two O's
        ("2O", "20"),
        ("O5,", "05,"),
        ("Account no. 88-2O31 775", "Account no. 88-2031 775"),  # token by token
        ("(5O3)\t555-O199\n", "(503)\t555-0199\n"),
    ],
)
def test_numbers_read_their_letter_o_as_zero(text: str, read: str) -> None:
    assert read_ocr_zeros(text) == read


@pytest.mark.parametrize(
    "text",
    [
        "FOO123",  # another letter in the token: a code, not a number
        "MO-4471",
        "Ohio",
        "O'Brien",
        "OO",  # no digit: nothing says it is a number
        "O",
        "No.2O31",  # a label glued to the number makes it a code (a known cost)
        "5Oé3",  # any letter counts, not only ASCII ones
        "",
        "nothing to read 123",
    ],
)
def test_words_and_codes_keep_their_letter_o(text: str) -> None:
    assert read_ocr_zeros(text) == text


@pytest.mark.parametrize(
    ("text", "category", "expected"),
    [
        ("Patient phone: (5O3) 555-O199", Category.FINANCIAL, [("phone", "(5O3) 555-O199")]),
        ("Account no. 88-2O31 775", Category.FINANCIAL, [("account_number", "88-2O31 775")]),
        ("Seen O1/15/2O24 in clinic", Category.MEDICAL, [("date", "O1/15/2O24")]),
        ("DOB Nov O5, 1985", Category.LEGAL, [("birth_date", "Nov O5, 1985")]),
        ("SSN 123-45-67O9", Category.GENERAL, [("ssn", "123-45-67O9")]),
        ("Server 1O.O.O.1", Category.GENERAL, [("ip_address", "1O.O.O.1")]),
        ("Call (8OO) 555-O142", Category.GENERAL, [("phone", "(8OO) 555-O142")]),
        # Preserve rules judge the digits as read: a toll-free line stays readable whole.
        ("Call (8OO) 555-O142", Category.FINANCIAL, []),
        ("Card 4111 1111 1111 1O11", Category.GENERAL, []),  # read as 1011: Luhn still fails
        ("Phone 555-Ol99", Category.GENERAL, []),  # l is another letter, not a 1
        ("Visit Ohio, Dr. O'Brien, ref FOO123", Category.GENERAL, []),
        # Context is read from the printed text: "2O5" has two digits there, so it is no
        # earlier value that would claim "MRN" for itself.
        ("MRN 2O5 4471829", Category.MEDICAL, [("mrn", "4471829")]),
    ],
)
def test_matches_report_the_printed_text(
    text: str, category: Category, expected: list[tuple[str, str]]
) -> None:
    matches = find_rule_matches(Document.from_text(text), category)
    assert [(m.recognizer, m.value) for m in matches] == expected
    for match in matches:
        assert match.span is not None
        assert text[match.span.start : match.span.end] == match.value


def test_a_number_split_over_elements_is_read_element_by_element() -> None:
    words = ("Patient", "phone:", "(5O3)", "555-O199", "MO-4471")
    document = Document.from_elements(
        [Element(index=i, text=word, page=0) for i, word in enumerate(words)]
    )
    detections = find_rule_detections(document, Category.FINANCIAL)
    assert [(d.index, d.label, d.value) for d in detections] == [
        (2, "PHONE", "(5O3) 555-O199"),
        (3, "PHONE", "(5O3) 555-O199"),
    ]


def read_token_by_token(text: str) -> str:
    """The reading as the docstring states it, one token at a time (the slow, plain way)."""

    def token_read(found: re.Match[str]) -> str:
        token = found.group(0)
        letters = [char for char in token if char.isalpha()]
        if not re.search("[0-9]", token) or any(char not in "Oo" for char in letters):
            return token
        return token.replace("O", "0").replace("o", "0")

    return re.sub(r"\S+", token_read, text, flags=re.ASCII)


def test_the_reading_is_the_token_by_token_reading_on_the_corpus_and_random_texts() -> None:
    rng = random.Random(7)
    pieces = [*"0O1o Oo-.\t\n\v/()xé", "Ohio", "2O24", "(8OO)", "MO-44", "Ö5"]
    texts = [
        *corpus_texts(),
        *("".join(rng.choice(pieces) for _ in range(rng.randint(0, 25))) for _ in range(3000)),
    ]
    changed = 0
    for text in texts:
        read = read_ocr_zeros(text)
        assert read == read_token_by_token(text), text
        changed += read != text
    assert changed > 100
