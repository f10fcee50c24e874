"""`redacto.Redactor` on a photo and a PDF, read by the real default OCR (PP-OCR): burned
boxes, bytes in memory, the input untouched, and one OCR engine for every page."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from cli_runs import all_files, render_short_page
from disk_watch import DiskWatch, watch_disk
from redacto import Redactor, Status
from redacto.inputs.image import photo_pdf_bytes
from scripted_models import trusting

# The short page's words as PP-OCR reads them: 0 Patient: 1 Jane 2 Smith 3 Email 4 jane.doe@…
REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["1:NAME\n2:NAME"], "validate": ["PASS"]}


def engine(runs: int):
    """A trusting scripted model answering `runs` runs of the short page alike."""
    return trusting({step: answers * runs for step, answers in REPLIES.items()})


def assert_burned(result) -> None:
    """Every box black in the redacted PNG, rules' hits and the model's names among them."""
    assert result.status in (Status.PASS, Status.NEEDS_REVIEW), result.error
    assert result.report.ocr.startswith("ppocr")
    labels = {(d.label, d.source.value) for d in result.detections}
    assert {("EMAIL", "rule"), ("PHONE", "rule")} <= labels
    assert "NAME" in {label for label, _ in labels}
    assert result.boxes and result.report.count_shown == len(result.boxes)


@pytest.mark.slow
def test_a_photo_by_path_and_by_bytes_is_burned_in_memory(tmp_path, monkeypatch):
    page = render_short_page(tmp_path / "page.png")
    before = all_files(tmp_path)
    scratch = watch_disk(tmp_path, monkeypatch)
    with Redactor(engine(2)) as redactor:
        DiskWatch.on = True
        try:
            by_path = redactor.redact_image(page)
            by_bytes = redactor.redact_image(page.read_bytes(), name="upload.png")
        finally:
            DiskWatch.on = False
        assert redactor.ocr.opens == 1
    assert DiskWatch.seen == [] and list(scratch.iterdir()) == []
    assert {p: d for p, d in all_files(tmp_path).items() if scratch not in p.parents} == before
    for result in (by_path, by_bytes):
        assert_burned(result)
        assert result.text is not None and "[EMAIL_1]" in result.text
        assert result.pdf is None and result.image is not None
        with Image.open(io.BytesIO(result.image)) as burned:
            assert burned.format == "PNG" and burned.size == (1100, 150)
            assert not burned.getexif()
            rgb = burned.convert("RGB")
            for box in result.boxes:
                centre = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
                assert rgb.getpixel(centre) == (0, 0, 0)
    assert by_bytes.report.input is not None and by_bytes.report.input.name == "upload.png"
    assert by_path.image == by_bytes.image


@pytest.mark.slow
def test_a_scanned_pdf_is_read_by_the_same_ocr_and_comes_back_verified(tmp_path):
    with Image.open(render_short_page(tmp_path / "page.png")) as image:
        scan = tmp_path / "scan.pdf"
        scan.write_bytes(photo_pdf_bytes(image))
    before = all_files(tmp_path)
    with Redactor(engine(2), text_layer=False) as redactor:
        from_file = redactor.redact_pdf(scan)
        from_bytes = redactor.redact(scan)  # by suffix, the same run
        assert redactor.ocr.opens == 1
    assert all_files(tmp_path) == before
    for result in (from_file, from_bytes):
        assert result.status in (Status.PASS, Status.NEEDS_REVIEW), result.error
        assert result.image is None and result.pdf is not None
        assert result.pdf.startswith(b"%PDF") and result.report.pdf is not None
        assert result.report.pdf.verified
        assert {"EMAIL", "PHONE"} <= {d.label for d in result.detections}
        pdf = pdfium.PdfDocument(result.pdf)
        assert len(pdf) == 1 and pdf[0].get_textpage().count_chars() == 0
        pdf.close()


@pytest.mark.slow
def test_a_text_and_a_photo_share_one_redactor_and_a_text_loads_no_ocr(tmp_path):
    page = render_short_page(tmp_path / "page.png")
    replies = {
        "classify": ["CATEGORY: Medical", "CATEGORY: Medical"],
        "detect": ["NAME: Jane Smith", "1:NAME\n2:NAME"],
        "redact": ["Patient: [NAME_1]"],
        "validate": ["PASS", "PASS"],
    }
    with Redactor(trusting(replies), detectors="rules,model") as redactor:
        text = redactor.redact_text("Patient: Jane Smith")
        assert redactor.ocr.opens == 0
        photo = redactor.redact_image(page)
        assert redactor.ocr.opens == 1
    assert text.text == "Patient: [NAME_1]" and text.status is Status.PASS
    assert photo.image is not None and photo.status is not Status.ERROR


def test_a_photo_whose_ocr_cannot_start_is_an_error_result(tmp_path, monkeypatch):
    import redacto.ocr
    from redacto.ocr import OcrError

    def broken(name: str):
        raise OcrError("the PP-OCR models could not be loaded")

    monkeypatch.setattr(redacto.ocr, "open_ocr", broken)
    page = render_short_page(tmp_path / "page.png")
    with Redactor(engine(1), detectors="rules,model") as redactor:
        result = redactor.redact_image(Path(page))
    assert result.status is Status.ERROR and result.image is None and result.text is None
    assert result.error is not None and "could not be loaded" in result.error
