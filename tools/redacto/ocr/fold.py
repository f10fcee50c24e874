"""Fold a long strip of an image into a page-shaped mosaic for the detector, and back.

PP-OCR's detector enlarges an image until its short side is 736 px, so its input grows with
the aspect ratio: a 20000×20 strip (a till receipt's line, a banner) became a 736×690,000
input, ≈ 24 GB of memory, and the run was killed. Scaling such a strip down instead shrinks
its text to nothing. So a strip longer than `MAX_ASPECT` times its width is cut along its
long side into overlapping segments, laid side by side with white gaps (rows for a wide
strip, columns for a tall one) into a roughly square mosaic, read like any page, and every
line found is mapped back onto the strip. The detector's input is then bounded like a page's
whatever the input's shape.

Neighbouring segments overlap (8 strip widths); a word belongs to the segment on its
centre's side of the overlap's middle, so a word shorter than half the overlap is read once
and whole. A
longer word cut by a segment edge comes back as two pieces, both kept: nothing is dropped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from redacto.document import Box
from redacto.ocr.base import OcrLine, OcrWord

MAX_ASPECT = 8.0
"""Longer than this many times its width, an image is folded (a page photo is under 2)."""

_EDGE = 2
"""Pixels from a cut edge within which a word counts as touching it (cut in two)."""
_GAP_RATIO = 0.5
_OVERLAP_RATIO = 8.0
"""Overlap in widths of the strip: a wide strip is one text line, whose words are a few
line heights long; for a tall strip it is many lines' worth."""


def is_strip(size: tuple[int, int]) -> bool:
    """True when the image is too elongated for the detector to see whole."""
    width, height = size
    return max(width, height) > MAX_ASPECT * max(min(width, height), 1)


def strip_long_side(size: tuple[int, int], max_side: int) -> int:
    """The long side a strip may keep so that its mosaic stays within `max_side` a side."""
    long, short = max(size), max(min(size), 1)
    scale = 1.0
    for _ in range(12):  # the mosaic's sides grow about linearly with the scale
        side = max(_mosaic_size(round(long * scale), max(1, round(short * scale))))
        if side <= max_side:
            break
        scale *= 0.98 * max_side / side
    return max(1, round(long * scale))


def _layout(long: int, short: int) -> tuple[int, int, tuple[int, ...]]:
    """Segment length, pitch across and segment starts for a strip of these sides."""
    gap = max(8, round(short * _GAP_RATIO))
    pitch = short + gap
    length = min(long, max(short, math.ceil(math.sqrt(long * pitch))))
    overlap = min(round(short * _OVERLAP_RATIO), length // 3)
    step = max(length - overlap, 1)
    count = max(1, math.ceil((long - overlap) / step))
    starts = tuple(min(i * step, max(long - length, 0)) for i in range(count))
    return length, pitch, starts


def _mosaic_size(long: int, short: int) -> tuple[int, int]:
    """(along, across) of the mosaic of a strip of these sides."""
    length, pitch, starts = _layout(long, short)
    return length, len(starts) * pitch - (pitch - short)


@dataclass(frozen=True)
class Fold:
    """Where each segment of the strip lies: along the long axis from `starts[i]`, for
    `length` pixels, shown in the mosaic at offset `i * pitch` across."""

    wide: bool
    """The strip's long side is its width (segments become rows), else its height."""
    starts: tuple[int, ...]
    length: int
    short: int
    pitch: int

    def unfold(self, lines: Sequence[OcrLine]) -> list[OcrLine]:
        """Lines found on the mosaic, in strip pixels, each word once.

        A word that touches a segment's cut edge is a piece of one the neighbour reads whole
        (unless it is longer than the overlap): dropped. A whole word read by both
        neighbours is kept from the segment on its centre's side of the overlap's middle.
        A word is never dropped unless another reading of the same place is kept.
        """
        placed: list[tuple[int, OcrLine, list[OcrWord]]] = []
        for line in lines:
            x, y = line.center
            across = y if self.wide else x
            segment = min(max(int(across // self.pitch), 0), len(self.starts) - 1)
            words = [self._move_word(word, segment) for word in line.words]
            placed.append((segment, line, [w for w in words if not self._cut_piece(segment, w)]))
        whole: dict[int, list[OcrWord]] = {}
        for segment, _, words in placed:
            whole.setdefault(segment, []).extend(words)
        unfolded = []
        for segment, line, words in placed:
            kept = tuple(w for w in words if not self._read_better_next_door(segment, w, whole))
            if kept:
                corners = tuple(self._move_point(point, segment) for point in line.corners)
                unfolded.append(OcrLine(words=kept, corners=corners))
        return unfolded

    def _span(self, word: OcrWord) -> tuple[float, float]:
        box = word.box
        return (box.x0, box.x1) if self.wide else (box.y0, box.y1)

    def _cut_piece(self, segment: int, word: OcrWord) -> bool:
        low, high = self._span(word)
        if high - low >= self.overlap - 2 * _EDGE:
            return False  # too long to be read whole anywhere: keep every piece
        start, end = self.starts[segment], self.starts[segment] + self.length
        first, last = segment == 0, segment == len(self.starts) - 1
        return (not first and low <= start + _EDGE) or (not last and high >= end - _EDGE)

    def _read_better_next_door(
        self, segment: int, word: OcrWord, whole: dict[int, list[OcrWord]]
    ) -> bool:
        if self._owns(segment, word):
            return False
        low, high = self._span(word)
        for neighbour in (segment - 1, segment + 1):
            for other in whole.get(neighbour, ()):
                other_low, other_high = self._span(other)
                shared = min(high, other_high) - max(low, other_low)
                if shared > 0.5 * min(high - low, other_high - other_low) and self._owns(
                    neighbour, other
                ):
                    return True
        return False

    @property
    def overlap(self) -> float:
        """How far neighbouring segments overlap (the smallest, between any two)."""
        return float(
            min(
                (a + self.length - b for a, b in zip(self.starts, self.starts[1:], strict=False)),
                default=self.length,
            )
        )

    def _move_point(self, point: tuple[float, float], segment: int) -> tuple[float, float]:
        along, across = (point[0], point[1]) if self.wide else (point[1], point[0])
        along += self.starts[segment]
        across = min(max(across - segment * self.pitch, 0.0), float(self.short))
        return (along, across) if self.wide else (across, along)

    def _move_word(self, word: OcrWord, segment: int) -> OcrWord:
        x0, y0 = self._move_point((word.box.x0, word.box.y0), segment)
        x1, y1 = self._move_point((word.box.x1, word.box.y1), segment)
        return OcrWord(
            text=word.text, box=Box(x0=x0, y0=y0, x1=x1, y1=y1), confidence=word.confidence
        )

    def _boundary(self, segment: int) -> float:
        """Where `segment` hands over to the next: the middle of their overlap."""
        return (self.starts[segment + 1] + self.starts[segment] + self.length) / 2

    def _owns(self, segment: int, word: OcrWord) -> bool:
        box = word.box
        centre = (box.x0 + box.x1) / 2 if self.wide else (box.y0 + box.y1) / 2
        low = -math.inf if segment == 0 else self._boundary(segment - 1)
        high = math.inf if segment == len(self.starts) - 1 else self._boundary(segment)
        return low <= centre < high


def fold_strip(image: Image.Image) -> tuple[Image.Image, Fold]:
    """The mosaic of `image` (a strip, see `is_strip`) and how to map lines back."""
    width, height = image.size
    wide = width >= height
    long, short = (width, height) if wide else (height, width)
    length, pitch, starts = _layout(long, short)
    along, across = _mosaic_size(long, short)
    size = (along, across) if wide else (across, along)
    mosaic = Image.new("RGB", size, (255, 255, 255))
    for number, start in enumerate(starts):
        if wide:
            piece = image.crop((start, 0, start + length, short))
            mosaic.paste(piece, (0, number * pitch))
        else:
            piece = image.crop((0, start, short, start + length))
            mosaic.paste(piece, (number * pitch, 0))
    fold = Fold(wide, starts, length, short, pitch)
    return mosaic, fold
