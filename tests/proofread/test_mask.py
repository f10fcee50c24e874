"""Hiding before sending: runs of detected words become one placeholder per value, the same
value the same placeholder everywhere, other occurrences of a known value hidden too, and
a text that would still show a value refused."""

from __future__ import annotations

import pytest

from redacto.document import Box, Category, Detection, Document, Element, Source, Span
from redacto.lexicon import Kind
from redacto.proofread.mask import (
    MaskedDocument,
    ValueWouldLeak,
    check_nothing_leaks,
    mask_document,
)
from redacto.proofread.readable import ResidualCheck
from redacto.vault import Vault


def words(*lines: str, page_of=lambda line: 0) -> list[Element]:
    elements = []
    for number, line in enumerate(lines):
        x = 0.0
        for word in line.split():
            box = Box(x0=x, y0=number * 20.0, x1=x + 10 * len(word), y1=number * 20.0 + 12)
            elements.append(Element(index=len(elements), text=word, box=box, page=page_of(number)))
            x += 10 * len(word) + 5
    return elements


def detected(index: int, label: str, value: str) -> Detection:
    return Detection(label=label, source=Source.DETECT, round=1, index=index, value=value)


def test_a_page_gets_one_placeholder_per_run_and_value():
    elements = words("Jane Smith, Lyon", "Contact: Jane Smith, or JANE SMITH", "Dr Lee")
    document = Document.from_elements(elements)
    found = [
        detected(0, "NAME", "Jane Smith"),
        detected(1, "NAME", "Jane Smith"),
        detected(2, "ADDRESS", "Lyon"),
        detected(4, "NAME", "Jane Smith"),
        detected(5, "NAME", "Jane Smith"),
    ]
    masked = mask_document(document, found)
    # "JANE SMITH" was not detected there: the vault knows the value and hides it too
    assert masked.text == "[NAME_1] [ADDRESS_1]\nContact: [NAME_1] or [NAME_1]\nDr Lee"
    assert (masked.values, masked.occurrences) == (2, 4)
    assert masked.vault.original("[NAME_1]") == "Jane Smith,"


def test_pages_are_apart_and_a_text_document_is_masked_by_its_spans():
    elements = words("Dear Jane", "Regards Jane", page_of=lambda line: line)
    document = Document.from_elements(elements)
    masked = mask_document(document, [detected(1, "NAME", "Jane")])
    assert masked.text == "Dear [NAME_1]\n\nRegards [NAME_1]"
    text = Document.from_text("Write to ann@example.org or to Ann.")
    spans = [
        Detection(label="EMAIL", source=Source.RULE, round=1, span=Span(start=9, end=24)),
        Detection(label="NAME", source=Source.DETECT, round=1, value="Ann"),
    ]
    assert mask_document(text, spans).text == "Write to [EMAIL_1] or to [NAME_1]."


def test_a_value_still_readable_is_refused():
    vault = Vault()
    vault.placeholder_for("NAME", "Whitcombe")
    with pytest.raises(ValueWouldLeak):
        check_nothing_leaks(MaskedDocument("Dear whitcombe,", vault, 0))


def test_the_words_left_readable_that_no_reader_explains_are_found_and_hidden_under_strict():
    text = "Write to ann@example.org, Ann Wiik, or to Wiik's office.\nWiik"
    document = Document.from_text(text)
    found = [
        Detection(label="EMAIL", source=Source.RULE, round=1, span=Span(start=9, end=24)),
        Detection(label="NAME", source=Source.DETECT, round=1, span=Span(start=26, end=29)),
    ]
    check = ResidualCheck(Category.GENERAL, "en")
    masked = mask_document(document, found, check)
    # the hidden e-mail would be an unexplained word, and so would its placeholder
    # ([EMAIL_1] reads as the word EMAIL_1): neither is listed, only what the text shows
    assert masked.text == "Write to [EMAIL_1], [NAME_1] Wiik, or to Wiik's office.\nWiik"
    assert [(w.value, w.kind, w.context_before) for w in masked.unexplained] == [
        ("Wiik", Kind.CAPITALISED, "Write to ann@example.org, Ann"),
        ("Wiik's", Kind.CAPITALISED, "Ann Wiik, or to"),
        ("Wiik", Kind.CAPITALISED, ""),
    ]
    strict = mask_document(document, found, ResidualCheck(Category.GENERAL, "en", strict=True))
    # numbered after the detected values, each word as the check cut it; checked once more
    assert strict.text == (
        "Write to [EMAIL_1], [NAME_1] [NAME_2], or to [NAME_3] office.\n[NAME_2]"
    )
    assert strict.vault.original("[NAME_3]") == "Wiik's"
    assert strict.unexplained == masked.unexplained and strict.values == 4


def test_a_page_is_checked_as_the_proofreader_reads_it():
    elements = words("Dear Jane Wiik,", "Regards Jane", page_of=lambda line: line)
    document = Document.from_elements(elements)
    masked = mask_document(
        document, [detected(1, "NAME", "Jane")], ResidualCheck(Category.GENERAL, "en")
    )
    assert masked.text == "Dear [NAME_1] Wiik,\n\nRegards [NAME_1]"
    assert [(w.value, w.context_before) for w in masked.unexplained] == [("Wiik", "Dear Jane")]
