"""Faint type — fine print, light grey — is read whole, as the page shows it.

Fine print (3.5–5 pt) is read with its full stops and hyphens.

A character shows when at least `MIN_INK_PIXELS` pixels of its box are ink. A full stop or
a hyphen in small type is a mark of one or two pixels at 200 dpi, so wherever it fell on the
pixel grid it could leave fewer, and its word ("rafael.griffin@example.com",
"536-22-8426") was judged hidden though every letter of it showed: dropped from what every
tier reads, left readable in `redacted.pdf`'s pixels, and the run could end PASS. Such a
glyph's ink no longer decides whether its word shows; a word whose letters are covered is
still hidden.

Light-grey type (70–80 % grey on white) is plainly legible, yet changed the page by less
than the ink contrast asked (96 of 255), so it was judged hidden and only OCR read it
(splitting "rafael.griffin @example.com", so the rules boxed nothing). Near-white type is
still hidden.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_only_run import NoOcr, redact_with_rules_only

from devtools.fixtures.pdf_builder import Doc, Page, grey_text
from redacto.pdf import read_pdf

SSN, EMAIL, PHONE = "536-22-8426", "rafael.griffin@example.com", "555-867-5309"
SIZES = [3.5, 4.0, 4.5, 5.0]
"""Points: below the size at which a full stop always leaves enough ink."""


def fine_print(path: Path, size: float) -> Path:
    """Twelve lines of fine print, each a fraction of a pixel further right than the last,
    so the full stops and hyphens fall on every part of the pixel grid."""
    content = grey_text(54, 370, "Terms of the referral", 12)
    for i in range(12):
        words = f"Mail {EMAIL} SSN {SSN} or call {PHONE}."
        content += grey_text(54 + i * 0.043, 340 - i * 3 * size, words, size)
    return Doc([Page(content)]).write(path)


@pytest.mark.parametrize("size", SIZES)
def test_fine_print_is_read_whole(tmp_path, size):
    read = read_pdf(fine_print(tmp_path / "in.pdf", size), ocr=NoOcr())
    words = [e.text for e in read.document.elements]
    assert read.pages[0].hidden == 0
    assert words.count(EMAIL) == 12
    assert words.count(SSN) == 12
    assert words.count(f"{PHONE}.") == 12


@pytest.mark.parametrize(("grey", "size"), [("0.7", 4.0), ("0.7", 8.0), ("0.8", 6.0)])
def test_light_grey_type_is_read(tmp_path, grey, size):
    content = grey_text(54, 370, "Terms of the referral", 12) + grey_text(
        54, 340, f"Mail {EMAIL} SSN {SSN}", size, grey
    )
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=NoOcr())
    assert [e.text for e in read.document.elements][4:] == ["Mail", EMAIL, "SSN", SSN]
    assert read.pages[0].hidden == 0


@pytest.mark.parametrize("grey", ["0.9", "0.95"])
def test_near_white_type_is_still_hidden(tmp_path, grey):
    content = grey_text(54, 370, "Terms of the referral", 12) + grey_text(
        54, 340, f"Mail {EMAIL}", 8, grey
    )
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=NoOcr())
    assert [e.text for e in read.document.elements] == ["Terms", "of", "the", "referral"]
    assert read.pages[0].hidden == 2


def test_fine_print_under_a_white_rectangle_is_still_hidden(tmp_path):
    # Its letters have outlines of their own and leave no ink: the word is hidden, whatever
    # its full stops do.
    content = (
        grey_text(54, 370, "Terms of the referral", 12)
        + grey_text(54, 340, f"Mail {EMAIL}", 4.0)
        + "1 g 70 330 200 20 re f\n"
    )
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=NoOcr())
    assert [e.text for e in read.document.elements] == ["Terms", "of", "the", "referral", "Mail"]
    assert read.pages[0].hidden == 1


@pytest.mark.slow  # PP-OCR reads the burned page in the check after writing
def test_the_rules_box_fine_print_and_nothing_of_it_is_left(tmp_path):
    source = fine_print(tmp_path / "in.pdf", 4.0)
    output = redact_with_rules_only(source, tmp_path / "out")
    burned = output.burned
    for value in (EMAIL, SSN, PHONE):
        assert value not in output.redacted_text and value not in output.layer
    assert "referral" in output.layer
    # Every value's word is black in the output's pixels.
    read = read_pdf(source, ocr=NoOcr())
    boxes = [e.box for e in read.document.elements if e.text in (EMAIL, SSN, f"{PHONE}.")]
    assert len(boxes) == 36
    for box in boxes:
        assert box is not None
        inner = burned[int(box.y0) + 1 : int(box.y1) - 1, int(box.x0) + 1 : int(box.x1) - 1]
        assert inner.size and int(inner.max()) <= 24
