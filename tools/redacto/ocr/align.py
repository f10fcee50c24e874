"""Word boxes widened to the word's own ink, whatever its contrast.

An OCR engine places a line well and its words less well: on light text (grey 0.66 or 0.8
on white, a pale form field) PP-OCR's word boxes drifted by a whole word — on
"at regina.okafor@example.com" in grey 0.8 the address's box began 90 px after its first
letter, and `redacted.pdf` showed "regina" beside the black box. Growing a box to ink
(`grow_to_ink`) cannot help there: it sees only pixels darker than the page's Otsu
threshold, which light text is not, and it reaches half a line height at most.

`align_to_ink` reads the line's own ink instead: pixels darker than the line's paper by a
share of the line's own contrast, grouped into words by the gaps between them. When the
line holds as many ink groups as OCR words, each word's box is widened to cover its group
(never narrowed: an OCR box that was right stays as wide). Where the count differs, or the
line is tilted, the line is left as OCR gave it; growing to ink still follows.
"""

from __future__ import annotations

import math

import numpy as np

from redacto.document import Box
from redacto.ocr.base import OcrLine, OcrWord

WORD_GAP = 0.22
"""Ink columns closer than this share of the line height belong to one word (letters and
a period sit closer; a space between words is wider)."""
MIN_CONTRAST = 24
"""A line whose darkest pixel is closer than this to its paper holds no readable ink."""
INK_SHARE = 0.3
"""A pixel is ink when it is darker than the paper by this share of the line's contrast."""
MAX_TILT = 0.25
"""A line rising more than this share of its height end to end is left alone."""
LINE_MARGIN = 0.3
"""How far past the line's outline, in line heights, its words' ink is looked for."""


def align_to_ink(line: OcrLine, gray: np.ndarray) -> OcrLine:
    """`line` with each word's box widened to its own ink (see the module docstring)."""
    height = line.height
    (_, top_left_y), (_, top_right_y), _, _ = line.corners
    if not line.words or height < 6 or abs(top_right_y - top_left_y) > MAX_TILT * height:
        return line
    rows, columns = gray.shape
    top = max(math.floor(min(w.box.y0 for w in line.words)), 0)
    bottom = min(math.ceil(max(w.box.y1 for w in line.words)), rows)
    # The line's own outline bounds the search: beyond it lies the next column's text.
    margin = math.ceil(LINE_MARGIN * height)
    left = max(math.floor(min(x for x, _ in line.corners)) - margin, 0)
    right = min(math.ceil(max(x for x, _ in line.corners)) + margin, columns)
    if bottom - top < 2 or right - left < 2:
        return line
    groups = _ink_groups(gray[top:bottom, left:right], height)
    if groups is None or len(groups) != len(line.words):
        return line
    aligned = []
    for word, (start, end) in zip(line.words, groups, strict=True):
        ink_x0, ink_x1 = left + start, left + end
        centre = (word.box.x0 + word.box.x1) / 2
        if not ink_x0 - height <= centre <= ink_x1 + height:
            return line  # the groups are not these words: leave the line as it was
        box = Box(
            x0=min(word.box.x0, ink_x0),
            y0=word.box.y0,
            x1=max(word.box.x1, ink_x1),
            y1=word.box.y1,
        )
        aligned.append(OcrWord(text=word.text, box=box, confidence=word.confidence))
    return OcrLine(words=tuple(aligned), corners=line.corners)


def _ink_groups(band: np.ndarray, height: float) -> list[tuple[int, int]] | None:
    """Column ranges [start, end) of the band's ink, split where the gap between inked
    columns is a word gap; None when the band holds no ink worth the name."""
    paper = float(np.percentile(band, 90))
    contrast = paper - float(band.min())
    if contrast < MIN_CONTRAST:
        return None
    inked = np.flatnonzero((band <= paper - INK_SHARE * contrast).any(axis=0))
    if inked.size == 0:
        return None
    breaks = np.flatnonzero(np.diff(inked) > max(WORD_GAP * height, 2.0))
    starts = [int(inked[0]), *(int(inked[b + 1]) for b in breaks)]
    ends = [*(int(inked[b]) + 1 for b in breaks), int(inked[-1]) + 1]
    return list(zip(starts, ends, strict=True))
