"""A PDF redacted end to end: real pdfium, real PP-OCR, scripted model answers.

Each trap of `traps.py` has its own test, all on one redaction of `traps.trap_pdf` (run once
per module: OCR of the scanned page is the slow part).
"""

from __future__ import annotations

import json

import numpy as np
import pypdfium2 as pdfium
import pytest
from traps import (
    COVERED,
    HIDDEN,
    NAME,
    NEVER_SHOWN,
    SILENT_REPLIES,
    TRAP_REPLIES,
    WHITE,
    redact_scripted,
    trap_pdf,
)

from cli_runs import digest
from redacto.document import PLACEHOLDER_PATTERN
from redacto.imaging.raster import pixel_bounds
from redacto.pdf import render_page
from redacto.report import ReviewReason, RunReport, Status

pytestmark = pytest.mark.slow  # PP-OCR reads the scanned page


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("traps")
    source = trap_pdf(root / "letter.pdf")
    before = digest(source)
    outcome = redact_scripted(source, TRAP_REPLIES, root / "out")
    return source, before, outcome


@pytest.fixture(scope="module")
def output(run):
    _, _, outcome = run
    path = next(p for p in outcome.written if p.name == "redacted.pdf")
    pdf = pdfium.PdfDocument(str(path))
    yield path, pdf
    pdf.close()


def page_text(page) -> str:
    textpage = page.get_textpage()
    try:
        return textpage.get_text_range()
    finally:
        textpage.close()


def boxes_on(report: RunReport, page: int):
    assert report.pdf is not None
    return report.pdf.pages[page].boxes


def test_a_pdf_run_passes_writes_three_outputs_and_leaves_the_input_alone(run):
    source, before, outcome = run
    assert outcome.report.status is Status.PASS, outcome.report.error
    assert sorted(p.name for p in outcome.written) == [
        "redacted.pdf",
        "redacted.txt",
        "report.json",
    ]
    assert digest(source) == before
    report = RunReport.model_validate_json(outcome.written[-1].read_text(encoding="utf-8"))
    assert report.input is not None and report.input.sha256 == before
    assert report.pdf is not None and report.pdf.verified
    assert [p.source for p in report.pdf.pages] == ["text_layer", "text_layer", "ocr"]
    assert report.ocr is not None and report.ocr.startswith("ppocr")
    assert report.count_shown == len(report.boxes) == sum(len(p.boxes) for p in report.pdf.pages)


def test_the_output_text_is_the_kept_words_and_no_trap_value(run, output):
    _, _, outcome = run
    _, pdf = output
    assert len(pdf) == 3
    report = outcome.report
    assert report.pdf is not None and report.pdf.text_layer
    extracted = " ".join(" ".join(page_text(page).split()) for page in pdf)
    # redacted.txt is every word the pages show, a placeholder where one was redacted
    shown = outcome.written[1].read_text(encoding="utf-8").split()
    kept = [word for word in shown if not PLACEHOLDER_PATTERN.fullmatch(word)]
    assert extracted == " ".join(kept)
    assert "Diagnosis: fracture" in extracted and "Referred by Dr." in extracted
    for value in (*NEVER_SHOWN, NAME, "Alice Marlowe", "Robert Brown"):
        for part in value.split():
            assert part not in extracted


def test_metadata_annotations_form_attachments_javascript_outline_are_gone(output):
    path, pdf = output
    assert not any(pdf.get_metadata_dict(skip_empty=True).values())
    assert pdf.count_attachments() == 0
    assert pdf.get_formtype() == 0
    assert list(pdf.get_toc()) == []
    data = path.read_bytes()
    for key in (b"/Annots", b"/AcroForm", b"/JavaScript", b"/Metadata", b"/Outlines", b"/Info"):
        assert key not in data
    for value in (NAME, HIDDEN, WHITE, COVERED, "Notes about", "Marlowe", "Harbour"):
        assert value.encode() not in data and value.encode("utf-16-be") not in data


def test_each_name_on_each_page_is_burned_black(run, output):
    _, _, outcome = run
    _, pdf = output
    report = outcome.report
    # page 1: Jane, Smith, Alice, Marlowe, Robert; page 2: Brown, 12, Harbour, Road;
    # page 3 (OCR): Jane and Smith as PP-OCR read them off the scan
    assert len(boxes_on(report, 0)) == 5
    assert len(boxes_on(report, 1)) == 4
    assert len(boxes_on(report, 2)) == 2
    for number in range(3):
        pixels = np.asarray(render_page(pdf[number]))
        for box in boxes_on(report, number):
            x0, y0, x1, y1 = pixel_bounds(box, (pixels.shape[1], pixels.shape[0]))
            assert pixels[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1].max() <= 24


def test_a_name_split_across_lines_and_across_pages_is_boxed_in_both_halves(run):
    _, _, outcome = run
    text = (outcome.written[1]).read_text(encoding="utf-8")
    for half in ("Alice", "Marlowe", "Robert", "Brown"):
        assert half not in text
    assert "Referred by Dr." in text and "last week." in text


def test_the_scanned_page_is_read_by_ocr_not_from_its_invisible_layer(run):
    _, _, outcome = run
    report = outcome.report
    assert report.pdf is not None and report.pdf.pages[2].source == "ocr"
    # The invisible layer misspells the name (as scanners' OCR layers do): had it been read,
    # "Jane Smith" could not have been placed on page 3. Its two boxes sit on the scan's words.
    scan_boxes = boxes_on(report, 2)
    assert all(box.x0 >= 150 and 230 <= box.y0 <= 360 for box in scan_boxes)
    page_three = outcome.written[1].read_text(encoding="utf-8").split("Plan: rest")[-1]
    assert "Smith" not in page_three and "Smyth" not in page_three
    assert "Diagnosis fracture" in page_three


def test_what_is_kept_stays_readable_on_the_page(output):
    _, pdf = output
    pixels = np.asarray(render_page(pdf[0]))
    # "Diagnosis: fracture" on page 1 at y=310 pt: its line is not blacked out
    top = int((396 - 310 - 12) * 200 / 72)
    line = pixels[top : top + 30, 150:600]
    assert line.min() < 100 and line.max() > 200  # dark glyphs on a white page


def test_the_report_names_each_box_page(run):
    _, _, outcome = run
    report = json.loads(outcome.written[-1].read_text(encoding="utf-8"))
    pages = report["pdf"]["pages"]
    assert [p["page"] for p in pages] == [0, 1, 2]
    assert all({"width", "height", "boxes", "words"} <= set(p) for p in pages)


def test_a_name_inside_an_image_on_a_born_digital_page_is_burned_black(tmp_path):
    from test_pdf_read import picture_of

    from devtools.fixtures.pdf_builder import Doc, Page, draw_image, text

    page = Page(
        text(54, 340, "Patient: Jane Smith") + draw_image("Stamp", 54, 200, 300, 50),
        images={"Stamp": picture_of("Seen by Oscar Pemberton")},
    )
    source = Doc([page]).write(tmp_path / "stamp.pdf")
    replies = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["NAME: Jane Smith\nNAME: Oscar Pemberton"],
        "validate": ["PASS"],
    }
    outcome = redact_scripted(source, replies, tmp_path / "out")
    report = outcome.report
    assert report.status is Status.PASS
    assert report.pdf is not None and report.pdf.pages[0].source == "text_layer_and_ocr"
    stamp_boxes = [b for b in boxes_on(report, 0) if b.y0 > (396 - 250) * 200 / 72]
    assert len(stamp_boxes) == 2  # Oscar and Pemberton, on the picture
    assert "Pemberton" not in outcome.written[1].read_text(encoding="utf-8")


def test_text_the_pages_do_not_show_is_not_in_redacted_txt_when_the_model_names_nothing(
    tmp_path,
):
    source = trap_pdf(tmp_path / "letter.pdf")
    outcome = redact_scripted(source, SILENT_REPLIES, tmp_path / "out")
    report = outcome.report
    # What the pages show stays readable, so the residual check names the word no dictionary
    # explains (the address's street) and the run cannot pass.
    assert report.status is Status.NEEDS_REVIEW, report.error
    assert report.review_reasons == [ReviewReason.UNEXPLAINED_WORDS]
    assert [word.value for word in report.unexplained] == ["Harbour"]
    assert report.detections == []
    written = {path.name: path.read_text(encoding="utf-8") for path in outcome.written[1:]}
    for value in NEVER_SHOWN:
        for part in value.split():
            assert part not in written["redacted.txt"] and part not in written["report.json"]
    # What the pages show is all there, in the clear: nothing was named.
    for shown in ("Patient: Jane Smith", "Diagnosis: fracture", "Harbour Road", "Plan: rest"):
        assert shown in written["redacted.txt"]
    assert written["redacted.txt"].endswith("Diagnosis fracture")  # the scan, by OCR
    assert report.pdf is not None
    # page 1: white, under the image, under the rectangle (two words each); page 3: its
    # invisible layer (five words) and the layer under the scan (two)
    assert [p.hidden_words for p in report.pdf.pages] == [6, 0, 7]
    assert [p.source for p in report.pdf.pages] == ["text_layer", "text_layer", "ocr"]
