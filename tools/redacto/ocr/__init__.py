"""OCR engines behind one interface, chosen by name: `ppocr` (default) or `tesseract`.

`open_ocr(name).read(image)` returns one `Element` per word, in reading order, with boxes
in pixels of the image it was given. The registry is explicit and each factory imports
its SDK lazily, so `import redacto.ocr` costs nothing until an engine is opened.
"""

from __future__ import annotations

from collections.abc import Callable

from redacto.ocr.base import OcrEngine, OcrError

__all__ = [
    "DEFAULT_OCR",
    "OcrEngine",
    "OcrError",
    "known_ocr_engines",
    "open_ocr",
    "register_ocr",
]

DEFAULT_OCR = "ppocr"

OcrFactory = Callable[[], OcrEngine]

_REGISTRY: dict[str, OcrFactory] = {}


def register_ocr(name: str, factory: OcrFactory) -> None:
    """Make `open_ocr(name)` build engines with `factory`."""
    _REGISTRY[name] = factory


def known_ocr_engines() -> list[str]:
    """The names `open_ocr` accepts, for CLI choices and error messages."""
    return sorted(_REGISTRY)


def open_ocr(name: str = DEFAULT_OCR) -> OcrEngine:
    """Open an OCR engine by name; raises `OcrError` (or `MissingExtraError`) if it cannot run."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise OcrError(f"unknown OCR engine {name!r}; known: {', '.join(known_ocr_engines())}")
    return factory()


def _ppocr() -> OcrEngine:
    from redacto.ocr.ppocr import PpocrEngine

    return PpocrEngine()


def _tesseract() -> OcrEngine:
    from redacto.ocr.tesseract import TesseractEngine

    return TesseractEngine()


register_ocr("ppocr", _ppocr)
register_ocr("tesseract", _tesseract)
