"""Text marked with an `ActualText` is not read as it says: the page's OCR reads it.

`/Span << /ActualText (hello world) >> BDC … EMC` around a line makes pdfium read "hello
world" in place of its glyphs, spread over the line's box, whatever the glyphs show: an SSN
drawn there reached no tier, stayed readable in `redacted.pdf`'s pixels, and the run ended
PASS. Such a text object's characters are no words now: the page's OCR reads what the page
shows there, and what no OCR word stands over ends the run NEEDS_REVIEW.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from devtools.fixtures.pdf_builder import Doc, Page, text
from redacto.document import Detector, Element, ImageReading, Status
from redacto.inputs import ReadOptions, RedactOutcome, redact_path
from redacto.ocr import OcrEngine
from redacto.pdf import read_pdf
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.report import ReviewReason
from scripted_models import trusting

SSN = "536-22-8145"


class _NoOcr(OcrEngine):
    name = "none"

    def read(self, image: Image.Image) -> list[Element]:
        return []


def overridden_pdf(path: Path) -> Path:
    content = (
        text(54, 360, "Referral note")
        + "/Span << /ActualText (hello world) >> BDC\n"
        + text(54, 320, f"SSN {SSN}")
        + "EMC\n"
    )
    return Doc([Page(content)]).write(path)


def test_a_line_under_an_actual_text_is_not_read_as_it_says(tmp_path):
    read = read_pdf(overridden_pdf(tmp_path / "in.pdf"), ocr=_NoOcr())
    assert [e.text for e in read.document.elements] == ["Referral", "note"]
    assert read.pages[0].unread > 0  # the characters pdfium reads there


BLIND = {"classify": ["CATEGORY: Medical"], "detect": ["NONE"], "validate": ["PASS"]}
"""A model that names nothing and passes the page: only the rules tier can find a value."""


def redacted(source: Path, out: Path, ocr: str | OcrEngine) -> RedactOutcome:
    return redact_path(
        source,
        out,
        trusting(BLIND),
        prompts=PromptLibrary.load(),
        read=ReadOptions(ocr=ocr),
        options=PipelineOptions(
            image_reading=ImageReading.TEXT, detectors=frozenset({Detector.RULES})
        ),
    )


def test_unread_it_ends_the_run_needs_review(tmp_path):
    outcome = redacted(overridden_pdf(tmp_path / "in.pdf"), tmp_path / "out", _NoOcr())
    report = outcome.report
    assert report.status is Status.NEEDS_REVIEW, report.error
    assert ReviewReason.PDF_TEXT_UNREAD in report.review_reasons


@pytest.mark.slow  # PP-OCR reads the page, and the burned page again
def test_ocr_reads_what_the_page_shows_and_the_rules_box_it(tmp_path):
    outcome = redacted(overridden_pdf(tmp_path / "in.pdf"), tmp_path / "out", "ppocr")
    report = outcome.report
    assert report.status is not Status.ERROR, report.error
    assert ReviewReason.PDF_TEXT_UNREAD not in report.review_reasons
    written = {p.name: p for p in outcome.written}
    redacted_text = written["redacted.txt"].read_text()
    pdf = pdfium.PdfDocument(str(written["redacted.pdf"]))
    try:
        layer = pdf[0].get_textpage().get_text_range()
    finally:
        pdf.close()
    for where in (redacted_text, layer):
        assert SSN not in where and "hello" not in where
    assert "Referral" in layer
