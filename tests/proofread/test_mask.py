"""Hiding before sending: runs of detected words become one placeholder per value, the same
value the same placeholder everywhere, other occurrences of a known value hidden too, and
a text that would still show a value refused."""

from __future__ import annotations

import pytest

from redacto.document import Box, Detection, Document, Element, Source, Span
from redacto.proofread.mask import (
    MaskedDocument,
    ValueWouldLeak,
    check_nothing_leaks,
    mask_document,
)
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
