"""The pixels decide what is readable: a glyph the font cannot draw, and pieces of a value.

Helvetica with `/Differences [129 /ffi]`: pdfium reads "Griffin", the page shows "Gri n"
(the standard font has no ffi glyph). The word must still be read whole from the text
layer, so that its whole extent is boxed, and nothing of the name or the address may stay
readable: not on the burned page (read back by PP-OCR), not in its text layer, not in
`redacted.txt`. And the check after writing must catch a piece of a value left beside its
box, which the whole-value check of the text layer cannot see.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from devtools.fixtures.pdf_builder import Doc, Page, text
from redacto.document import Box, Detection, Element, ImageReading, Source, Status
from redacto.inputs import redact_path
from redacto.ocr import OcrEngine, open_ocr
from redacto.pdf import read_pdf, render_page
from redacto.pdf.pieces import hidden_values, piece_beside
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

LIGATURE = "<< /Type /Encoding /Differences [129 /ffi] >>"
EMAIL = "rafael.griffin@example.com"


def ligature_pdf(path: Path) -> Path:
    content = (
        text(54, 340, "Patient: Rafael Gri\x81n")
        + text(54, 310, "Mail: rafael.gri\x81n@example.com")
        + text(54, 280, "Diagnosis: fracture")
    )
    return Doc([Page(content)], font_encoding=LIGATURE).write(path)


REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": [f"NAME: Rafael Griffin\nEMAIL: {EMAIL}"],
    "validate": ["PASS"],
}


def run(source: Path, out: Path):
    return redact_path(
        source,
        out,
        trusting(REPLIES),
        prompts=PromptLibrary.load(),
        options=PipelineOptions(image_reading=ImageReading.TEXT),
    )


@pytest.mark.slow
def test_a_word_with_a_glyph_the_font_lacks_is_read_whole(tmp_path):
    read = read_pdf(ligature_pdf(tmp_path / "in.pdf"))
    words = [e.text for e in read.document.elements]
    assert "Griffin" in words and EMAIL in words
    # OCR's pieces of the same words ("Gri", "n@example.com") are the layer's own.
    assert not any(
        w.startswith(("Gri", "rafael.gri")) and w not in ("Griffin", EMAIL) for w in words
    )
    assert read.pages[0].hidden == 0


class _NoOcr(OcrEngine):
    name = "none"

    def read(self, image: Image.Image) -> list[Element]:
        return []


def test_the_word_is_read_whole_on_a_coloured_ground_too(tmp_path):
    content = "0.8 0.9 1 rg 40 320 400 40 re f\n" + text(54, 340, "Patient: Rafael Gri\x81n")
    read = read_pdf(
        Doc([Page(content)], font_encoding=LIGATURE).write(tmp_path / "in.pdf"), ocr=_NoOcr()
    )
    assert [e.text for e in read.document.elements] == ["Patient:", "Rafael", "Griffin"]


def test_a_word_partly_under_a_white_rectangle_is_still_not_read(tmp_path):
    # Blank paper where glyphs are covered is not a glyph the font lacks: the covered
    # letters have outlines of their own, so the word is judged by every one of them.
    content = text(54, 340, "Patient: Blackwood") + "1 g 141 330 40 30 re f\n"
    read = read_pdf(Doc([Page(content)]).write(tmp_path / "in.pdf"), ocr=_NoOcr())
    assert [e.text for e in read.document.elements] == ["Patient:"]
    assert read.pages[0].hidden == 1


@pytest.mark.slow  # PP-OCR reads the page, and the burned page again
def test_nothing_of_the_name_or_the_address_stays_readable(tmp_path):
    source = ligature_pdf(tmp_path / "in.pdf")
    outcome = run(source, tmp_path / "out")
    report = outcome.report
    assert report.status is not Status.ERROR, report.error
    written = {p.name: p for p in outcome.written}
    pdf = pdfium.PdfDocument(str(written["redacted.pdf"]))
    try:
        layer = pdf[0].get_textpage().get_text_range()
        burned = render_page(pdf[0])
    finally:
        pdf.close()
    seen = " ".join(e.text for e in open_ocr("ppocr").read(burned))
    for where in (written["redacted.txt"].read_text(), layer, seen):
        lowered = where.casefold()
        assert "rafael" not in lowered and "gri" not in lowered and "example" not in lowered
    assert "Diagnosis" in seen and "fracture" in layer  # the rest is still there
    # What the report says it hid is hidden whole: every pixel of each word's box is black.
    after = np.asarray(burned.convert("L"))
    read = read_pdf(source)
    boxes = [e.box for e in read.document.elements if e.text in ("Rafael", "Griffin", EMAIL)]
    assert len(boxes) == 3
    for box in boxes:
        assert box is not None
        inner = after[int(box.y0) + 1 : int(box.y1) - 1, int(box.x0) + 1 : int(box.x1) - 1]
        assert int(inner.max()) <= 24


def _box(x0: float, x1: float, y0: float = 100, y1: float = 150) -> Box:
    return Box(x0=x0, y0=y0, x1=x1, y1=y1)


@pytest.mark.parametrize(
    ("kept", "value", "boxed", "leaves"),
    [
        # The address boxed from the missing glyph on: its start is a piece left behind.
        (("rafael.gri", _box(100, 330)), EMAIL, ["n@example.com"], True),
        # Any four letters in a row of what no box holds, not only a whole word.
        (("Griff", _box(260, 330)), "Rafael Griffin", ["Rafael"], True),
        # The whole address under its box: a kept name beside it is no piece of it.
        (("Smith", _box(100, 200)), "jane.smith@example.com", ["jane.smith@example.com"], False),
        # A word of the value kept whole is the run's choice (held by the whole-value check).
        (("Smith", _box(260, 330)), "Jane Smith", ["Jane"], False),
        # The name boxed word by word: nothing of it is missing, whatever stands beside.
        (("Smithers", _box(260, 330)), "Jane Smith", ["Jane", "Smith,"], False),
        # Three letters are no piece (initials, syllables).
        (("Gri", _box(280, 330)), "Rafael Griffin", ["Rafael"], False),
        # Far from the box, a piece is another word of the page.
        (("Griffiths", _box(100, 300, 900, 950)), "Rafael Griffin", ["Rafael"], False),
    ],
)
def test_a_piece_of_a_value_beside_its_box(kept, value, boxed, leaves):
    page = [
        Element(index=i, text=word, box=_box(340 + 400 * i, 700 + 400 * i), page=0)
        for i, word in enumerate(boxed)
    ]
    detections = [
        Detection(label="X", source=Source.DETECT, round=1, index=e.index, value=value)
        for e in page
    ]
    (hidden,) = hidden_values(page, detections, 1)
    assert piece_beside([kept], hidden) is leaves


@pytest.mark.slow
def test_the_check_after_writing_refuses_a_piece_left_beside_its_box(tmp_path):
    # The state the reader used to leave: the address read as two words (the ligature
    # judged hidden, OCR's pieces in its place), the detection of the whole address placed
    # on the second one only. The whole-value check passes it ("rafael.gri" is no
    # space-separated piece of the address); the check of pieces beside a box does not.
    from redacto.pdf.output import kept_words, verified_pdf_bytes
    from redacto.pdf.read import PdfPages
    from redacto.pdf.write import PdfVerificationError

    source = ligature_pdf(tmp_path / "in.pdf")
    read = read_pdf(source)
    elements = list(read.document.elements)
    address = next(e for e in elements if e.text == EMAIL)
    assert address.box is not None
    # The address read as two words, as OCR's pieces of it were: only the second is boxed.
    cut = address.box.x0 + 0.4 * address.box.width
    start = Element(
        index=address.index,
        text="rafael.gri",
        box=address.box.model_copy(update={"x1": cut - 12}),
        page=0,
    )
    end = Element(
        index=len(elements),
        text="n@example.com",
        box=address.box.model_copy(update={"x0": cut}),
        page=0,
    )
    elements[address.index] = start
    elements.append(end)
    pages = PdfPages(
        read.path,
        read.dpi,
        read.pages,
        read.document.model_copy(update={"elements": tuple(elements)}),
    )
    detections = [
        Detection(label="EMAIL", source=Source.DETECT, round=1, index=end.index, value=EMAIL)
    ]
    per_page = [[end.box]]
    words = kept_words(pages, detections, per_page)
    with pytest.raises(PdfVerificationError, match="piece of a redacted value"):
        verified_pdf_bytes(pages, per_page, [EMAIL], words, detections)
