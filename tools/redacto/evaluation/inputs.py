"""What a system is given to read: the text, or a page's words from gold or a real OCR.

Every system under test (our pipeline, Presidio) gets its words from here, so in image
mode both read exactly the same words with the same boxes — the comparison is about the
redactor, not about who had the better OCR.
"""

from __future__ import annotations

from PIL import Image

from redacto.corpus.schema import RenderedPage
from redacto.document import Element
from redacto.evaluation.results import OcrChoice
from redacto.ocr import OcrEngine


class PageReader:
    """Turns a rendered page into word elements: the gold words, or an OCR engine's."""

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
        if self.ocr == "gold":
            return [
                Element(index=position, text=word.text, box=word.box)
                for position, word in enumerate(page.words)
            ]
        with Image.open(page.image_path) as image:
            return self._open().read(image.convert("RGB"))

    def _open(self) -> OcrEngine:
        if self._engine is None:
            from redacto.ocr import open_ocr

            self._engine = open_ocr(self.ocr)
        return self._engine
