"""One OCR engine shared by every photo and PDF a `Redactor` reads, opened at its first read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from redacto.ocr import OcrEngine

if TYPE_CHECKING:
    from PIL import Image

    from redacto.document import Element


class SharedOcr(OcrEngine):
    """The OCR engine `choice` names (or `choice` itself, already open), opened at the first
    page it reads and kept for every later one.

    Opening at the first read, not before, keeps the order a run from a file has: a photo
    or PDF that cannot be decoded is bad input before any OCR is loaded, and a text never
    loads OCR at all. `opens` counts the engines this opened (0 or 1).
    """

    def __init__(self, choice: str | OcrEngine) -> None:
        self._engine = None if isinstance(choice, str) else choice
        self._choice = choice if isinstance(choice, str) else choice.name
        self.name = self._choice if self._engine is None else self._engine.name
        self.opens = 0

    def read(self, image: Image.Image) -> list[Element]:
        """The page's words, read by the shared engine (opened now if it is not yet)."""
        if self._engine is None:
            from redacto.ocr import open_ocr

            self._engine = open_ocr(self._choice)
            self.opens += 1
            self.name = self._engine.name  # the engine's version and settings, as reports say
        return self._engine.read(image)
