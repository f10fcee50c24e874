"""Values that identify no one under any label (a time of day, an amount), and the greetings
cut from a NAME: the tables of `redacto.text.not_identifiers`, and the shared vectors
(tests/vectors/not_identifiers, Kotlin `NotIdentifiersVectorTest`) against the Python."""

from __future__ import annotations

import json
from typing import Any

import pytest

from redacto.host.resources import SOURCE_ROOT
from redacto.ner.labels import is_amount
from redacto.pipeline.detections import rejected_as, trimmed_item
from redacto.pipeline.parsing import IndexItem, TextItem
from redacto.report import RejectReason
from redacto.text.not_identifiers import (
    CURRENCIES,
    MAX_AMOUNT_DIGITS,
    NAME_OPENERS,
    identifies_no_one,
    is_amount_value,
    is_time_of_day,
    without_openers,
)

VECTORS = SOURCE_ROOT / "tests" / "vectors" / "not_identifiers" / "not_identifiers.json"


@pytest.mark.parametrize(
    ("value", "time"),
    [
        ("11:15.", True),
        ("7:45 pm", True),
        ("9 am.", True),
        ("14h30", True),
        ("19 h", True),
        ("9 A.M.", True),
        ("10:61", False),
        ("25:00", False),
        ("2025", False),
        ("3", False),
        ("à 14h30", False),
    ],
)
def test_a_time_of_day_and_nothing_else(value, time):
    assert is_time_of_day(value) is time


@pytest.mark.parametrize(
    ("value", "amount"),
    [
        ("671 EUR", True),
        ("€1339", True),
        ("870,00 €", True),
        ("$80.84", True),
        ("£1568", True),
        ("USD 25", True),
        ("1\u202f250,00\u00a0€", True),
        ("EUR 123456789", True),
        ("1065 EUR from X", False),
        ("EUR 1234567890", False),  # more than MAX_AMOUNT_DIGITS: may be an account
        ("132,00", False),
        ("EUR", False),
    ],
)
def test_an_amount_and_nothing_else(value, amount):
    assert is_amount_value(value) is amount


def test_ten_digits_beside_a_currency_are_no_amount():
    digits = "1" * MAX_AMOUNT_DIGITS
    assert is_amount_value(f"EUR {digits}") and not is_amount_value(f"EUR {digits}1")


@pytest.mark.parametrize(
    ("value", "identifies"),
    [("11:15", False), ("€5", False), ("Jane Smith", True), ("4471829", True), (None, True)],
)
def test_a_time_or_an_amount_identifies_no_one(value, identifies):
    assert identifies_no_one(value) is not identifies


@pytest.mark.parametrize(
    ("value", "trimmed"),
    [
        ("Coucou Thérèse,", "Thérèse,"),
        ("Hi Gina", "Gina"),
        ("Dear John Smith", "John Smith"),
        ("Bonjour, Madame Dupont", "Madame Dupont"),
        ("Hello dear Anna", "Anna"),
        # Titles, particles and capitals are the name's own; a lone greeting is kept.
        ("Mrs. Chen", "Mrs. Chen"),
        ("De Sousa", "De Sousa"),
        ("BRITTANY LE", "BRITTANY LE"),
        ("Hi", "Hi"),
    ],
)
def test_a_greeting_is_cut_from_a_name(value, trimmed):
    assert without_openers("NAME", value) == trimmed


def test_only_a_name_loses_its_greeting():
    assert without_openers("ADDRESS", "Dear Street 5") == "Dear Street 5"


def test_the_word_lists_are_case_folded():
    assert all(word == word.casefold() for word in CURRENCIES | NAME_OPENERS)


@pytest.mark.parametrize(
    ("item", "words", "reason"),
    [
        (TextItem("ADDRESS", "11:15."), (), RejectReason.NOT_AN_IDENTIFIER),
        (TextItem("ACCOUNT", "671 EUR"), (), RejectReason.NOT_AN_IDENTIFIER),
        (TextItem("NAME", "My"), (), RejectReason.NOT_A_NAME),
        (TextItem("NAME", "Thérèse"), (), None),
        (IndexItem(1, "SSN"), ("Tax:", "£1568"), RejectReason.NOT_AN_IDENTIFIER),
        (IndexItem(0, "DATE"), ("14h30",), RejectReason.NOT_AN_IDENTIFIER),
        (IndexItem(5, "DATE"), ("14h30",), None),
    ],
)
def test_rejected_as(item, words, reason):
    assert rejected_as(item, words) is reason


def test_trimmed_item_keeps_an_index_item_and_an_untouched_value():
    item = TextItem("NAME", "Jane Smith")
    assert trimmed_item(item) is item
    assert trimmed_item(IndexItem(0, "NAME")) == IndexItem(0, "NAME")
    assert trimmed_item(TextItem("NAME", "Coucou Thérèse")) == TextItem("NAME", "Thérèse")


def test_a_number_that_holds_its_currency_is_this_module_s_concern():
    """`is_amount` reads a bare number beside a currency in its text; a value holding its
    currency is not bare, and is decided here."""
    assert not is_amount("Tax: £1568", 5, 10)
    assert is_amount_value("£1568")


def _vector_cases() -> list[dict[str, Any]]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize(
    "case", _vector_cases(), ids=[f"{c['label']}-{c['value']!r}" for c in _vector_cases()]
)
def test_shared_vector(case: dict[str, Any]) -> None:
    label, value = case["label"], case["value"]
    assert is_time_of_day(value) is case["time_of_day"]
    assert is_amount_value(value) is case["amount"]
    assert identifies_no_one(value) is case["identifies_no_one"]
    assert without_openers(label, value) == case["without_openers"]
    reason = rejected_as(trimmed_item(TextItem(label, value)))
    assert (None if reason is None else reason.value) == case["rejected_as"]


def test_the_shared_vectors_cover_both_languages_and_every_answer() -> None:
    cases = _vector_cases()
    assert len(cases) >= 40
    reasons = {case["rejected_as"] for case in cases}
    assert reasons == {None, RejectReason.NOT_A_NAME.value, RejectReason.NOT_AN_IDENTIFIER.value}
    for key in ("time_of_day", "amount"):
        assert {case[key] for case in cases} == {True, False}
