"""The check after writing fails closed on every kind of leftover it looks for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pdf_builder import Doc, Page, text

from redacto.document import Box
from redacto.pdf import PdfVerificationError, read_pdf, verify_redacted_pdf, write_redacted_pdf
from redacto.pdf.geometry import PageGeometry

NAME_BOX = Box(x0=200, y0=220, x1=540, y1=280)


def rebuilt(tmp_path: Path, boxes: list[list[Box]]) -> tuple[Path, list[PageGeometry]]:
    source = Doc(
        [Page(text(54, 340, "Patient: Jane Smith")), Page(text(54, 340, "Plan: rest"))]
    ).write(tmp_path / "in.pdf")
    pages = [page.geometry for page in read_pdf(source).pages]
    target = tmp_path / "out.pdf"
    write_redacted_pdf(source, boxes, target, pages=pages)
    return target, pages


def test_a_rebuilt_pdf_with_its_boxes_burned_passes(tmp_path):
    target, pages = rebuilt(tmp_path, [[NAME_BOX], []])
    verify_redacted_pdf(target, [[NAME_BOX], []], pages=pages, values=["Jane", "Smith"])


def test_a_box_that_was_not_burned_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[], []])
    with pytest.raises(PdfVerificationError, match="page 1: box 1 is not black"):
        verify_redacted_pdf(target, [[NAME_BOX], []], pages=pages, values=[])


def test_a_pdf_with_a_text_layer_and_metadata_fails(tmp_path):
    source = Doc([Page(text(54, 340, "Patient: Jane Smith"))], info_author="Jane Smith").write(
        tmp_path / "in.pdf"
    )
    pages = [page.geometry for page in read_pdf(source).pages]
    with pytest.raises(PdfVerificationError, match="holds strings"):
        verify_redacted_pdf(source, [[]], pages=pages, values=["Jane Smith"])


def test_a_page_count_that_differs_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[NAME_BOX], []])
    with pytest.raises(PdfVerificationError, match="2 pages, not 3"):
        verify_redacted_pdf(target, [[], [], []], pages=[*pages, pages[0]], values=[])


def test_a_long_value_in_the_pixel_streams_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[], []])
    drawing = re.search(rb"q [^\n]* cm /Im0 Do Q", target.read_bytes())  # a content stream
    assert drawing is not None
    with pytest.raises(PdfVerificationError, match="a redacted value occurs"):
        verify_redacted_pdf(target, [[], []], pages=pages, values=[drawing.group().decode()])


def test_a_file_that_is_not_a_pdf_fails(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_bytes(b"not a pdf")
    with pytest.raises(PdfVerificationError, match="cannot be opened"):
        verify_redacted_pdf(target, [[]], pages=[PageGeometry(1, 1)], values=[])
