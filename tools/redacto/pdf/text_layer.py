"""The invisible text layer of `redacted.pdf`: the words a page keeps, each at its own box.

`redacted.pdf` is made of burned page images (docs/pdf.md); over each image this writes the
page's kept words — the words read from it (text layer or OCR) that no box hides — as
invisible text (render mode 3, as OCR tools write), so the redacted PDF can be searched,
selected, copied and read aloud, like the output of Acrobat's "apply redactions".

- **Which words.** A page's kept elements in reading order (`layer_words`), their text
  made plain (`layer_text`: ligatures broken up, control and private characters dropped),
  leaving out a word any of whose characters would sit on a burned box: what the page does
  not show in full is not in its layer. Words the page never showed (white, covered,
  clipped) were never read (`redacto.pdf.visible`), and a redacted word is never kept.
- **Where.** Each word fills its box: the font size is the box's height (ascent 0.8 em,
  descent 0.2 em) and the text matrix stretches it horizontally to the box's width, so
  selection boxes fall on the words in the image — narrowed a little where two words of a
  line would come closer than `MIN_GAP_EM` (poppler would read them as one). Between two
  words of a line a space is drawn stretched over the gap, so every extractor puts a real
  space there.
- **The font.** `glyphless.ttf` (devtools/generated/glyphless_font.py, 652 bytes): one glyph
  half an em wide that encloses no area, embedded as a CIDFontType2 under an Identity-H
  Type0 font. Each distinct character of the document gets a 2-byte code, every code is
  drawn with that glyph (CIDToGIDMap), and a ToUnicode map gives each code its character,
  so any Unicode text, beyond the Basic Multilingual Plane included, copies back as it was
  read, and nothing can ever be seen of it.
"""

from __future__ import annotations

import math
import unicodedata
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from redacto.document import Box, Element
from redacto.pdf.geometry import PageGeometry, pdf_number

FONT_RESOURCE = "F0"
"""The font's name in each page's resources."""
GLYPH_WIDTH = 0.5
"""Every glyph's advance, in ems: a word of n characters is n/2 em wide before stretching."""
ASCENT, DESCENT = 0.8, -0.2
"""The font's ascent and descent in ems: the font size that fills a box is its height."""
MIN_GAP_EM = 0.15
"""The narrowest gap left between two words of a line, in ems of their size (their boxes'
height): poppler starts a new word at a gap of 0.1 em, so this leaves a margin."""
MIN_SPACE_EM = 0.1
"""The narrowest space drawn between two words of a line (where the gap could not be
widened to `MIN_GAP_EM`), in ems of their size."""
COVER_MARGIN_PX = 1.0
"""A character whose centre is this close to a burned box counts as under it (the check
after writing uses the box itself, so rounding can never tip a written word over it)."""

_LIGATURES = {code: unicodedata.normalize("NFKC", chr(code)) for code in range(0xFB00, 0xFB07)}
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def layer_text(text: str) -> str:
    """A word as its layer holds it: ligatures broken up (ﬁ → fi, so a search for "office"
    finds it), runs of white space made one space, control, format, private-use and
    unassigned characters dropped (no reader shows them); empty when nothing is left."""
    plain = text.translate(_LIGATURES)
    kept = "".join(
        " " if char.isspace() else char
        for char in plain
        if char.isspace() or unicodedata.category(char) not in _DROPPED
    )
    return " ".join(kept.split())


@dataclass(frozen=True)
class LayerWord:
    """One word of a page's text layer: its text (`layer_text`), the box it fills in pixels
    of the page as read (y downward: the word's own box, narrowed a little where it would
    touch the next word of its line), and whether it begins a line (no space before it)."""

    text: str
    box: Box
    new_line: bool

    def char_centres(self) -> list[tuple[float, float]]:
        """Where each character's centre falls, in pixels: the glyphs share the box's width
        equally (they are all as wide), and sit on its middle height."""
        step = self.box.width / len(self.text)
        middle = (self.box.y0 + self.box.y1) / 2
        return [(self.box.x0 + (i + 0.5) * step, middle) for i in range(len(self.text))]


def layer_words(kept: Sequence[Element], burned: Sequence[Box]) -> list[LayerWord]:
    """The text layer of one page: its `kept` elements (reading order) that can be placed —
    a box with some area, some text once made plain — and that no `burned` box touches at
    any of their characters; none at all on a page with right-to-left text, which pdfium
    reorders as it reads it, so that its check after writing could never pass."""
    covers = [_grown(box) for box in burned]
    words: list[LayerWord] = []
    previous: LayerWord | None = None
    for element in kept:
        text = layer_text(element.text)
        box = element.box
        if not text or box is None or box.width < 1 or box.height < 1:
            continue
        new_line = previous is None or _starts_line(previous.box, box)
        for word in _split(LayerWord(text, box, new_line)):
            if not _covered(word, covers):
                words.append(word)
                previous = word
    spread: list[LayerWord] = []
    line_starts = False  # a word left out began its line: the next one begins it now
    for word in _spread(words):
        if _covered(word, covers):
            line_starts = line_starts or word.new_line
            continue
        if line_starts and not word.new_line:
            word = LayerWord(word.text, word.box, new_line=True)
        spread.append(word)
        line_starts = False
    if any(_right_to_left(word.text) for word in spread):
        return []
    return spread


def _covered(word: LayerWord, covers: Sequence[tuple[float, float, float, float]]) -> bool:
    return any(_inside(c, cover) for c in word.char_centres() for cover in covers)


def _spread(words: list[LayerWord]) -> list[LayerWord]:
    """The words of a line pulled apart where their boxes (padded, or OCR's) come closer than
    `MIN_GAP_EM` of the line's height: each gives up half of what is missing on the side
    facing the other, down to half its width. poppler joins words closer than a tenth of
    the font size into one ("PATIENTINTAKE"), whatever is drawn between them."""
    edges = [[word.box.x0, word.box.x1] for word in words]
    for position in range(1, len(words)):
        before, after = words[position - 1], words[position]
        if after.new_line:
            continue
        need = MIN_GAP_EM * max(before.box.height, after.box.height)
        missing = need - (edges[position][0] - edges[position - 1][1])
        if missing > 0:
            edges[position - 1][1] = max(
                edges[position - 1][1] - missing / 2, edges[position - 1][0] + before.box.width / 2
            )
            edges[position][0] = min(
                edges[position][0] + missing / 2, after.box.x1 - after.box.width / 2
            )
    return [
        word
        if [word.box.x0, word.box.x1] == edge
        else LayerWord(
            word.text, word.box.model_copy(update={"x0": edge[0], "x1": edge[1]}), word.new_line
        )
        for word, edge in zip(words, edges, strict=True)
    ]


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL", "AN") for char in text)


def _split(word: LayerWord) -> list[LayerWord]:
    """A word read with spaces inside (an OCR word can be) as one word per piece, each on
    its characters' share of the box, so every extractor reads the same pieces."""
    if " " not in word.text:
        return [word]
    step = word.box.width / len(word.text)
    pieces: list[LayerWord] = []
    start = 0
    for piece in word.text.split(" "):
        box = word.box.model_copy(
            update={
                "x0": word.box.x0 + start * step,
                "x1": word.box.x0 + (start + len(piece)) * step,
            }
        )
        pieces.append(LayerWord(piece, box, word.new_line and not pieces))
        start += len(piece) + 1
    return pieces


def _grown(box: Box) -> tuple[float, float, float, float]:
    m = COVER_MARGIN_PX
    return (
        math.floor(box.x0) - m,
        math.floor(box.y0) - m,
        math.ceil(box.x1) + m,
        math.ceil(box.y1) + m,
    )


def _inside(point: tuple[float, float], area: tuple[float, float, float, float]) -> bool:
    x, y = point
    return area[0] <= x <= area[2] and area[1] <= y <= area[3]


def _starts_line(previous: Box, box: Box) -> bool:
    """A word begins a line when it sits left of the word before it, or its vertical centre
    is outside that word's height (the rule `redacto.pipeline.page_text` reads lines by)."""
    centre = (box.y0 + box.y1) / 2
    return box.x0 < previous.x0 or not previous.y0 <= centre <= previous.y1


class CharacterCodes:
    """The document's characters and their 2-byte codes (from 1, in order of first use):
    one table for the whole PDF, written once as the font's ToUnicode map."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}

    def encode(self, text: str) -> str:
        """`text` as the hex string a `Tj` shows; new characters get the next codes."""
        for char in text:
            if char not in self.codes:
                if len(self.codes) >= 0xFFFE:
                    raise ValueError("the text layer has more than 65,534 distinct characters")
                self.codes[char] = len(self.codes) + 1
        return "<" + "".join(f"{self.codes[char]:04X}" for char in text) + ">"

    def __len__(self) -> int:
        return len(self.codes)


@dataclass(frozen=True)
class PageSpace:
    """From pixels of the page as read (y downward) to points of the output page (y up):
    the output page is the original's visible area, upright, from (0, 0), and the image
    fills it, so a pixel is `width / pixels` points (pdfium's own mapping)."""

    geometry: PageGeometry

    def x(self, px: float) -> float:
        return px * self.geometry.width / self.geometry.pixels[0]

    def y(self, py: float) -> float:
        return self.geometry.height - py * self.geometry.height / self.geometry.pixels[1]

    def box(self, box: Box) -> tuple[float, float, float, float]:
        """A pixel box in points: left, bottom, right, top."""
        return self.x(box.x0), self.y(box.y1), self.x(box.x1), self.y(box.y0)


def page_text_operators(
    words: Sequence[LayerWord], geometry: PageGeometry, codes: CharacterCodes
) -> bytes:
    """The content stream part that draws `words` invisibly (empty for no words)."""
    if not words:
        return b""
    space = PageSpace(geometry)
    out = [f"BT 3 Tr /{FONT_RESOURCE} 1 Tf"]
    for position, word in enumerate(words):
        left, bottom, right, top = space.box(word.box)
        size = top - bottom
        baseline = bottom - DESCENT * size
        out.append(_show(word.text, left, right - left, size, baseline, codes))
        following = words[position + 1] if position + 1 < len(words) else None
        if following is not None and not following.new_line:
            start, width = _space(left, right, space.x(following.box.x0), MIN_SPACE_EM * size)
            out.append(_show(" ", start, width, size, baseline, codes))
    out.append("ET")
    return ("\n".join(out) + "\n").encode("ascii")


def _space(left: float, right: float, following: float, narrowest: float) -> tuple[float, float]:
    """Where the space between a word (`left` to `right`) and the next (from `following`)
    starts, and its width: over the gap, or where the boxes touch or overlap (OCR's often
    do), `narrowest` wide across their meeting point — never narrower, or pdfium drops it
    as having no width, and starting between the two words' starts, as extractors order a
    line's text by where each piece starts."""
    if following - right >= narrowest:
        return right, following - right
    meeting = min(right, following)
    return max(meeting - narrowest / 2, (left + meeting) / 2), narrowest


def _show(
    text: str, left: float, width: float, size: float, baseline: float, codes: CharacterCodes
) -> str:
    """One text object: `text` stretched to `width` points at font size `size`."""
    stretch = width / (len(text) * GLYPH_WIDTH)
    numbers = " ".join(pdf_number(v) for v in (stretch, 0, 0, size, left, baseline))
    return f"{numbers} Tm {codes.encode(text)} Tj"


@cache
def glyphless_font() -> bytes:
    """The embedded font program (devtools/generated/glyphless_font.py)."""
    return files("redacto.pdf").joinpath("glyphless.ttf").read_bytes()


def font_objects(
    codes: CharacterCodes, font_id: int, next_id: int
) -> Iterator[tuple[int, bytes, bytes | None]]:
    """The font's PDF objects as (number, dictionary, stream or None): the Type0 font as
    `font_id` (the pages name it), the rest numbered from `next_id`."""
    cid_font, descriptor, program, to_unicode, cid_to_gid = range(next_id, next_id + 5)
    yield (
        font_id,
        (
            f"<< /Type /Font /Subtype /Type0 /BaseFont /RedactoGlyphless /Encoding /Identity-H "
            f"/DescendantFonts [{cid_font} 0 R] /ToUnicode {to_unicode} 0 R >>"
        ).encode(),
        None,
    )
    yield (
        cid_font,
        (
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /RedactoGlyphless "
            f"{CID_SYSTEM_INFO.decode()} /FontDescriptor {descriptor} 0 R "
            f"/DW {int(GLYPH_WIDTH * 1000)} /CIDToGIDMap {cid_to_gid} 0 R >>"
        ).encode(),
        None,
    )
    ascent, descent = int(ASCENT * 1000), int(DESCENT * 1000)
    yield (
        descriptor,
        (
            f"<< /Type /FontDescriptor /FontName /RedactoGlyphless /Flags 4 "
            f"/FontBBox [0 {descent} {int(GLYPH_WIDTH * 1000)} {ascent}] /ItalicAngle 0 "
            f"/Ascent {ascent} /Descent {descent} /CapHeight {ascent} /StemV 80 "
            f"/FontFile2 {program} 0 R >>"
        ).encode(),
        None,
    )
    font = glyphless_font()
    yield _stream(program, font, f"/Length1 {len(font)} ")
    yield _stream(to_unicode, _to_unicode_cmap(codes))
    # Every code is drawn with glyph 1, the empty one: 2 bytes a code, code 0 unused.
    yield _stream(cid_to_gid, b"\x00\x00" + b"\x00\x01" * len(codes))


CID_SYSTEM_INFO = b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
"""The only strings the output's structure may hold (a CIDFont must name its character
collection); the check after writing allows these and no other."""


def _stream(number: int, data: bytes, extra: str = "") -> tuple[int, bytes, bytes]:
    packed = zlib.compress(data, 9)
    return number, f"<< {extra}/Filter /FlateDecode /Length {len(packed)} >>".encode(), packed


def _to_unicode_cmap(codes: CharacterCodes) -> bytes:
    """Each code's character, as UTF-16BE (a surrogate pair beyond the BMP)."""
    entries = [
        f"<{code:04X}> <{char.encode('utf-16-be').hex().upper()}>"
        for char, code in codes.codes.items()
    ]
    chunks = [entries[i : i + 100] for i in range(0, len(entries), 100)]
    body = "".join(
        f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar\n" for chunk in chunks
    )
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        f"{body}endcmap\nCMapName currentdict /CMapResource defineresource pop\nend\nend\n"
    ).encode("ascii")
