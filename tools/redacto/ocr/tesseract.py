"""`tesseract` — Tesseract 5 (Debian `tesseract-ocr`, `tesseract-ocr-eng`) through pytesseract.

The second engine: tight word boxes and about 1.6 CPU-seconds a page, but only with
`OMP_THREAD_LIMIT=1` for the tesseract process — its OpenMP threads fight each other on a
small machine and the same page takes 8.7 s without it. Tesseract's block, paragraph and
line numbers group words into lines; the rows are then ordered by the same rule as every
engine (`redacto.ocr.base.order_lines`) so both engines feed the pipeline the same order.
"""

from __future__ import annotations

import os
import statistics
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

from redacto.document import Box, Element
from redacto.engines.base import MissingExtraError
from redacto.ocr.base import (
    OcrEngine,
    OcrError,
    OcrLine,
    OcrWord,
    package_version,
    pad_box,
    page_elements,
    working_copy,
)

_ENV_LOCK = threading.Lock()
_WORD_LEVEL = 5


@dataclass(frozen=True)
class TesseractSettings:
    """Knobs of the Tesseract engine; defaults are the measured choice (docs/ocr.md).

    `min_confidence` defaults to keeping every non-empty word: for a redactor a doubtful
    word is still text that may need a box. `pad_x_ratio` and `pad_y_ratio` widen each box
    by that share of its line's height sideways and up/down: Tesseract's boxes are tight, leave
    out trailing punctuation (up to ~0.25 of the line height) and sometimes a descender
    (up to ~0.2). `timeout_s` bounds one page.
    """

    language: str = "eng"
    page_segmentation_mode: int = 3
    max_side: int = 2500
    min_confidence: float = 0.0
    pad_x_ratio: float = 0.3
    pad_y_ratio: float = 0.2
    timeout_s: float = 120.0


class TesseractEngine(OcrEngine):
    """Tesseract 5 LSTM, one word element per `image_to_data` word row."""

    def __init__(self, settings: TesseractSettings | None = None) -> None:
        self.settings = settings or TesseractSettings()
        try:
            import pytesseract
        except ImportError as error:
            raise MissingExtraError("tesseract OCR", "ocr", "pytesseract") from error
        self._pytesseract = pytesseract
        try:
            version = pytesseract.get_tesseract_version()
            languages = pytesseract.get_languages(config="")
        except (pytesseract.TesseractNotFoundError, OSError) as error:
            raise OcrError(
                "the tesseract OCR engine needs the tesseract program: "
                "install Debian tesseract-ocr and tesseract-ocr-eng "
                "(sudo apt-get install tesseract-ocr tesseract-ocr-eng)"
            ) from error
        if self.settings.language not in languages:
            raise OcrError(
                f"tesseract has no '{self.settings.language}' language data: "
                f"install Debian tesseract-ocr-{self.settings.language}"
            )
        self.name = (
            f"tesseract ({version}, pytesseract {package_version('pytesseract')}, "
            f"lang={self.settings.language}, psm={self.settings.page_segmentation_mode}, "
            f"max_side={self.settings.max_side}, pad={self.settings.pad_x_ratio}/"
            f"{self.settings.pad_y_ratio})"
        )

    def read(self, image: Image.Image) -> list[Element]:
        """Words of `image` in reading order, boxes in `image` pixels."""
        work, factors = working_copy(image, self.settings.max_side)
        pytesseract = self._pytesseract
        try:
            with _single_omp_thread():
                data = pytesseract.image_to_data(
                    work,
                    lang=self.settings.language,
                    config=f"--psm {self.settings.page_segmentation_mode}",
                    output_type=pytesseract.Output.DICT,
                    timeout=self.settings.timeout_s,
                )
        except RuntimeError as error:  # pytesseract raises RuntimeError on its timeout
            raise OcrError(f"tesseract did not finish: {type(error).__name__}") from error
        except pytesseract.TesseractError as error:
            raise OcrError(f"tesseract failed with exit status {error.status}") from error
        return page_elements(self._lines(data, work.size), work, factors, image.size)

    def _lines(self, data: dict[str, list[Any]], size: tuple[int, int]) -> list[OcrLine]:
        grouped: dict[tuple[int, int, int], list[OcrWord]] = {}
        for row in range(len(data["text"])):
            text = str(data["text"][row]).strip()
            confidence = float(data["conf"][row])
            if int(data["level"][row]) != _WORD_LEVEL or not text:
                continue
            if confidence < self.settings.min_confidence:
                continue
            left, top = float(data["left"][row]), float(data["top"][row])
            box = Box(
                x0=left,
                y0=top,
                x1=left + float(data["width"][row]),
                y1=top + float(data["height"][row]),
            )
            key = (
                int(data["block_num"][row]),
                int(data["par_num"][row]),
                int(data["line_num"][row]),
            )
            grouped.setdefault(key, []).append(
                OcrWord(text=text, box=box, confidence=confidence / 100)
            )
        return [line_through(self._padded(words, size)) for words in grouped.values()]

    def _padded(self, words: list[OcrWord], size: tuple[int, int]) -> list[OcrWord]:
        """Widen every word by a share of its line's height (a short word's own box is
        shorter than the ascenders and descenders around it)."""
        line_height = max(word.box.height for word in words)
        pad_x = self.settings.pad_x_ratio * line_height
        pad_y = self.settings.pad_y_ratio * line_height
        return [
            OcrWord(
                text=word.text,
                box=pad_box(word.box, pad_x, pad_y, size),
                confidence=word.confidence,
            )
            for word in words
        ]


def line_through(words: list[OcrWord]) -> OcrLine:
    """A line outline that follows its words' slope, so tilted photos order correctly."""
    words = sorted(words, key=lambda word: word.box.x0)
    centers_x = [(word.box.x0 + word.box.x1) / 2 for word in words]
    centers_y = [(word.box.y0 + word.box.y1) / 2 for word in words]
    half_height = statistics.median(word.box.height for word in words) / 2
    slope = 0.0
    if len(words) >= 2 and max(centers_x) > min(centers_x):
        slope = statistics.linear_regression(centers_x, centers_y).slope
    mean_x, mean_y = statistics.fmean(centers_x), statistics.fmean(centers_y)
    left, right = words[0].box.x0, max(word.box.x1 for word in words)

    def center_at(x: float) -> float:
        return mean_y + slope * (x - mean_x)

    corners = (
        (left, center_at(left) - half_height),
        (right, center_at(right) - half_height),
        (right, center_at(right) + half_height),
        (left, center_at(left) + half_height),
    )
    return OcrLine(words=tuple(words), corners=corners)


@contextmanager
def _single_omp_thread() -> Iterator[None]:
    """Run the tesseract child with OMP_THREAD_LIMIT=1 (pytesseract passes os.environ)."""
    with _ENV_LOCK:
        previous = os.environ.get("OMP_THREAD_LIMIT")
        os.environ["OMP_THREAD_LIMIT"] = "1"
        try:
            yield
        finally:
            if previous is None:
                del os.environ["OMP_THREAD_LIMIT"]
            else:
                os.environ["OMP_THREAD_LIMIT"] = previous
