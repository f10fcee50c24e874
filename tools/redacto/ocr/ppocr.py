"""`ppocr` — PaddleOCR's PP-OCRv6 models through RapidOCR and ONNX Runtime (the default).

These are the detector and recogniser the phone runs; the `rapidocr` 3.10 wheel ships them
as ONNX files, so nothing is downloaded at run time. PP-OCR finds lines; RapidOCR splits a
recognised line into words and estimates each word's quad from the recogniser's character
positions. Those word boxes are as tall as the line but start a few pixels late, clipping
the first letter, so each is padded sideways by a fraction of the line height
(`PpocrSettings.pad_ratio`, measured in docs/ocr.md) before it is used to redact.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from PIL import Image

from redacto.document import Box, Element
from redacto.engines.base import MissingExtraError
from redacto.host.onnx_telemetry import disable_onnxruntime_telemetry
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
from redacto.ocr.fold import fold_strip, is_strip, strip_long_side


@dataclass(frozen=True)
class PpocrSettings:
    """Knobs of the PP-OCR engine; the defaults are the measured choice (docs/ocr.md).

    `det_max_side`: cap the detector's input at this long side (`Det.limit_side_len` with
    `limit_type=max`). None keeps RapidOCR's own rule (short side at least 736 px), i.e. the
    detector sees the whole working image. 960 roughly halves the time but lost 3-11% of the
    words on phone-framed pages, so it is not the default.
    `max_side`: larger images are downscaled before OCR and boxes mapped back.
    `pad_ratio`: sideways padding of each word box, as a fraction of its line's height
    (raw boxes start or end up to 0.27 line heights short of the ink).
    `min_confidence`: RapidOCR's line score filter (its default).
    """

    det_max_side: int | None = None
    max_side: int = 2000
    pad_ratio: float = 0.3
    min_confidence: float = 0.5


class PpocrEngine(OcrEngine):
    """PP-OCRv6 (small detector + recogniser) on ONNX Runtime, via RapidOCR."""

    def __init__(self, settings: PpocrSettings | None = None) -> None:
        self.settings = settings or PpocrSettings()
        disable_onnxruntime_telemetry()
        try:
            from rapidocr import RapidOCR
        except ImportError as error:
            raise MissingExtraError("ppocr OCR", "ocr", "rapidocr") from error
        params: dict[str, Any] = {
            # The line-orientation classifier flipped long horizontal lines by 180°.
            "Global.use_cls": False,
            "Global.text_score": self.settings.min_confidence,
            "Global.max_side_len": self.settings.max_side,
            "Global.log_level": "error",
        }
        if self.settings.det_max_side is not None:
            params["Det.limit_side_len"] = self.settings.det_max_side
            params["Det.limit_type"] = "max"
        try:
            self._rapidocr = RapidOCR(params=params)
        except Exception as error:
            raise OcrError(f"could not load the PP-OCR models: {type(error).__name__}") from error
        # RapidOCR logs every call, and a blank page as a warning; keep document runs quiet.
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        detector = self.settings.det_max_side or "default"
        self.name = (
            f"ppocr (PP-OCRv6 small det+rec, rapidocr {package_version('rapidocr')}, "
            f"onnxruntime {package_version('onnxruntime')}, det_max_side={detector}, "
            f"max_side={self.settings.max_side}, pad={self.settings.pad_ratio})"
        )

    def read(self, image: Image.Image) -> list[Element]:
        """Words of `image` in reading order, boxes padded and in `image` pixels.

        A strip (far longer than wide, `fold.is_strip`) is read folded into a page-shaped
        mosaic, so the detector's input stays page-sized whatever the image's shape.
        """
        if not is_strip(image.size):
            work, factors = working_copy(image, self.settings.max_side)
            return page_elements(self._read_lines(work), work, factors, image.size)
        work, factors = working_copy(image, strip_long_side(image.size, self.settings.max_side))
        mosaic, fold = fold_strip(work)
        lines = fold.unfold(self._read_lines(mosaic))
        return page_elements(lines, work, factors, image.size)

    def _read_lines(self, work: Image.Image) -> list[OcrLine]:
        try:
            result = self._rapidocr(work, return_word_box=True)
        except Exception as error:
            raise OcrError(f"PP-OCR failed on the image: {type(error).__name__}") from error
        return self._lines(result, work.size)

    def _lines(self, result: Any, size: tuple[int, int]) -> list[OcrLine]:
        boxes, texts = getattr(result, "boxes", None), getattr(result, "txts", None)
        if texts is None and boxes is not None and len(boxes) > 0:
            # Text regions found but none recognised: an empty answer would claim a clean page.
            raise OcrError("PP-OCR found text regions but could not recognise any of them")
        if boxes is None or texts is None or len(texts) == 0:
            return []
        from rapidocr.main import flatten_word_results

        # RapidOCR drops lines without word boxes from `word_results`, so it is not always
        # aligned with `boxes`/`txts`: walk both and accept a word line only when its words
        # spell the line's text. A line without usable word boxes still yields its words
        # (boxes apportioned by character count): text must never vanish from a page.
        word_lines = [flatten_word_results([words]) for words in result.word_results or ()]
        next_word_line = 0
        lines: list[OcrLine] = []
        for corners, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
            line = OcrLine(words=(), corners=tuple((float(x), float(y)) for x, y in corners))
            pad = self.settings.pad_ratio * line.height
            candidate = word_lines[next_word_line] if next_word_line < len(word_lines) else []
            if candidate and _spelled(candidate) == _spelled([(text, 0, None)]):
                next_word_line += 1
                words = tuple(
                    OcrWord(text=word, box=_padded_box(quad, pad, size), confidence=float(conf))
                    for word, conf, quad in candidate
                    if word.strip()
                )
            else:
                words = _apportioned_words(text, float(score), line, pad, size)
            if words:
                lines.append(OcrLine(words=words, corners=line.corners))
        return lines


def _spelled(words: list[tuple[str, Any, Any]]) -> str:
    return "".join("".join(word.split()) for word, _, _ in words)


def _apportioned_words(
    text: str, confidence: float, line: OcrLine, pad: float, size: tuple[int, int]
) -> tuple[OcrWord, ...]:
    """Split a line's box among its words in proportion to their character counts."""
    tokens = text.split()
    if not tokens:
        return ()
    xs = [x for x, _ in line.corners]
    ys = [y for _, y in line.corners]
    left, right = min(xs), max(xs)
    per_char = (right - left) / max(len(text), 1)
    words: list[OcrWord] = []
    cursor = 0
    for token in tokens:
        start = text.index(token, cursor)
        cursor = start + len(token)
        quad = [
            (left + start * per_char, min(ys)),
            (left + cursor * per_char, max(ys)),
        ]
        words.append(OcrWord(text=token, box=_padded_box(quad, pad, size), confidence=confidence))
    return tuple(words)


def _padded_box(quad: Any, pad: float, size: tuple[int, int]) -> Box:
    """The axis-aligned hull of a word quad, widened by `pad` on each side, clipped."""
    xs = [float(point[0]) for point in quad]
    ys = [float(point[1]) for point in quad]
    hull = Box(x0=min(xs), y0=min(ys), x1=max(xs), y1=max(ys))
    return pad_box(hull, pad, 0.0, size)
