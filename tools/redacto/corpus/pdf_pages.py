"""A corpus document as a one-page PDF, born-digital or scanned, with gold boxes that fit it.

The PDF eval (`redacto eval run --input pdf-text|pdf-scan`) reads these files through the
product's own PDF path (`redacto.pdf.read_pdf`). Each page is sized so that, read at
`PDF_DPI`, it is exactly as many pixels as the picture its gold boxes were measured on:

- **born-digital** (`pdf-text`): the flat page the photo is taken of (`render_clean`), its
  words drawn again as real text with the same TrueType font, size and origin, so each
  glyph lands on its gold ink box (within a pixel). Only words are drawn: the layout's
  rules and field boxes carry no text. `image_path` is pdfium's rendering of the PDF.
- **scanned** (`pdf-scan`): the phone photo (`render_page`'s JPEG, unchanged) as the
  page's only content: no text layer, so the pipeline OCRs it. Its gold boxes are the
  photo's, so a scanned-PDF run differs from an image run with the same OCR only in the
  PDF path (embedding, rendering at `PDF_DPI`, reading).

Files are cached beside the photos, named after the document's render stem.
"""

from __future__ import annotations

import ctypes
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from redacto.corpus.layout import PlacedWord
from redacto.corpus.render import page_stem, render_clean, render_page, write_atomically
from redacto.corpus.schema import CorpusDocument, GoldWord, PageInput, RenderedPage
from redacto.document import Box
from redacto.pdf.read import PDF_DPI

PDF_PAGES_VERSION = 2
"""Part of every cached PDF's name: raise it when the PDFs made here change."""


def page_points(pixels: tuple[int, int], dpi: int = PDF_DPI) -> tuple[float, float]:
    """A page size in points that renders at `dpi` to exactly `pixels`.

    pdfium's size is ceil(points × dpi / 72); a thousandth of a pixel less keeps float
    error from rounding it up to one pixel more.
    """
    width, height = pixels
    return (width - 0.001) * 72 / dpi, (height - 0.001) * 72 / dpi


def render_input(doc: CorpusDocument, page_input: PageInput, cache_dir: Path) -> RenderedPage:
    """The page the eval gives the pipeline for `doc`: the photo, or one of its PDFs."""
    if page_input is PageInput.IMAGE:
        return render_page(doc, cache_dir)
    stem = f"{page_stem(doc)}-{page_input.value}-p{PDF_PAGES_VERSION}"
    pdf_path, words_path = cache_dir / f"{stem}.pdf", cache_dir / f"{stem}.words.json"
    if pdf_path.exists() and words_path.exists():
        return RenderedPage.model_validate_json(words_path.read_text(encoding="utf-8"))
    cache_dir.mkdir(parents=True, exist_ok=True)
    if page_input is PageInput.PDF_SCAN:
        photo = render_page(doc, cache_dir)
        data = scanned_pdf(photo.image_path.read_bytes(), (photo.width, photo.height))
        page = photo.model_copy(update={"pdf_path": pdf_path.resolve()})
    else:
        image, placed = render_clean(doc)
        data = born_digital_pdf(placed, image.size)
        image_path = cache_dir / f"{stem}.png"
        write_atomically(image_path, _picture_of(data))
        page = RenderedPage(
            image_path=image_path.resolve(),
            width=image.width,
            height=image.height,
            words=gold_words(placed),
            pdf_path=pdf_path.resolve(),
        )
    write_atomically(pdf_path, data)
    write_atomically(words_path, page.model_dump_json().encode("utf-8"))
    return page


def gold_words(placed: Sequence[PlacedWord]) -> tuple[GoldWord, ...]:
    """The flat page's words as gold words: same indices and offsets as the photo's."""
    return tuple(
        GoldWord(
            index=index,
            text=word.text,
            box=Box(x0=word.box[0], y0=word.box[1], x1=word.box[2], y1=word.box[3]),
            start=word.start,
            end=word.end,
        )
        for index, word in enumerate(placed)
    )


def born_digital_pdf(placed: Sequence[PlacedWord], pixels: tuple[int, int]) -> bytes:
    """A one-page PDF whose text layer draws each placed word where it was drawn.

    One text object per word. Pixel coordinates (y down, at `PDF_DPI`) become points (y up);
    a word's baseline is its Pillow origin plus the font's ascent. Each TrueType file is
    embedded once.
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    scale = 72 / PDF_DPI
    width, height = page_points(pixels)
    pdf = pdfium.PdfDocument.new()
    fonts: dict[str, Any] = {}
    keep: list[Any] = []  # font bytes must outlive the document that loaded them
    try:
        page = pdf.new_page(width, height)
        for word in placed:
            if word.font is None:
                raise ValueError(f"word {word.text!r} was placed without its font")
            file = word.font.path
            if not isinstance(file, str):  # layout.load_font always opens fonts by name
                raise ValueError(f"word {word.text!r} has a font without a file name")
            font = fonts.get(file)
            if font is None:
                data = Path(file).read_bytes()
                buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
                keep.append(buffer)
                font = pdfium_c.FPDFText_LoadFont(
                    pdf.raw, buffer, len(data), pdfium_c.FPDF_FONT_TRUETYPE, True
                )
                if not font:
                    raise ValueError(f"pdfium cannot load the font {file}")
                fonts[file] = font
            text = pdfium_c.FPDFPageObj_CreateTextObj(pdf.raw, font, word.font.size * scale)
            # A real space after each word, as PDF producers write them: without one,
            # pdfium joins two words whose gap is narrow (a bold "Total due").
            wide = ctypes.create_string_buffer((word.text + " \0").encode("utf-16-le"))
            pdfium_c.FPDFText_SetText(text, ctypes.cast(wide, pdfium_c.FPDF_WIDESTRING))
            x, y = word.origin
            baseline = y + word.font.getmetrics()[0]
            pdfium_c.FPDFPageObj_Transform(text, 1, 0, 0, 1, x * scale, height - baseline * scale)
            pdfium_c.FPDFPage_InsertObject(page.raw, text)
        if not pdfium_c.FPDFPage_GenerateContent(page.raw):
            raise ValueError("pdfium cannot write the page's content")
        page.close()
        return _saved(pdf)
    finally:
        for font in fonts.values():
            pdfium_c.FPDFFont_Close(font)
        pdf.close()


def scanned_pdf(jpeg: bytes, pixels: tuple[int, int]) -> bytes:
    """A one-page PDF whose only content is the JPEG, filling the page (no text layer)."""
    import pypdfium2 as pdfium

    width, height = page_points(pixels)
    pdf = pdfium.PdfDocument.new()
    try:
        page = pdf.new_page(width, height)
        image = pdfium.PdfImage.new(pdf)
        image.load_jpeg(io.BytesIO(jpeg), inline=True)
        image.set_matrix(pdfium.PdfMatrix(width, 0, 0, height, 0, 0))
        page.insert_obj(image)
        page.gen_content()
        page.close()
        return _saved(pdf)
    finally:
        pdf.close()


def _saved(pdf: Any) -> bytes:
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def _picture_of(data: bytes) -> bytes:
    """PNG of the PDF's page at `PDF_DPI`, as the pipeline's reading renders it."""
    import pypdfium2 as pdfium

    from redacto.pdf.read import render_page as render_pdf_page

    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[0]
        try:
            image = render_pdf_page(page)
        finally:
            page.close()
    finally:
        pdf.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
