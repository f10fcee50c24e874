"""A PDF page's characters grouped into words along their own baseline, in any direction.

pdfium gives each character of a page's text with its text matrix and its loose box (the
font's full height and the glyph's advance, turned by the matrix, as an axis-aligned
rectangle in page space). Text drawn turned — a margin note with `0 1 -1 0 x y Tm`, a
landscape table on an upright page, a page with /Rotate, a stamp set at a slant — runs
along another direction than the page's x axis, so grouping characters by their boxes'
rows would make every character a word of its own. Here each character is placed in its
own frame instead: the direction its baseline runs on the rendered page (`along`) and the
direction across it (`across`), both in pixels of the page as rendered (y downward), and
a word is a run of characters that share a direction and a baseline with no gap wider
than a space between them — the rule an upright line was always read by, turned.

Directions within `MAX_SKEW_DEGREES` of one of the four axes are read; a character at a
steeper angle (45°, text on a curve that turns through one), or drawn with a matrix that
leaves no frame to measure it in, is `unread`: the caller must have it read by other means
(OCR) or say so (docs/pdf.md, "Reading a PDF").
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from typing import Any

from redacto.pdf.visible import MIN_INK_PIXELS

CharBox = tuple[float, float, float, float]
Vector = tuple[float, float]

MAX_SKEW_DEGREES = 30.0
"""Text turned by up to this many degrees off an axis is read: a character's extent along
and across its baseline is then measured from its box (below); nearer 45° the box no
longer tells them apart."""
SPACED_GAP = 1.5
"""The widest gap, in heights of the word, between two letters of one text object with no
space between them (letter spacing): wider is no longer one word's spacing."""
SAME_DIRECTION = math.cos(math.radians(3))
"""Two characters run the same way when their directions differ by less than 3°."""
_AXIS = 1e-3  # a direction this close to an axis is that axis (boxes measure it exactly)
_WORD_PAD_PX = 2.0  # a little over a glyph's edge, as OCR boxes are padded (docs/ocr.md)


@dataclass(frozen=True)
class PageChar:
    """One character as drawn on the rendered page: its loose box (pixels, axis-aligned,
    not clipped), the direction its baseline runs (a unit vector in pixels, y downward;
    None: an angle the reader does not handle) and its extents along and across it."""

    char: str
    box: CharBox
    along: Vector | None
    advance: float = 0.0
    height: float = 0.0
    invisible: bool = False
    empty: bool = False
    """The glyph leaves too little ink to be judged by: it draws nothing (pdfium's tight
    box of it has no extent: a glyph the font lacks, named by its encoding), or a mark of a
    few pixels (`FAINT_GLYPH_PX`: a full stop or a hyphen in small type), which may leave
    fewer ink pixels than a character needs to show though its word shows."""
    drawn_by: int = 0
    """The text object that draws it (its address; 0: unknown)."""

    @property
    def centre(self) -> Vector:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2


@dataclass
class PageWord:
    """Characters read as one word: their text, the direction they run, their extent in
    that frame (`span`: along from, along to, across from, across to), and each
    character's box clipped to the page (None: drawn invisibly, or off the page) and
    whether its glyph is too slight to judge by its ink, for the ink test
    (`redacto.pdf.visible`)."""

    chars: list[str]
    along: Vector
    span: list[float]
    boxes: list[CharBox] = field(default_factory=list)
    first: PageChar | None = None
    glyphs: list[CharBox | None] = field(default_factory=list)
    empty: list[bool] = field(default_factory=list)
    drawn_by: int = 0
    """The text object that drew the last character."""

    @property
    def text(self) -> str:
        return "".join(self.chars)

    @property
    def upright(self) -> bool:
        """Whether the word runs left to right along the page's x axis."""
        return self.along[0] > 1 - _AXIS

    @property
    def on_axis(self) -> bool:
        """Whether the word runs along one of the page's axes (any way): its box is then
        exactly its extent."""
        return abs(self.along[0]) > 1 - _AXIS or abs(self.along[1]) > 1 - _AXIS

    def continues(self, char: PageChar) -> bool:
        """`char` runs the same way, its centre is on this word's line (within its height
        across the baseline) and it starts no further than a quarter of that height past
        the word's end, nor more than half of it back: an upright word's rule, turned.

        Within one text object (the caller has seen no white space between the two) the gap
        may reach `SPACED_GAP` heights: letters spaced out with `Tc` ("J a n e") are one
        word, as pdfium reads them; a word break there is a space character."""
        if char.along is None or _dot(char.along, self.along) < SAME_DIRECTION:
            return False
        if char.invisible != (self.glyphs[-1] is None):
            return False
        start = _span(char, self.along)[0]
        across = _dot(char.centre, _across(self.along))
        height = self.span[3] - self.span[2]
        on_line = self.span[2] <= across <= self.span[3]
        widest = SPACED_GAP if char.drawn_by and char.drawn_by == self.drawn_by else 0.25
        return on_line and -0.5 * height <= start - self.span[1] <= widest * height

    def add(self, char: PageChar, glyph: CharBox | None) -> None:
        start, end, low, high = _span(char, self.along)
        self.chars.append(char.char)
        self.span = [
            min(self.span[0], start),
            max(self.span[1], end),
            min(self.span[2], low),
            max(self.span[3], high),
        ]
        self.boxes.append(char.box)
        self.glyphs.append(glyph)
        self.empty.append(char.empty)
        self.drawn_by = char.drawn_by

    def box(self, size: tuple[int, int]) -> CharBox:
        """The word's box in pixels: the union of its characters' boxes (for a word at a
        slant, the axis-aligned box around it, which covers it), padded, within the page."""
        x0 = min(b[0] for b in self.boxes) - _WORD_PAD_PX
        y0 = min(b[1] for b in self.boxes) - _WORD_PAD_PX
        x1 = max(b[2] for b in self.boxes) + _WORD_PAD_PX
        y1 = max(b[3] for b in self.boxes) + _WORD_PAD_PX
        return max(x0, 0.0), max(y0, 0.0), min(x1, float(size[0])), min(y1, float(size[1]))

    def on_line(self, char: PageChar) -> bool:
        """Whether `char` runs this way with its centre within this word's height across
        the baseline: the same line, whatever the gap."""
        if char.along is None or _dot(char.along, self.along) < SAME_DIRECTION:
            return False
        across = _dot(char.centre, _across(self.along))
        return self.span[2] <= across <= self.span[3]


def new_word(char: PageChar, glyph: CharBox | None) -> PageWord:
    """A word begun by `char` (which must have a direction)."""
    assert char.along is not None
    start, end, low, high = _span(char, char.along)
    return PageWord(
        chars=[char.char],
        along=char.along,
        span=[start, end, low, high],
        boxes=[char.box],
        first=char,
        glyphs=[glyph],
        empty=[char.empty],
        drawn_by=char.drawn_by,
    )


def near(one: PageChar, other: PageChar) -> bool:
    """Whether two characters touch or nearly do: their boxes, grown by half the taller
    one's height across its baseline, meet (the next letter of a word, whichever way it
    runs)."""
    reach = 0.5 * max(one.height, other.height)
    a, b = one.box, other.box
    return (
        a[0] - reach <= b[2]
        and b[0] - reach <= a[2]
        and a[1] - reach <= b[3]
        and b[1] - reach <= a[3]
    )


def _span(char: PageChar, along: Vector) -> tuple[float, float, float, float]:
    """`char`'s extent in the frame of `along`, padded as a word's box is: from, to along
    it; from, to across it."""
    centre = char.centre
    middle = _dot(centre, along)
    across = _dot(centre, _across(along))
    half_advance = char.advance / 2 + _WORD_PAD_PX
    half_height = char.height / 2 + _WORD_PAD_PX
    return middle - half_advance, middle + half_advance, across - half_height, across + half_height


def _dot(a: Vector, b: Vector) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _across(along: Vector) -> Vector:
    """The direction across a baseline: `along` turned a quarter, so that for an upright
    word (along +x) it is +y, down the page, and a word's span across it reads as rows."""
    return -along[1], along[0]


@dataclass(frozen=True)
class PageTransform:
    """From a page's own space (points, y up) to pixels of its rendering (y down), /Rotate
    and an offset CropBox included: pdfium's own mapping, measured at three corners."""

    origin: Vector
    x_axis: Vector
    y_axis: Vector

    @classmethod
    def of_page(cls, page: Any, size: tuple[int, int]) -> PageTransform:
        import pypdfium2.raw as pdfium_c

        left, bottom, right, top = page.get_bbox()

        def device(x: float, y: float) -> Vector:
            px, py = ctypes.c_int(), ctypes.c_int()
            pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, size[0], size[1], 0, x, y, px, py)
            return float(px.value), float(py.value)

        corner = device(left, bottom)
        right_corner, top_corner = device(right, bottom), device(left, top)
        width, height = right - left, top - bottom
        return cls(
            origin=(
                corner[0]
                - left * (right_corner[0] - corner[0]) / width
                - bottom * (top_corner[0] - corner[0]) / height,
                corner[1]
                - left * (right_corner[1] - corner[1]) / width
                - bottom * (top_corner[1] - corner[1]) / height,
            ),
            x_axis=(
                (right_corner[0] - corner[0]) / width,
                (right_corner[1] - corner[1]) / width,
            ),
            y_axis=((top_corner[0] - corner[0]) / height, (top_corner[1] - corner[1]) / height),
        )

    def point(self, x: float, y: float) -> Vector:
        return (
            self.origin[0] + x * self.x_axis[0] + y * self.y_axis[0],
            self.origin[1] + x * self.x_axis[1] + y * self.y_axis[1],
        )

    @property
    def pixels_per_square_point(self) -> float:
        """How many square pixels one square point of the page covers."""
        return abs(self.x_axis[0] * self.y_axis[1] - self.x_axis[1] * self.y_axis[0])

    def vector(self, x: float, y: float) -> Vector:
        return x * self.x_axis[0] + y * self.y_axis[0], x * self.x_axis[1] + y * self.y_axis[1]

    def rect(self, left: float, bottom: float, right: float, top: float) -> CharBox:
        """A page-space rectangle's pixels, as an axis-aligned box."""
        corners = [self.point(x, y) for x in (left, right) for y in (bottom, top)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)


def page_char(
    pdfium_c: Any, raw: Any, index: int, char: str, transform: PageTransform, invisible: bool
) -> PageChar | None:
    """Character `index` of a text page as drawn; None when pdfium gives it no box."""
    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect)):
        return None
    box = transform.rect(rect.left, rect.bottom, rect.right, rect.top)
    empty = _draws_little(pdfium_c, raw, index, transform)
    obj = pdfium_c.FPDFText_GetTextObject(raw, index)
    drawn_by = ctypes.cast(obj, ctypes.c_void_p).value or 0 if obj else 0
    unread = PageChar(char, box, None, invisible=invisible, empty=empty, drawn_by=drawn_by)
    matrix = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix)):
        return unread
    along = _unit(transform.vector(matrix.a, matrix.b))
    extents = None if along is None else _extents(box, along)
    if along is None or extents is None:
        return unread
    return PageChar(char, box, along, extents[0], extents[1], invisible, empty, drawn_by)


_EMPTY_PT = 0.05  # a tight glyph box thinner than this (in points) has no outline
FAINT_GLYPH_PX = 2.0 * MIN_INK_PIXELS
"""A glyph whose tight box covers fewer square pixels than this (a full stop below about
8 pt, a hyphen below about 6 pt, at 200 dpi) can leave fewer than `MIN_INK_PIXELS` ink
pixels wherever it falls on the pixel grid: its ink does not decide whether its word shows."""


def _draws_little(pdfium_c: Any, raw: Any, index: int, transform: PageTransform) -> bool:
    """Whether the glyph draws nothing, or too small a mark to be judged by its ink."""
    left, right = ctypes.c_double(), ctypes.c_double()
    bottom, top = ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharBox(raw, index, left, right, bottom, top):
        return False
    width, height = right.value - left.value, top.value - bottom.value
    if min(width, height) < _EMPTY_PT:
        return True
    return width * height * transform.pixels_per_square_point < FAINT_GLYPH_PX


def _unit(vector: Vector) -> Vector | None:
    length = math.hypot(*vector)
    if length < 1e-9:
        return None
    x, y = vector[0] / length, vector[1] / length
    # Snap a direction within `_AXIS` of an axis onto it: boxes then measure it exactly.
    if abs(x) < _AXIS:
        return 0.0, math.copysign(1.0, y)
    if abs(y) < _AXIS:
        return math.copysign(1.0, x), 0.0
    return x, y


def _extents(box: CharBox, along: Vector) -> tuple[float, float] | None:
    """A character's advance (along its baseline) and height (across it) from its
    axis-aligned box: a rectangle `advance` x `height` turned by the angle of `along`
    spans `advance*c + height*s` by `advance*s + height*c` (c, s: the angle's |cos|,
    |sin|). None where the two cannot be told apart (nearer 45° than `MAX_SKEW_DEGREES`
    allows) or the box is not one of a turned rectangle."""
    width, tall = box[2] - box[0], box[3] - box[1]
    c, s = abs(along[0]), abs(along[1])
    if s == 0.0:
        return width, tall
    if c == 0.0:
        return tall, width
    if min(c, s) > math.sin(math.radians(MAX_SKEW_DEGREES)) + 1e-9:
        return None
    det = c * c - s * s
    advance = (width * c - tall * s) / det
    height = (tall * c - width * s) / det
    if advance < 0 or height <= 0:
        return None
    return advance, height
