"""Boxes widened to the glyphs they cut, on the very pixels that are about to be burned.

Word boxes come from OCR or a text layer, and `ocr.align`/`grow_to_ink` already widen OCR
boxes to their word's ink while the page is read. This is the last look, on the image the
boxes are burned into (a photo, or a PDF page rendered at its output resolution): where a
glyph crosses a box's left or right edge, the box is widened along that glyph's word until
the gap to the next word, so no letter of a redacted value stays readable beside its box
("regina" was left beside an e-mail's box on grey text). Ink is any pixel that differs
from the paper around the box by `INK_SHARE` of the contrast inside it, dark on light or
light on dark, so grey and coloured text count. A word that runs on past `MAX_REACH` box
heights (a rule drawn through the text, a photo's dark edge) is not followed: that box is
returned in `unresolved`, and the caller fails the run rather than burn a part of a value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

from redacto.document import Box

MIN_CONTRAST = 24
"""A box whose pixels differ from the paper around it by less than this holds no ink."""
INK_SHARE = 0.3
"""A pixel is ink when it differs from the paper by this share of the box's contrast."""
START_GAP = 0.1
"""Ink this close to a box's edge (in box heights) is a glyph the edge cuts."""
WORD_GAP = 0.22
"""A run of blank columns this wide (in box heights) ends a word (ocr.align's measure)."""
MAX_REACH = 12.0
"""How far past its edge, in box heights, a box is widened before the run gives up."""


@dataclass(frozen=True)
class InkCover:
    """The boxes to burn, and those whose glyphs ran on past `MAX_REACH`."""

    boxes: tuple[Box, ...]
    unresolved: tuple[Box, ...]


def cover_ink(image: Image.Image, boxes: Sequence[Box]) -> InkCover:
    """Each box widened sideways over the glyphs its edges cut (the module docstring)."""
    gray = np.asarray(image.convert("L"), dtype=np.int16)
    covered: list[Box] = []
    unresolved: list[Box] = []
    for box in boxes:
        widened, resolved = _widen(gray, box)
        covered.append(widened)
        if not resolved:
            unresolved.append(box)
    return InkCover(tuple(covered), tuple(unresolved))


def _widen(gray: np.ndarray, box: Box) -> tuple[Box, bool]:
    rows, columns = gray.shape
    x0, y0 = max(math.floor(box.x0), 0), max(math.floor(box.y0), 0)
    x1, y1 = min(math.ceil(box.x1), columns), min(math.ceil(box.y1), rows)
    height = y1 - y0
    if x1 - x0 < 1 or height < 4:
        return box, True
    # The glyphs' middle: an underline or a table rule below or above the words is not
    # followed sideways.
    band = gray[y0 + height // 4 : y1 - height // 4]
    ring = gray[max(y0 - height, 0) : min(y1 + height, rows)]
    paper = float(np.median(ring))
    inside = np.abs(band[:, x0:x1] - paper)
    contrast = float(inside.max()) if inside.size else 0.0
    if contrast < MIN_CONTRAST:
        return box, True
    # Two pixels of a column, not one: a photo's noise is a pixel here and there.
    inked = (np.abs(band - paper) >= INK_SHARE * contrast).sum(axis=0) >= 2
    reach = math.ceil(MAX_REACH * height)
    right, right_done = _follow(inked, x1, 1, height, min(x1 + reach, columns))
    left, left_done = _follow(inked, x0 - 1, -1, height, max(x0 - 1 - reach, -1))
    # A followed edge takes one more column: the glyph's anti-aliased rim, too faint for
    # two ink pixels in the band, is still a visible sliver.
    new_x0 = float(left + 1 - 1 if left + 1 < x0 else box.x0)
    new_x1 = float(right + 1 if right > x1 else box.x1)
    widened = Box(x0=max(new_x0, 0.0), y0=box.y0, x1=min(new_x1, float(columns)), y1=box.y1)
    return widened, right_done and left_done


def _follow(inked: np.ndarray, edge: int, step: int, height: int, stop: int) -> tuple[int, bool]:
    """From the column just outside an edge, outward: the first column past the cut word's
    ink (the edge itself when nothing is cut), and whether that word ended before `stop`.

    An edge cuts a glyph when ink stands on both sides of it with less blank between than
    `START_GAP` box heights: letters of one word sit that close, a space between two words
    does not, so a box that begins in the space before its word is not widened over the
    word before ("emailed to" beside an address's box)."""
    blank_limit = max(1, round(START_GAP * height))
    word_gap = max(2, round(WORD_GAP * height))
    inside = edge - step  # the box's own last column on this side
    reach_in = [inside - step * k for k in range(blank_limit + 1)]
    first_in = next((c for c in reach_in if 0 <= c < len(inked) and inked[c]), None)
    if first_in is None:
        return edge, True
    column, last = edge, None
    while column != stop and abs(column - first_in) <= blank_limit + 1:
        if inked[column]:
            last = column
            break
        column += step
    if last is None:
        return edge, True
    column = last + step
    while column != stop:
        if inked[column]:
            last = column
        elif abs(column - last) > word_gap:
            return last + step, True
        column += step
    return last + step, stop in (-1, len(inked))  # the image's edge ends every word
