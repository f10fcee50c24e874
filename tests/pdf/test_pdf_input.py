"""`PdfInput` (`redacto.inputs.pdf`): a PDF's `redacted.pdf` is built and checked in memory
by `redact`, so its report is final (ERROR included) before `write` runs, and `write` is
the only step that touches the output folder. `InkOcr` stands in for OCR."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

from devtools.fixtures.pdf_builder import Doc
from page_shapes import SHAPES, InkOcr
from redacto.document import Status
from redacto.inputs import PdfInput, redact, write
from redacto.pdf import PdfVerificationError, read_pdf
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

A4 = next(shape for shape in SHAPES if shape.name == "a4")
REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["1:NAME\n2:NAME"], "validate": ["PASS"]}
NO_RULES = PipelineOptions(rules=False)


def a4_input(tmp_path) -> PdfInput:
    path = Doc([A4.page(scanned=False)]).write(tmp_path / "a4.pdf")
    return PdfInput(path, read_pdf(path, ocr=InkOcr()))


def test_the_pdf_is_made_and_verified_in_memory(tmp_path, monkeypatch):
    source = a4_input(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    with monkeypatch.context() as patch:
        for name, module in (("mkstemp", tempfile), ("replace", os)):
            patch.setattr(module, name, _refuse)
        redaction = redact(source, trusting(REPLIES), PromptLibrary.load(), options=NO_RULES)
    assert sorted(tmp_path.rglob("*")) == before
    assert redaction.report.status is Status.PASS
    assert redaction.report.pdf is not None and redaction.report.pdf.verified
    (file,) = redaction.files
    assert file.name == "redacted.pdf"
    pdf = pdfium.PdfDocument(file.data)
    try:
        assert len(pdf) == 1 and pdf[0].get_size() == (595, 842)
    finally:
        pdf.close()

    outcome = write(redaction, tmp_path / "out")
    assert [p.name for p in outcome.written] == ["redacted.pdf", "redacted.txt", "report.json"]
    assert (tmp_path / "out" / "redacted.pdf").read_bytes() == file.data


def test_a_failed_check_is_error_before_anything_is_written(tmp_path, monkeypatch):
    def failing(*args, **kwargs):
        raise PdfVerificationError("page 1: box 1 is not black")

    monkeypatch.setattr("redacto.pdf.output.verified_pdf_bytes", failing)
    source = a4_input(tmp_path)
    redaction = redact(source, trusting(REPLIES), PromptLibrary.load(), options=NO_RULES)
    assert redaction.report.status is Status.ERROR and redaction.files == ()
    assert "failed its check after writing" in (redaction.report.error or "")
    assert redaction.report.pdf is not None and not redaction.report.pdf.verified
    out = tmp_path / "out"
    out.mkdir()
    (out / "redacted.pdf").write_bytes(b"an earlier run's")
    write(redaction, out)
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]


def _refuse(*args, **kwargs):
    raise AssertionError("redact touched the file system")


def test_a_pdf_read_from_memory_gives_the_same_pdf_as_its_file(tmp_path):
    path = Doc([A4.page(scanned=False)]).write(tmp_path / "a4.pdf")
    data = path.read_bytes()
    from_memory = PdfInput(Path("a4.pdf"), read_pdf(Path("a4.pdf"), ocr=InkOcr(), data=data))
    from_file = a4_input(tmp_path)
    assert from_memory.info == from_file.info
    assert from_memory.document == from_file.document
    made = [
        redact(source, trusting(REPLIES), PromptLibrary.load(), options=NO_RULES)
        for source in (from_memory, from_file)
    ]
    # The PDF and the text byte for byte; the reports differ only in their timings.
    assert made[0].files_as_written()[:-1] == made[1].files_as_written()[:-1]
    assert made[0].report.pdf == made[1].report.pdf
    assert made[0].report.input == made[1].report.input


def test_a_pdfs_pages_are_its_own_rendered_at_the_dpi_it_was_read_at(tmp_path):
    path = Doc([A4.page(scanned=False), A4.page(scanned=False)]).write(tmp_path / "two.pdf")
    data = path.read_bytes()
    from_memory = PdfInput(Path("two.pdf"), read_pdf(Path("two.pdf"), ocr=InkOcr(), data=data))
    for source in (PdfInput(path, read_pdf(path, ocr=InkOcr())), from_memory):
        assert source.page_pdf() == data  # the file's own bytes, or the upload's
        assert source.points_per_pixel() == [72 / source.pages.dpi] * 2
        pixels = [page.geometry.pixels for page in source.pages.pages]
        assert [picture.size for picture in source.page_pictures()] == pixels
        assert pixels[0] == (round(595 * source.pages.dpi / 72), round(842 * source.pages.dpi / 72))
