"""Image mode: identifiers OCR split over several elements, and the Detection shape."""

from __future__ import annotations

import time

import pytest

from redacto.document import Category, Detection, Document, Element, Source, Span
from redacto.rules import find_rule_detections, find_rule_matches


def elements_of(*words: str, page: int = 0) -> list[Element]:
    return [Element(index=i, text=word, page=page) for i, word in enumerate(words)]


def document_of(*words: str) -> Document:
    return Document.from_elements(elements_of(*words))


@pytest.mark.parametrize(
    ("words", "indices", "label"),
    [
        (("Call", "(555)", "123-4567", "today"), [1, 2], "PHONE"),
        (("Tel", "555", "123", "4567"), [1, 2, 3], "PHONE"),
        (
            ("IBAN", "DE89", "3704", "0044", "0532", "0130", "00", "thanks"),
            [1, 2, 3, 4, 5, 6],
            "ACCOUNT",
        ),
        (("Card:", "4111", "1111", "1111", "1111"), [1, 2, 3, 4], "CARD"),
        (("SSN", "123-45-", "6789"), [1, 2], "SSN"),  # broken after a dash, as at a line end
        (("SSN", "123", "45", "6789"), [1, 2, 3], "SSN"),
        (("Email:jane@example.com",), [0], "EMAIL"),
        (("MRN:", "4471829"), [1], "MRN"),  # the context word is not redacted
        (("Seen", "March", "5,", "2024", "by"), [1, 2, 3], "DATE"),
        (("Order", "4155552671"), [], None),
    ],
)
def test_split_values_mark_every_element(
    words: tuple[str, ...], indices: list[int], label: str | None
) -> None:
    detections = find_rule_detections(document_of(*words), Category.GENERAL)
    assert [d.index for d in detections] == indices
    assert {d.label for d in detections} == ({label} if label else set())


def test_detection_shape_in_image_mode() -> None:
    document = document_of("Phone", "(555)", "123-4567", "jane@x.com")
    assert find_rule_detections(document, Category.GENERAL) == [
        Detection(label="PHONE", source=Source.RULE, round=1, index=1, value="(555) 123-4567"),
        Detection(label="PHONE", source=Source.RULE, round=1, index=2, value="(555) 123-4567"),
        Detection(label="EMAIL", source=Source.RULE, round=1, index=3, value="jane@x.com"),
    ]


def test_detection_shape_in_text_mode() -> None:
    text = "Reach jane@x.com or (555) 123-4567."
    detections = find_rule_detections(Document.from_text(text), Category.GENERAL)
    assert detections == [
        Detection(
            label="EMAIL",
            source=Source.RULE,
            round=1,
            value="jane@x.com",
            span=Span(start=6, end=16),
        ),
        Detection(
            label="PHONE",
            source=Source.RULE,
            round=1,
            value="(555) 123-4567",
            span=Span(start=20, end=34),
        ),
    ]
    assert all(text[d.span.start : d.span.end] == d.value for d in detections)


def test_one_detection_per_element_first_match_keeps_its_label() -> None:
    document = document_of("jane@x.com/555-123-4567")
    matches = find_rule_matches(document, Category.GENERAL)
    assert [(m.label, m.indices) for m in matches] == [("EMAIL", (0,)), ("PHONE", (0,))]
    detections = find_rule_detections(document, Category.GENERAL)
    assert [(d.index, d.label) for d in detections] == [(0, "EMAIL")]


def test_no_match_across_a_page_break() -> None:
    elements = [
        Element(index=0, text="Tel", page=0),
        Element(index=1, text="(555)", page=0),
        Element(index=2, text="123-4567", page=1),
    ]
    assert find_rule_detections(Document.from_elements(elements), Category.GENERAL) == []


def test_empty_elements_are_never_marked() -> None:
    document = document_of("4111", "", "1111 1111 1111")
    # "4111  1111 1111 1111" has two spaces: not one card number.
    assert find_rule_detections(document, Category.GENERAL) == []
    document = document_of("", "4111", "1111", "1111", "1111", "")
    assert [d.index for d in find_rule_detections(document, Category.GENERAL)] == [1, 2, 3, 4]


def test_toll_free_kept_in_financial_redacted_in_general() -> None:
    document = document_of("Questions?", "1-800-555-0199", "or", "(415)", "555-0100")
    financial = find_rule_detections(document, Category.FINANCIAL)
    general = find_rule_detections(document, Category.GENERAL)
    assert [d.index for d in financial] == [3, 4]
    assert [d.index for d in general] == [1, 3, 4]


def test_empty_document_finds_nothing() -> None:
    assert find_rule_detections(Document.from_elements([]), Category.MEDICAL) == []
    assert find_rule_detections(Document.from_text(""), Category.MEDICAL) == []


def test_a_300_element_page_takes_well_under_50_ms_of_cpu() -> None:
    words = ["Tel", "(555)", "123-4567", "Account", "1234", "5678", "seen", "March", "5,", "2024"]
    words += ["the", "patient", "was", "seen", "for", "follow", "up", "MRN:", "4471829", "ok"] * 29
    document = document_of(*words)
    timings = []
    for _ in range(5):
        start = time.process_time()
        find_rule_detections(document, Category.GENERAL)
        timings.append((time.process_time() - start) * 1000)
    assert sorted(timings)[2] < 50
