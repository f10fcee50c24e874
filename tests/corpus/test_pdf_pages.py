"""Corpus documents as PDFs: born-digital text lands on the gold boxes, scans carry no text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from test_render import DOCUMENTS  # one document per layout, as the render tests take

from redacto.corpus import CorpusDocument, render_page
from redacto.corpus.pdf_pages import page_points, render_input
from redacto.corpus.render import render_clean
from redacto.corpus.schema import PageInput, RenderedPage
from redacto.document import Box
from redacto.pdf.geometry import PageGeometry
from redacto.pdf.read import PDF_DPI, read_pdf


class NoOcr:
    """An OCR engine that sees nothing: a page's words are then its text layer's alone."""

    name = "none"

    def read(self, image: Image.Image) -> list:
        return []


def covered(gold: Box, box: Box) -> float:
    width = max(0.0, min(gold.x1, box.x1) - max(gold.x0, box.x0))
    height = max(0.0, min(gold.y1, box.y1) - max(gold.y0, box.y0))
    return width * height / gold.area


@pytest.mark.parametrize("pixels", [(1100, 1430), (1082, 1366), (1187, 1511), (1, 1)])
def test_a_page_sized_in_points_renders_to_exactly_its_pixels(pixels) -> None:
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(*page_points(pixels))
    assert PageGeometry.of_page(page, PDF_DPI).pixels == pixels
    pdf.close()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.layout)
def test_a_born_digital_page_holds_every_gold_word_as_text_over_its_ink(
    document: CorpusDocument, tmp_path: Path
) -> None:
    page = render_input(document, PageInput.PDF_TEXT, tmp_path)
    assert page.pdf_path is not None and page.image_path.exists()
    read = read_pdf(page.pdf_path, ocr=NoOcr())
    assert read.pages[0].size == (page.width, page.height)
    words = read.document.elements
    assert sorted(e.text for e in words) == sorted(w.text for w in page.words)
    for gold in page.words:
        best = max(covered(gold.box, e.box) for e in words if e.text == gold.text and e.box)
        assert best == 1.0, gold.text
    # The picture kept for the report is the PDF's own rendering, and shows the words.
    with Image.open(page.image_path) as image:
        assert image.size == (page.width, page.height)
        ink = np.asarray(image.convert("L")) < 128
    first = page.words[0].box
    assert ink[int(first.y0) : int(first.y1) + 1, int(first.x0) : int(first.x1) + 1].any()


def test_the_born_digital_page_is_the_photo_s_flat_page_with_the_same_words(
    tmp_path: Path,
) -> None:
    document = DOCUMENTS[0]
    photo = render_page(document, tmp_path)
    page = render_input(document, PageInput.PDF_TEXT, tmp_path)
    image, placed = render_clean(document)
    assert (page.width, page.height) == image.size
    assert [(w.index, w.text, w.start, w.end) for w in page.words] == [
        (w.index, w.text, w.start, w.end) for w in photo.words
    ]
    assert len(placed) == len(page.words)


def test_a_scanned_page_is_the_photo_alone_without_any_text(tmp_path: Path) -> None:
    document = DOCUMENTS[0]
    photo = render_page(document, tmp_path)
    page = render_input(document, PageInput.PDF_SCAN, tmp_path)
    assert page.model_copy(update={"pdf_path": None}) == photo
    assert page.pdf_path is not None
    pdf = pdfium.PdfDocument(str(page.pdf_path))
    try:
        assert len(pdf) == 1
        pdf_page = pdf[0]
        assert pdf_page.get_textpage().count_chars() == 0
        assert PageGeometry.of_page(pdf_page, PDF_DPI).pixels == (photo.width, photo.height)
        rendered = np.asarray(pdf_page.render(scale=PDF_DPI / 72).to_pil().convert("L"), float)
    finally:
        pdf.close()
    with Image.open(photo.image_path) as image:
        original = np.asarray(image.convert("L"), float)
    # The same JPEG, resampled by pdfium (up to a pixel off): equal at a coarser grain.
    assert np.abs(blocks(rendered) - blocks(original)).mean() < 2.0


def blocks(pixels: np.ndarray, side: int = 16) -> np.ndarray:
    rows, columns = pixels.shape[0] // side, pixels.shape[1] // side
    cut = pixels[: rows * side, : columns * side]
    return cut.reshape(rows, side, columns, side).mean(axis=(1, 3))


def test_pdf_pages_are_cached_and_reread_identically(tmp_path: Path) -> None:
    document = DOCUMENTS[0]
    for page_input in (PageInput.PDF_TEXT, PageInput.PDF_SCAN):
        first = render_input(document, page_input, tmp_path)
        assert first.pdf_path is not None
        stamp = first.pdf_path.stat().st_mtime_ns
        again = render_input(document, page_input, tmp_path)
        assert again == first and again.pdf_path.stat().st_mtime_ns == stamp
    assert isinstance(render_input(document, PageInput.IMAGE, tmp_path), RenderedPage)
    assert render_input(document, PageInput.IMAGE, tmp_path).pdf_path is None
