"""Readable pieces of a redacted value left beside its box: in the kept words, and on the
burned page as OCR reads it.

A box can hide less of a value than the report says: where the text pdfium reads and the
glyphs the page draws disagree (a glyph the font lacks, an `ActualText` override, a Type 3
font), a value can be boxed from its middle on and its start stay on the page
("rafael.gri" before a box over "n@example.com"). The whole-value check of the text layer
(`text_check.value_problem`) cannot see that: "rafael.gri" is no space-separated piece of
the address. So every box is held to the value it is part of: no word kept beside it — in
the text layer, in `redacted.txt` — and no word OCR reads beside it on the burned page may
hold `MIN_PIECE` letters or digits in a row of that value outside the word under the box
(those must be under other boxes), unless it is one of the value's own words whole (which
the run kept on purpose, and the whole-value check holds).

Beside: the word's box meets the value's box grown by `REACH` of its least side (its line
height, whichever way the text runs), so the rest of its line and the lines next to it
are looked at and the rest of the page is not: a surname kept elsewhere in a company name
is not a piece left behind. A box whose word is its whole value (an e-mail address read
whole) has nothing of it left to look for, and costs no OCR. Messages name pages, never
text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from redacto.document import Box, Detection, Element

if TYPE_CHECKING:
    from PIL import Image

    from redacto.ocr import OcrEngine

MIN_PIECE = 4
"""A run of this many characters of a value is a readable piece of it (three could be
anyone's initials or a common syllable)."""
REACH = 1.0
"""How far beside a box a piece is looked for, in its least side (a line's height)."""
_STRIP_GAP_PX = 16  # white rows between two strips of a page stacked for one OCR call


@dataclass(frozen=True)
class HiddenValue:
    """A box, the word under it (`own`) and the value it is part of (what the detection
    named; the word itself where it named none)."""

    box: Box
    value: str
    own: str

    def words(self) -> frozenset[str]:
        """The value's own words, letters and digits only, case folded: a kept word that is
        one of them whole is a word the run chose to keep (a surname in a company name),
        held by the whole-value check (`text_check.value_problem`), not a piece left over."""
        return frozenset(filter(None, (_alphanumeric(word) for word in self.value.split())))

    def pieces(self) -> frozenset[str]:
        """Every run of `MIN_PIECE` letters and digits of the value outside the word under
        the box: what must be under other boxes, never readable beside this one. Empty
        where the box hides the whole value (the word is all of it)."""
        value, own = _alphanumeric(self.value), _alphanumeric(self.own)
        start = value.find(own) if own else -1
        rest = [value] if start < 0 else [value[:start], value[start + len(own) :]]
        return frozenset(
            part[i : i + MIN_PIECE] for part in rest for i in range(len(part) - MIN_PIECE + 1)
        )

    def beside(self, box: Box) -> bool:
        reach = REACH * min(self.box.width, self.box.height)
        return (
            box.x0 <= self.box.x1 + reach
            and self.box.x0 - reach <= box.x1
            and box.y0 <= self.box.y1 + reach
            and self.box.y0 - reach <= box.y1
        )


def hidden_values(
    elements: Sequence[Element], detections: Sequence[Detection], pages: int
) -> list[list[HiddenValue]]:
    """Per page, each box the run draws with the word under it and the value it is part of."""
    per_page: list[list[HiddenValue]] = [[] for _ in range(pages)]
    for detection in detections:
        if detection.index is None:
            continue
        element = elements[detection.index]
        if element.box is None:
            continue
        value = detection.value or element.text
        per_page[element.page].append(HiddenValue(element.box, value, element.text))
    return per_page


def piece_beside(words: Iterable[tuple[str, Box]], hidden: Sequence[HiddenValue]) -> bool:
    """Whether any of `words` (text, box) beside a box holds a piece of its value that the
    word under the box does not (`HiddenValue.pieces`) and is not one of the value's own
    words whole."""
    looked = [(value, value.pieces()) for value in hidden]
    looked = [(value, pieces) for value, pieces in looked if pieces]
    for text, box in words:
        plain = _alphanumeric(text)
        if len(plain) < MIN_PIECE:
            continue
        for value, pieces in looked:
            if plain in value.words() or not value.beside(box):
                continue
            if any(piece in plain for piece in pieces):
                return True
    return False


def kept_piece_problem(
    kept: Sequence[Sequence[Element]], hidden: Sequence[Sequence[HiddenValue]]
) -> str | None:
    """A page whose kept words (the text layer's and `redacted.txt`'s) hold a piece of a
    value beside the box that hides it."""
    for number, (words, values) in enumerate(zip(kept, hidden, strict=True)):
        placed = [(w.text, w.box) for w in words if w.box is not None]
        if values and piece_beside(placed, values):
            return f"page {number + 1} keeps a piece of a redacted value beside its box"
    return None


def burned_piece_problem(
    number: int, image: Image.Image, hidden: Sequence[HiddenValue], ocr: OcrEngine
) -> str | None:
    """Whether OCR reads a piece of a hidden value beside its box on the burned page.

    Only the page's rows around its boxes are read (`REACH` of a line above and below each,
    the full width), stacked into one picture for one OCR call: a page without boxes costs
    nothing, and one with a few boxes a fraction of a page."""
    if not any(value.pieces() for value in hidden):
        return None  # every box hides all of its value: nothing of it can be beside one
    strips = _strips([value.box for value in hidden], image.height)
    picture, offsets = _stacked(image, strips)
    words: list[tuple[str, Box]] = []
    for element in ocr.read(picture):
        if element.box is None:
            continue
        centre = (element.box.y0 + element.box.y1) / 2
        for top, start, end in offsets:
            if start <= centre < end:
                shift = top - start
                words.append(
                    (
                        element.text,
                        element.box.model_copy(
                            update={"y0": element.box.y0 + shift, "y1": element.box.y1 + shift}
                        ),
                    )
                )
                break
    if piece_beside(words, hidden):
        return f"page {number + 1}: OCR reads a piece of a redacted value beside its box"
    return None


def _strips(boxes: Sequence[Box], height: int) -> list[tuple[int, int]]:
    """The page's rows (from, to) within `REACH` of a box's least side above and below it,
    merged where they meet."""
    rows = sorted(
        (
            max(int(box.y0 - REACH * min(box.width, box.height)), 0),
            min(int(box.y1 + REACH * min(box.width, box.height)) + 1, height),
        )
        for box in boxes
    )
    merged: list[tuple[int, int]] = []
    for top, bottom in rows:
        if merged and top <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], bottom))
        else:
            merged.append((top, bottom))
    return [(top, bottom) for top, bottom in merged if bottom > top]


def _stacked(
    image: Image.Image, strips: Sequence[tuple[int, int]]
) -> tuple[Image.Image, list[tuple[int, int, int]]]:
    """The strips one under another on white, and for each its page row and its rows in
    the picture (page top, picture from, picture to)."""
    from PIL import Image as PilImage

    total = sum(bottom - top for top, bottom in strips) + _STRIP_GAP_PX * (len(strips) - 1)
    picture = PilImage.new("RGB", (image.width, max(total, 1)), (255, 255, 255))
    offsets: list[tuple[int, int, int]] = []
    y = 0
    for top, bottom in strips:
        picture.paste(image.crop((0, top, image.width, bottom)), (0, y))
        offsets.append((top, y, y + bottom - top))
        y += bottom - top + _STRIP_GAP_PX
    return picture, offsets


def _alphanumeric(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())
