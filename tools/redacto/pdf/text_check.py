"""The text layer of a written `redacted.pdf`, read back with pdfium and held to what was
meant: exactly the kept words, in order, each inside its box, invisible, none on a black
box, and no redacted value or part of one among them.

`verify_redacted_pdf` (`redacto.pdf.write`) calls these per page and once per document;
each returns a problem (a message naming pages and counts, never text) or None.
"""

from __future__ import annotations

import ctypes
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redacto.document import Box
from redacto.imaging.raster import pixel_bounds
from redacto.pdf.geometry import PageGeometry
from redacto.pdf.text_layer import LayerWord, PageSpace, layer_text

BOX_TOLERANCE_PT = 0.25
"""A character read back may stand this far outside its word's box (32-bit floats in
pdfium, numbers written as their shortest decimals)..."""
BOX_TOLERANCE_SHARE = 0.03
"""...or this share of the box's height, if more: pdfium's loose character box reaches
about 1.2 % of the font size above the ascent the font declares (measured)."""
_INVISIBLE = 3  # FPDF_TEXTRENDERMODE_INVISIBLE
_MIN_PIECE = 2  # a one-character piece of a value (an initial) is everywhere in any text

Rect = tuple[float, float, float, float]  # left, bottom, right, top in points


@dataclass(frozen=True)
class ReadWord:
    """One text object of the output as pdfium reads it: its text, each character's loose
    box (the font's full height, the glyph's advance) in points, and whether white space
    (drawn, or added by pdfium: a line break) comes before it in the page's text."""

    text: str
    boxes: tuple[Rect, ...]
    spaced: bool = True


def read_layer(page: Any, textpage: Any) -> list[ReadWord]:
    """The page's words as pdfium extracts them: the characters of each text object, in
    pdfium's order, split at white space (drawn between words, or added by pdfium)."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    words: list[ReadWord] = []
    address: int | None = None
    units: list[int] = []
    boxes: list[Rect] = []
    spaced = True
    for index in range(textpage.count_chars()):
        unit = pdfium_c.FPDFText_GetUnicode(raw, index)
        generated = pdfium_c.FPDFText_IsGenerated(raw, index) == 1
        obj = None if generated else pdfium_c.FPDFText_GetTextObject(raw, index)
        here = ctypes.cast(obj, ctypes.c_void_p).value if obj else None
        if generated or chr(unit).isspace() or here != address:
            if units:
                words.append(ReadWord(_decoded(units), tuple(boxes), spaced))
                spaced = False
            units, boxes, address = [], [], here
        if generated or chr(unit).isspace():
            spaced = True
            continue
        rect = pdfium_c.FS_RECTF()
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        units.append(unit)
        boxes.append((rect.left, rect.bottom, rect.right, rect.top))
    if units:
        words.append(ReadWord(_decoded(units), tuple(boxes), spaced))
    return words


def _decoded(units: list[int]) -> str:
    """pdfium's characters (code points, or UTF-16 halves of one) as a string."""
    joined = "".join(chr(unit) for unit in units)
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def invisible_problem(page: Any, number: int) -> str | None:
    """Every text object of the page is drawn invisibly (render mode 3)."""
    import pypdfium2.raw as pdfium_c

    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=2):
        if pdfium_c.FPDFTextObj_GetTextRenderMode(obj.raw) != _INVISIBLE:
            return f"page {number + 1} has text that is not invisible"
    return None


def layer_problem(
    number: int,
    found: Sequence[ReadWord],
    expected: Sequence[LayerWord],
    burned: Sequence[Box],
    geometry: PageGeometry,
) -> str | None:
    """What is wrong with one page's text layer as read back, if anything: no character on a
    burned box; the same words, each inside its own box (filling its width); each line's
    words in its order, each after white space.

    Words are matched by text and place, not by their order on the page: pdfium groups a
    page's text into lines by height, and where two lines overlap in height (a tilted
    photo's) it can interleave their words; within one line the order must hold."""
    page = f"page {number + 1}"
    space = PageSpace(geometry)
    black = [_burned_rect(box, geometry, space) for box in burned]
    for word in found:
        for left, bottom, right, top in word.boxes:
            centre = ((left + right) / 2, (bottom + top) / 2)
            if any(r and _contains(r, centre) for r in black):
                return f"{page} has text on a black box"
    if Counter(w.text for w in found) != Counter(w.text for w in expected):
        return (
            f"{page}'s text layer holds other words than the {len(expected)} kept ones "
            f"({len(found)} read back)"
        )
    boxes = [space.box(word.box) for word in expected]
    free: dict[str, list[int]] = {}
    for index, meant in enumerate(expected):
        free.setdefault(meant.text, []).append(index)
    matched: list[int] = []
    for position, read in enumerate(found, start=1):
        candidates = free[read.text]
        fitting = next((i for i in candidates if _fills(read, boxes[i])), None)
        if fitting is None:
            return f"{page}: word {position} of its text layer is outside its box"
        candidates.remove(fitting)
        matched.append(fitting)
    lines = list(itertools.accumulate(int(word.new_line) for word in expected))
    last: dict[int, int] = {}
    for position, (index, read) in enumerate(zip(matched, found, strict=True), start=1):
        line = lines[index]
        if last.get(line, -1) > index:
            return f"{page}: word {position} of its text layer is out of its line's order"
        previous = matched[position - 2] if position > 1 else None
        if previous == index - 1 and lines[previous] == line and not read.spaced:
            return f"{page}: word {position} of its text layer runs into the one before"
        last[line] = index
    return None


def _fills(read: ReadWord, box: Rect) -> bool:
    """Every character inside `box` (with a little slack), and the word across its width."""
    slack = max(BOX_TOLERANCE_PT, BOX_TOLERANCE_SHARE * (box[3] - box[1]))
    inside = all(
        _contains(_grown(box, slack), corner) for rect in read.boxes for corner in _corners(rect)
    )
    left, right = read.boxes[0][0], read.boxes[-1][2]
    return (
        inside
        and abs(left - box[0]) <= BOX_TOLERANCE_PT
        and abs(right - box[2]) <= BOX_TOLERANCE_PT
    )


def value_problem(
    found: Sequence[Sequence[ReadWord]],
    expected: Sequence[Sequence[LayerWord]],
    values: Sequence[str],
) -> str | None:
    """Whether a redacted value, or a piece of one, can be extracted from the text read back.

    Each value and each of its space-separated pieces is looked for in the document's words
    in order, across lines and pages, with case and white space ignored, from the start of
    a word to the end of a word: "Alice" ending a line and "Marlowe" starting the next are
    "Alice Marlowe", "123-45-" and "6789" are "123-45-6789", and "ann" is not found in
    "planning". A match may occur no more often than in the kept words themselves: where
    the page shows the same word in the clear (a surname kept in a company name, a "12"
    elsewhere than in a redacted address), it is not a leak.
    """
    read = [_squeezed(word.text) for page in found for word in page]
    kept = [_squeezed(word.text) for page in expected for word in page]
    for value in values:
        for piece in {value, *value.split()}:
            target = _squeezed(layer_text(piece))
            if len(target) < _MIN_PIECE:
                continue
            if _matches(read, target) > _matches(kept, target):
                return "a redacted value can be extracted from the output's text"
    return None


def _squeezed(text: str) -> str:
    return "".join(text.split()).casefold()


def _matches(words: Sequence[str], target: str) -> int:
    """How many runs of consecutive `words`, joined, are exactly `target`."""
    count = 0
    for start in range(len(words)):
        joined = ""
        for word in words[start:]:
            joined += word
            if len(joined) >= len(target):
                count += joined == target
                break
    return count


def _burned_rect(box: Box, geometry: PageGeometry, space: PageSpace) -> Rect | None:
    """The black a box burns (whole pixels, rounded outward), in points."""
    bounds = pixel_bounds(box, geometry.pixels)
    if bounds is None:
        return None
    x0, y0, x1, y1 = bounds
    return space.x(x0), space.y(y1), space.x(x1), space.y(y0)


def _contains(rect: Rect, point: tuple[float, float]) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def _grown(rect: Rect, slack: float) -> Rect:
    return rect[0] - slack, rect[1] - slack, rect[2] + slack, rect[3] + slack


def _corners(rect: Rect) -> tuple[tuple[float, float], tuple[float, float]]:
    return (rect[0], rect[1]), (rect[2], rect[3])
