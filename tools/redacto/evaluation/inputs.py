"""What a system is given to read: the text, or a page's words from gold or a real OCR.

Every system under test (our pipeline, Presidio) gets its words from here, so in image
mode both read exactly the same words with the same boxes — the comparison is about the
redactor, not about who had the better OCR.

A PDF page (`RenderedPage.pdf_path`, the eval's `--input pdf-text|pdf-scan`) is read by
the product's own `read_pdf` — text layer, OCR, or both — and its boxes are mapped from the
PDF's pixels back onto the page's gold pixels, where the scorer measures them.
"""

from __future__ import annotations

from PIL import Image

from redacto.corpus.schema import RenderedPage
from redacto.document import Box, Element
from redacto.evaluation.results import OcrChoice
from redacto.ocr import OcrEngine


class PageReader:
    """Turns a rendered page into word elements: the gold words, or an OCR engine's.

    For a PDF page, `ocr` is the engine `read_pdf` uses (`gold` is refused: a PDF's words
    are what the product reads from it, never the corpus's).
    """

    def __init__(self, ocr: OcrChoice) -> None:
        self.ocr = ocr
        self._engine: OcrEngine | None = None

    @property
    def name(self) -> str:
        """`gold`, or the OCR engine's own name (engine, version, settings)."""
        if self.ocr == "gold":
            return "gold"
        return self._open().name

    def read(self, page: RenderedPage) -> list[Element]:
        """One element per word in reading order, boxes in pixels of the rendered page."""
        if page.pdf_path is not None:
            return self._read_pdf(page)
        if self.ocr == "gold":
            return [
                Element(index=position, text=word.text, box=word.box)
                for position, word in enumerate(page.words)
            ]
        with Image.open(page.image_path) as image:
            return self._open().read(image.convert("RGB"))

    def _read_pdf(self, page: RenderedPage) -> list[Element]:
        from redacto.pdf import read_pdf

        if self.ocr == "gold":
            raise ValueError("a PDF page is read by an OCR engine (ppocr or tesseract), not gold")
        assert page.pdf_path is not None
        pdf = read_pdf(page.pdf_path, ocr=self._open())
        if len(pdf.pages) != 1:
            raise ValueError(f"{page.pdf_path}: an eval PDF has one page, not {len(pdf.pages)}")
        size, target = pdf.pages[0].size, (page.width, page.height)
        return [
            Element(
                index=element.index,
                text=element.text,
                box=None if element.box is None else map_box(element.box, size, target),
            )
            for element in pdf.document.elements
        ]

    def _open(self) -> OcrEngine:
        if self._engine is None:
            from redacto.ocr import open_ocr

            self._engine = open_ocr(self.ocr)
        return self._engine


def map_box(box: Box, source: tuple[int, int], target: tuple[int, int]) -> Box:
    """`box` in pixels of a `source`-sized picture, moved onto a `target`-sized picture of
    the same page (a plain scale per axis: both show the whole page, y downward)."""
    sx, sy = target[0] / source[0], target[1] / source[1]
    return Box(x0=box.x0 * sx, y0=box.y0 * sy, x1=box.x1 * sx, y1=box.y1 * sy)
