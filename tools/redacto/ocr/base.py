"""The OCR interface and the geometry every engine shares: lines, reading order, scaling.

An engine turns a decoded RGB image into word elements (`redacto.document.Element`): one
per word, boxes in pixels of the image it was given, indices in reading order from 0.
Engines differ only in how they find lines and words; ordering them is done here, once,
so the pipeline sees the same order whichever engine read the page.
"""

from __future__ import annotations

import math
import statistics
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from itertools import pairwise

import numpy as np
from PIL import Image

from redacto.document import Box, Element
from redacto.engines.base import EngineError

# Lines flatter than this (width/height) are too short to say which way the page is tilted.
_MIN_ASPECT_FOR_SKEW = 3.0
# A tilt beyond this is not a slightly rotated photo; ordering then falls back to axis-aligned.
_MAX_SKEW_DEGREES = 15.0


class OcrError(EngineError):
    """OCR could not run: the engine is missing, failed, or returned something unusable."""


@dataclass(frozen=True)
class OcrWord:
    """A recognised word inside a line, box in pixels of the image OCR ran on."""

    text: str
    box: Box
    confidence: float


@dataclass(frozen=True)
class OcrLine:
    """A text line: its words in left-to-right order and its outline as 4 corner points.

    The corners (top-left, top-right, bottom-right, bottom-left) carry the line's tilt,
    which is what lets reading order cope with a slightly rotated photo.
    """

    words: tuple[OcrWord, ...]
    corners: tuple[tuple[float, float], ...]

    @property
    def height(self) -> float:
        (x0, y0), _, _, (x3, y3) = self.corners
        return math.hypot(x3 - x0, y3 - y0)

    @property
    def width(self) -> float:
        (x0, y0), (x1, y1), _, _ = self.corners
        return math.hypot(x1 - x0, y1 - y0)

    @property
    def center(self) -> tuple[float, float]:
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        return sum(xs) / 4, sum(ys) / 4

    def top_edge_angle(self) -> float:
        (x0, y0), (x1, y1), _, _ = self.corners
        return math.atan2(y1 - y0, x1 - x0)


class OcrEngine(ABC):
    """Reads the words of a page image. `name` identifies the engine, version and settings."""

    name: str

    @abstractmethod
    def read(self, image: Image.Image) -> list[Element]:
        """One element per word, in reading order (index 0..n-1), boxes in `image` pixels."""


def corners_of_box(box: Box) -> tuple[tuple[float, float], ...]:
    """The four corners of an axis-aligned box, clockwise from top-left."""
    return ((box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1))


def page_skew(lines: Sequence[OcrLine]) -> float:
    """The page's tilt in radians: the median slope of its long lines (0 if none)."""
    angles = [
        line.top_edge_angle()
        for line in lines
        if line.height > 0 and line.width / line.height >= _MIN_ASPECT_FOR_SKEW
    ]
    if not angles:
        return 0.0
    skew = statistics.median(angles)
    return skew if abs(math.degrees(skew)) <= _MAX_SKEW_DEGREES else 0.0


def order_lines(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """Sort lines into rows top to bottom, and each row left to right.

    Coordinates are first rotated by the page's tilt, so on a photo taken a few degrees off
    the right-hand end of a line is not read as the row above. Two lines share a row when
    their (de-skewed) vertical centres are closer than half the smaller line height: the
    label and the value of a form field stay side by side.
    """
    if not lines:
        return []
    skew = page_skew(lines)
    cos, sin = math.cos(-skew), math.sin(-skew)

    def upright(line: OcrLine) -> tuple[float, float]:
        x, y = line.center
        return x * cos - y * sin, x * sin + y * cos

    placed = sorted(((upright(line), line) for line in lines), key=lambda item: item[0][1])
    rows: list[list[tuple[tuple[float, float], OcrLine]]] = []
    for item in placed:
        (_, y), line = item
        if rows:
            row = rows[-1]
            row_y = statistics.fmean(center[1] for center, _ in row)
            row_height = min(other.height for _, other in row)
            if abs(y - row_y) < 0.5 * min(row_height, line.height):
                row.append(item)
                continue
        rows.append([item])
    return [line for row in rows for _, line in sorted(row, key=lambda item: item[0][0])]


def elements_from_lines(lines: Sequence[OcrLine]) -> list[Element]:
    """Number the words of ordered lines 0..n-1 as page-0 elements."""
    words = [word for line in lines for word in line.words]
    return [
        Element(index=index, text=word.text, box=word.box, page=0)
        for index, word in enumerate(words)
    ]


def pad_box(box: Box, pad_x: float, pad_y: float, limit: tuple[int, int]) -> Box:
    """`box` widened by `pad_x` on each side and `pad_y` above and below, clipped to the image."""
    width, height = limit
    return Box(
        x0=max(box.x0 - pad_x, 0.0),
        y0=max(box.y0 - pad_y, 0.0),
        x1=min(box.x1 + pad_x, float(width)),
        y1=min(box.y1 + pad_y, float(height)),
    )


def scale_box(box: Box, factors: tuple[float, float], limit: tuple[int, int]) -> Box:
    """Map a box from a resized working image back to the original, clipped to it."""
    fx, fy = factors
    width, height = limit
    return Box(
        x0=min(max(box.x0 * fx, 0.0), width),
        y0=min(max(box.y0 * fy, 0.0), height),
        x1=min(max(box.x1 * fx, 0.0), width),
        y1=min(max(box.y1 * fy, 0.0), height),
    )


def ink_mask(image: Image.Image) -> np.ndarray:
    """Dark pixels of a page (Otsu's threshold on its grey levels), as a boolean array."""
    gray = np.asarray(image.convert("L"))
    histogram = np.bincount(gray.ravel(), minlength=256).astype(np.float64)
    levels = np.arange(256, dtype=np.float64)
    weight_dark = np.cumsum(histogram)
    weight_light = weight_dark[-1] - weight_dark
    sum_dark = np.cumsum(histogram * levels)
    mean_dark = sum_dark / np.maximum(weight_dark, 1)
    mean_light = (sum_dark[-1] - sum_dark) / np.maximum(weight_light, 1)
    between = weight_dark * weight_light * (mean_dark - mean_light) ** 2
    return gray <= int(np.argmax(between))


def word_gaps(line: OcrLine, ink: np.ndarray) -> list[tuple[float, float]]:
    """Each word's horizontal limits: the middle of the blank gap to either neighbour.

    Padding widens a word box into the space beside it, and growing to ink would then take
    in the neighbour's first letter (an e-mail box covering the `t` of "to", a value box
    eating its label's colon). Between two words of a line the cut is the middle of the
    widest ink-free column run between their centres (nearest the middle of the two boxes
    on a tie); where the glyphs touch, the middle between the two boxes.
    """
    cuts = [_gap_cut(left, right, ink) for left, right in pairwise(line.words)]
    return list(zip([0.0, *cuts], [*cuts, float(ink.shape[1])], strict=True))


def _gap_cut(left: OcrWord, right: OcrWord, ink: np.ndarray) -> float:
    """Where the space between two neighbouring words of a line is cut (see `word_gaps`)."""
    height, width = ink.shape
    start = max(math.floor((left.box.x0 + left.box.x1) / 2), 0)
    end = min(math.ceil((right.box.x0 + right.box.x1) / 2), width)
    top = max(math.floor(min(left.box.y0, right.box.y0)), 0)
    bottom = min(math.ceil(max(left.box.y1, right.box.y1)), height)
    middle = (left.box.x1 + right.box.x0) / 2
    if end <= start or bottom <= top:
        return middle
    runs = _runs(np.logical_not(ink[top:bottom, start:end].any(axis=0)))
    if not runs:
        return middle
    run_start, run_end = max(
        runs,
        key=lambda run: (run[1] - run[0], -abs(start + (run[0] + run[1]) / 2 - middle)),
    )
    return start + (run_start + run_end) / 2


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True in a boolean row."""
    padded = np.concatenate(([False], flags, [False]))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True))


def grow_to_ink(
    line: OcrLine, ink: np.ndarray, reach_x: float = 0.5, reach_y: float = 0.35
) -> OcrLine:
    """Widen each word box while ink crosses its edge, by at most `reach` line heights.

    OCR boxes sometimes stop short of a word's own ink — a descender, a trailing period, a
    currency sign read as part of the gap. Whatever dark pixels touch the box edge are taken
    in, so redaction blacks out the whole word; the reach bounds how far a table rule or
    noise can drag a box, and sideways a box never passes the gap to its neighbour
    (`word_gaps`), so it covers its own word's ink and none of the next word's.
    """
    height, width = ink.shape
    margin_x = math.ceil(reach_x * line.height)
    margin_y = math.ceil(reach_y * line.height)
    grown = []
    for word, (left_limit, right_limit) in zip(line.words, word_gaps(line, ink), strict=True):
        own = Box(
            x0=max(word.box.x0, left_limit),
            y0=word.box.y0,
            x1=max(min(word.box.x1, right_limit), max(word.box.x0, left_limit)),
            y1=word.box.y1,
        )
        x0, y0 = max(math.floor(own.x0), 0), max(math.floor(own.y0), 0)
        x1, y1 = min(math.ceil(own.x1), width), min(math.ceil(own.y1), height)
        if x1 <= x0 or y1 <= y0:
            grown.append(OcrWord(text=word.text, box=own, confidence=word.confidence))
            continue
        low_x = max(x0 - margin_x, math.ceil(left_limit), 0)
        high_x = min(x1 + margin_x, math.floor(right_limit), width)
        low_y, high_y = max(y0 - margin_y, 0), min(y1 + margin_y, height)
        changed = True
        while changed:
            changed = False
            if x0 > low_x and ink[y0:y1, x0 - 1].any():
                x0, changed = x0 - 1, True
            if x1 < high_x and ink[y0:y1, x1].any():
                x1, changed = x1 + 1, True
            if y0 > low_y and ink[y0 - 1, x0:x1].any():
                y0, changed = y0 - 1, True
            if y1 < high_y and ink[y1, x0:x1].any():
                y1, changed = y1 + 1, True
        box = Box(
            x0=min(own.x0, x0),
            y0=min(own.y0, y0),
            x1=max(own.x1, x1),
            y1=max(own.y1, y1),
        )
        grown.append(OcrWord(text=word.text, box=box, confidence=word.confidence))
    return OcrLine(words=tuple(grown), corners=line.corners)


def rescale_line(line: OcrLine, factors: tuple[float, float], limit: tuple[int, int]) -> OcrLine:
    """Map a line found on a resized working image back to the original image."""
    if factors == (1.0, 1.0):
        return line
    fx, fy = factors
    return OcrLine(
        words=tuple(
            OcrWord(
                text=word.text, box=scale_box(word.box, factors, limit), confidence=word.confidence
            )
            for word in line.words
        ),
        corners=tuple((x * fx, y * fy) for x, y in line.corners),
    )


def working_copy(image: Image.Image, max_side: int) -> tuple[Image.Image, tuple[float, float]]:
    """An RGB copy no longer than `max_side` on its long side, and the factors back to `image`.

    OCR models see text at a few dozen pixels per line; a 50-megapixel photo only costs time
    and memory at full size.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    longest = max(rgb.size)
    if longest <= max_side:
        return rgb, (1.0, 1.0)
    factor = longest / max_side
    size = (max(1, round(rgb.width / factor)), max(1, round(rgb.height / factor)))
    small = rgb.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    return small, (rgb.width / small.width, rgb.height / small.height)


def page_elements(
    lines: Sequence[OcrLine],
    work: Image.Image,
    factors: tuple[float, float],
    size: tuple[int, int],
) -> list[Element]:
    """The last stretch every engine shares: grow boxes to the ink of the working image
    and widen them to their own words' ink whatever its contrast (`ocr/align.py`), map
    them back to the original `size`, order the lines, number the words."""
    from redacto.ocr.align import align_to_ink  # it builds on this module's types

    ink = ink_mask(work)
    gray = np.asarray(work.convert("L"))
    rescaled = [
        rescale_line(align_to_ink(grow_to_ink(line, ink), gray), factors, size) for line in lines
    ]
    return elements_from_lines(order_lines(rescaled))


def package_version(package: str) -> str:
    """An installed package's version for an engine's name, or "unknown"."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"
