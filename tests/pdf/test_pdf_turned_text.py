"""Text drawn turned by its text matrix on an upright page (no /Rotate) is read as words.

A margin note or a landscape table set with `0 1 -1 0 x y Tm` runs up the page; pdfium
gives its characters one by one, and grouping them by rows made each a word of its own, so
no tier saw a value. Each note here holds a checksum-valid SSN, an e-mail address and a
full name, turned 90°, 180° and 270° and set at a slant; every tier must read its values
whole, and `redacted.pdf`'s pixels, its text layer and `redacted.txt` must hold none of
them. Text the reader cannot group (45°, letters stacked one under another, a word along a
curve) ends the run NEEDS_REVIEW naming the page.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from devtools.fixtures.pdf_builder import Doc, Page, text
from redacto.document import Detector, Element, ImageReading, Status
from redacto.inputs import ReadOptions, RedactOutcome, redact_path
from redacto.ocr import OcrEngine
from redacto.pdf import read_pdf, render_page
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.report import ReviewReason
from scripted_models import trusting

SSN, EMAIL, NAME = "536-22-8145", "jane.smith@example.com", "Jane Smith"
LINES = (f"SSN {SSN}", f"Mail {EMAIL}", f"Patient {NAME}")
ANGLES = [90, 180, 270, 15, 340]
"""Degrees counter-clockwise: a quarter, upside down, three quarters, and two slants."""


class _NoOcr(OcrEngine):
    name = "none"

    def read(self, image: Image.Image) -> list[Element]:
        return []


def turned(angle: float, x: float, y: float, words: str, size: int = 14) -> str:
    """`words` from (x, y) along a baseline turned `angle` degrees counter-clockwise."""
    a = math.radians(angle)
    cos, sin = round(math.cos(a), 6), round(math.sin(a), 6)
    escaped = words.replace("(", "\\(").replace(")", "\\)")
    return (
        f"BT /F1 {size} Tf 0 0 0 rg {cos} {sin} {-sin} {cos} {x:.2f} {y:.2f} Tm ({escaped}) Tj ET\n"
    )


def note(angle: float, centre: tuple[float, float] = (340, 190), length: float = 200) -> str:
    """`LINES` as a block turned `angle` degrees around `centre`, one line under another."""
    a = math.radians(angle)
    along, down = (math.cos(a), math.sin(a)), (math.sin(a), -math.cos(a))
    content = ""
    for i, line in enumerate(LINES):
        shift = (i - (len(LINES) - 1) / 2) * 22
        x = centre[0] - length / 2 * along[0] + shift * down[0]
        y = centre[1] - length / 2 * along[1] + shift * down[1]
        content += turned(angle, x, y, line)
    return content


def note_pdf(path: Path, angle: float) -> Path:
    return Doc([Page(text(54, 360, "Referral note") + note(angle))]).write(path)


@pytest.mark.parametrize("angle", ANGLES)
def test_a_turned_note_is_read_as_whole_words(tmp_path, angle):
    read = read_pdf(note_pdf(tmp_path / "note.pdf", angle), ocr=_NoOcr())
    words = [e.text for e in read.document.elements]
    assert words[:2] == ["Referral", "note"]
    assert sorted(words[2:]) == sorted(" ".join(LINES).split())
    page = read.pages[0]
    assert page.unread == 0 and page.hidden == 0


ADVANCES = {"S": 9.34, "m": 11.66, "i": 3.11, "t": 3.89, "h": 7.78}
"""Helvetica's advances at 14 pt, for a word drawn a letter at a time."""


def one_by_one(word: str, x: float, y: float) -> str:
    """`word` turned a quarter, each letter its own text object at its own place."""
    out, along = "", 0.0
    for letter in word:
        out += f"BT /F1 14 Tf 0 0 0 rg 0 1 -1 0 {x} {y + along:.2f} Tm ({letter}) Tj ET\n"
        along += ADVANCES[letter]
    return out


def drawn(state: str, show: str) -> str:
    return f"BT /F1 14 Tf 0 0 0 rg {state} {show} ET\n"


READABLE = {
    "29 degrees": turned(29, 150, 100, f"{NAME} {SSN}"),
    "61 degrees": turned(61, 300, 60, f"{NAME} {SSN}"),
    "oblique (a sheared matrix)": drawn("1 0 0.3 1 100 200 Tm", f"({NAME} {SSN}) Tj"),
    "mirrored": drawn("-1 0 0 1 400 200 Tm", f"({NAME} {SSN}) Tj"),
    "letter-spaced": drawn("12 Tc 1 0 0 1 60 200 Tm", f"({NAME}) Tj"),
    "letter-spaced, turned": drawn("12 Tc 0 1 -1 0 300 40 Tm", f"({NAME}) Tj"),
    "kerned, turned": drawn("0 1 -1 0 300 40 Tm", "[(Ja) -100 (ne Sm) 200 (ith)] TJ"),
    "a letter at a time, turned": one_by_one("Smith", 300, 40),
}


@pytest.mark.parametrize("content", READABLE.values(), ids=list(READABLE))
def test_other_ways_of_drawing_a_word_are_read_as_words(tmp_path, content):
    source = Doc([Page(text(54, 360, "Head") + content)]).write(tmp_path / "in.pdf")
    read = read_pdf(source, ocr=_NoOcr())
    words = [e.text for e in read.document.elements][1:]
    assert words and set(words) <= {"Jane", "Smith", SSN} and "Smith" in words
    assert read.pages[0].unread == 0


TIERS = {
    Detector.RULES: (SSN, EMAIL),
    Detector.NER: tuple(NAME.split()),
    Detector.MODEL: (SSN, EMAIL, *NAME.split()),
}
MODEL_REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": [f"SSN: {SSN}\nEMAIL: {EMAIL}\nNAME: {NAME}"],
    "validate": ["PASS"],
}


def redacted_by(
    source: Path, tier: Detector, out: Path, ocr: str | OcrEngine = "ppocr"
) -> RedactOutcome:
    return redact_path(
        source,
        out,
        trusting(MODEL_REPLIES),
        prompts=PromptLibrary.load(),
        read=ReadOptions(ocr=ocr),
        options=PipelineOptions(image_reading=ImageReading.TEXT, detectors=frozenset({tier})),
    )


@pytest.mark.slow  # PP-OCR reads each page
@pytest.mark.parametrize("angle", ANGLES)
@pytest.mark.parametrize("tier", list(TIERS), ids=[t.value for t in TIERS])
def test_each_tier_finds_the_turned_values_and_nothing_of_them_is_left(tmp_path, angle, tier):
    source = note_pdf(tmp_path / "note.pdf", angle)
    outcome = redacted_by(source, tier, tmp_path / "out")
    report = outcome.report
    assert report.status is not Status.ERROR, report.error
    assert ReviewReason.PDF_TEXT_UNREAD not in report.review_reasons
    values = TIERS[tier]
    written = {p.name: p for p in outcome.written}
    redacted_text = written["redacted.txt"].read_text()
    layer = _text_of(written["redacted.pdf"])
    for value in values:
        assert value not in redacted_text
        assert value not in layer
    # Every pixel of each value's words is black in redacted.pdf (its box is the turned
    # word's axis-aligned box, which covers it).
    read = read_pdf(source, ocr=_NoOcr())
    after = _rendered(written["redacted.pdf"])
    boxes = [e.box for e in read.document.elements if e.text in values and e.box is not None]
    assert len(boxes) == len(values)
    for box in boxes:
        inner = after[int(box.y0) + 1 : int(box.y1) - 1, int(box.x0) + 1 : int(box.x1) - 1]
        assert inner.size and int(inner.max()) <= 24


UNGROUPABLE = {
    "at 45 degrees": turned(45, 200, 120, f"{NAME} {SSN}"),
    "at 31 degrees": turned(31, 150, 100, f"{NAME} {SSN}"),
    "letters stacked": "".join(
        f"BT /F1 16 Tf 0 0 0 rg 1 0 0 1 300 {330 - 18 * i} Tm ({c}) Tj ET\n"
        for i, c in enumerate("Smith")
    ),
    "along a curve": "".join(
        turned(
            120 - 4 * i - 90,
            306 + 150 * math.cos(math.radians(120 - 4 * i)),
            40 + 150 * math.sin(math.radians(120 - 4 * i)),
            c,
            size=16,
        )
        for i, c in enumerate("JaneSmith")
    ),
}


@pytest.mark.parametrize("content", UNGROUPABLE.values(), ids=list(UNGROUPABLE))
def test_text_the_reader_cannot_group_is_counted_unread(tmp_path, content):
    source = Doc([Page(text(54, 360, "Referral note") + content)]).write(tmp_path / "in.pdf")
    read = read_pdf(source, ocr=_NoOcr())
    assert [e.text for e in read.document.elements][:2] == ["Referral", "note"]
    assert read.pages[0].unread >= 4


@pytest.mark.parametrize("content", UNGROUPABLE.values(), ids=list(UNGROUPABLE))
def test_a_run_with_text_nobody_read_ends_needs_review_naming_the_page(tmp_path, content):
    # OCR reads nothing here (PP-OCR reads some of these, and then they are read).
    pages = [Page(text(54, 360, "Referral note")), Page(text(54, 360, "Notes") + content)]
    source = Doc(pages).write(tmp_path / "in.pdf")
    outcome = redacted_by(source, Detector.MODEL, tmp_path / "out", ocr=_NoOcr())
    report = outcome.report
    assert report.status is Status.NEEDS_REVIEW, report.error
    assert ReviewReason.PDF_TEXT_UNREAD in report.review_reasons
    assert report.pdf is not None
    assert [p.unread_characters > 0 for p in report.pdf.pages] == [False, True]


def _text_of(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _rendered(path: Path) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()


def test_ocr_over_a_turned_word_is_its_misreading_unless_it_reads_other_words():
    from redacto.document import Box
    from redacto.pdf.read import _merge_words

    stamp = Box(x0=100, y0=100, x1=400, y1=300)  # a slanted word's axis-aligned box
    layer = [("Confidential", stamp)]
    seen = [
        ("Fl", Box(x0=90, y0=120, x1=150, y1=140)),  # two letters: a misreading
        ("Cnfdntl", Box(x0=120, y0=150, x1=300, y1=170)),  # its letters, in order
        ("Oscar", Box(x0=300, y0=250, x1=420, y1=290)),  # text of its own beside it
    ]
    words, _ = _merge_words(layer, seen, [stamp], [stamp])
    assert [text for text, _ in words] == ["Confidential", "Oscar"]
