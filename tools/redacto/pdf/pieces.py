"""Readable pieces of a redacted value left beside its box: in the kept words, and on the
burned page as OCR reads it.

A box can hide less of a value than the report says: where the text pdfium reads and the
glyphs the page draws disagree (a glyph the font lacks, an `ActualText` override, a Type 3
font), a value can be boxed from its middle on and its start stay on the page
("rafael.gri" before a box over "n@example.com"). The whole-value check of the text layer
(`text_check.value_problem`) cannot see that: "rafael.gri" is no space-separated piece of
the address. So every box is held to the value it is part of: where the words under that
value's boxes on the page do not hold all of it, no word kept beside a box — in the text
layer, in `redacted.txt` — and no word OCR reads beside it on the burned page may hold
`MIN_PIECE` letters or digits in a row of what they miss, unless it is one of the value's
own words whole (which the run kept on purpose, and the whole-value check holds).

Beside: the word's box meets the value's box grown by `REACH` of its least side (its line
height, whichever way the text runs), so the rest of its line and the lines next to it
are looked at and the rest of the page is not: a surname kept elsewhere in a company name
is not a piece left behind. A value whose boxes hold all of it (an e-mail address read
whole, a name boxed word by word) has nothing left to look for, and costs no OCR: only a
page where some value is boxed in part is read again. Messages name pages, never text.
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
    """A box, the value it is part of (what the detection named; the word under it where it
    named none), and what of the value no box of it on the page holds (`missing`: runs of
    its letters and digits, case folded)."""

    box: Box
    value: str
    missing: tuple[str, ...] = ()

    def words(self) -> frozenset[str]:
        """The value's own words, letters and digits only, case folded: a kept word that is
        one of them whole is a word the run chose to keep (a surname in a company name),
        held by the whole-value check (`text_check.value_problem`), not a piece left over."""
        return frozenset(filter(None, (_alphanumeric(word) for word in self.value.split())))

    def pieces(self) -> frozenset[str]:
        """Every run of `MIN_PIECE` letters and digits of the value that no box of it holds:
        what must not be readable beside this box. Empty where its boxes hold it all."""
        return frozenset(
            part[i : i + MIN_PIECE]
            for part in self.missing
            for i in range(len(part) - MIN_PIECE + 1)
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
    """Per page, each box the run draws with the value it is part of and what of that value
    none of its boxes on the page holds."""
    boxes: dict[tuple[int, str], list[Element]] = {}
    for detection in detections:
        if detection.index is None:
            continue
        element = elements[detection.index]
        if element.box is None:
            continue
        boxes.setdefault((element.page, detection.value or element.text), []).append(element)
    per_page: list[list[HiddenValue]] = [[] for _ in range(pages)]
    for (page, value), under in boxes.items():
        missing = _missing(value, [element.text for element in under])
        for element in under:
            assert element.box is not None
            per_page[page].append(HiddenValue(element.box, value, missing))
    return per_page


def _missing(value: str, held: Sequence[str]) -> tuple[str, ...]:
    """The runs of `value`'s letters and digits that none of the `held` words holds."""
    plain = _alphanumeric(value)
    covered = [False] * len(plain)
    for word in {_alphanumeric(text) for text in held}:
        if not word:
            continue
        start = plain.find(word)
        while start >= 0:
            covered[start : start + len(word)] = [True] * len(word)
            start = plain.find(word, start + 1)
    runs: list[str] = []
    run = ""
    for char, done in zip(plain, covered, strict=True):
        if done:
            if run:
                runs.append(run)
            run = ""
        else:
            run += char
    if run:
        runs.append(run)
    return tuple(runs)


def piece_beside(words: Iterable[tuple[str, Box]], hidden: Sequence[HiddenValue]) -> bool:
    """Whether any of `words` (text, box) beside a box holds a piece of its value that none
    of its boxes holds (`HiddenValue.pieces`) and is not one of the value's own words whole."""
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
        return None  # every value is under its boxes whole: nothing of it can be beside one
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
