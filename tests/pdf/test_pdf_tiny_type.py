"""Tiny type (1.5–3 pt) is drawn, so it is read and redacted like any other text.

A character whose box was under 8 px tall at 200 dpi (about 3 pt) was judged too small to
read, so its word was left out as hidden: no tier read it, nothing boxed it, and the run
could end PASS while "SSN 536-22-8426" at 2 pt stayed legible in `redacted.pdf` to anyone
who zoomed in. A privacy tool fails closed: ink on the page is read, however small.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rules_only_run import NoOcr, redact_with_rules_only

from devtools.fixtures.pdf_builder import Doc, Page, grey_text
from redacto.pdf import read_pdf

SSN, EMAIL = "536-22-8426", "rafael.griffin@example.com"
SIZES = [1.5, 2.0, 2.5, 3.0]
"""Points: all under the 8 px a character once had to reach to count as shown."""


def tiny_print(path: Path, size: float, lines: int = 6) -> Path:
    """Lines of tiny type, each a fraction of a pixel further right than the last, so its
    glyphs fall on every part of the pixel grid."""
    content = grey_text(54, 370, "Terms of the referral", 12)
    for i in range(lines):
        content += grey_text(54 + i * 0.083, 340 - i * 4 * size, f"Mail {EMAIL} SSN {SSN}", size)
    return Doc([Page(content)]).write(path)


@pytest.mark.parametrize("size", SIZES)
def test_tiny_type_is_read_whole(tmp_path, size):
    read = read_pdf(tiny_print(tmp_path / "in.pdf", size), ocr=NoOcr())
    words = [e.text for e in read.document.elements]
    assert read.pages[0].hidden == 0
    assert words.count(EMAIL) == 6
    assert words.count(SSN) == 6


@pytest.mark.parametrize("grey", ["0.9", "1"])
def test_tiny_near_white_type_is_still_hidden(tmp_path, grey):
    content = grey_text(54, 370, "Terms of the referral", 12) + grey_text(
        54, 340, f"SSN {SSN}", 2, grey
    )
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=NoOcr())
    assert [e.text for e in read.document.elements] == ["Terms", "of", "the", "referral"]
    assert read.pages[0].hidden == 2


def test_tiny_type_under_a_white_rectangle_is_still_hidden(tmp_path):
    content = (
        grey_text(54, 370, "Terms of the referral", 12)
        + grey_text(54, 340, f"SSN {SSN}", 2)
        + "1 g 50 335 100 12 re f\n"
    )
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=NoOcr())
    assert [e.text for e in read.document.elements] == ["Terms", "of", "the", "referral"]
    assert read.pages[0].hidden == 2


@pytest.mark.slow  # PP-OCR reads the burned page in the check after writing
def test_the_rules_box_tiny_type_and_nothing_of_it_is_left(tmp_path):
    source = tiny_print(tmp_path / "in.pdf", 2.0)
    output = redact_with_rules_only(source, tmp_path / "out")
    burned = output.burned
    for value in (EMAIL, SSN):
        assert value not in output.redacted_text and value not in output.layer
    assert "referral" in output.layer
    # Every value's word is black in the output's pixels.
    read = read_pdf(source, ocr=NoOcr())
    boxes = [e.box for e in read.document.elements if e.text in (EMAIL, SSN)]
    assert len(boxes) == 12
    for box in boxes:
        assert box is not None
        inner = burned[int(box.y0) : int(np.ceil(box.y1)), int(box.x0) : int(np.ceil(box.x1))]
        assert inner.size and int(inner.max()) <= 24
