"""Draw a corpus document's text on a clean page and record every word's ink box.

Text conventions the templates follow: blank lines separate blocks; a line holding tabs is a
table row (one cell per tab-separated part); everything else is a paragraph line, wrapped to
the column. The document's layout adds a letterhead, two-column flow, form field boxes or
table rules. Words keep their character offsets, so gold spans map onto boxes exactly.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from redacto.corpus.schema import Layout

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
PAGE_WIDTH = 1100
MARGIN = 60
COLUMN_GAP = 40
CELL_PAD = 12
_WORD = re.compile(r"\S+")


class FontMissingError(RuntimeError):
    """A font the renderer needs is not installed (Debian fonts-dejavu-core, fonts-liberation)."""


@dataclass(frozen=True)
class FontPair:
    """A regular and a bold face of one family, by file name."""

    regular: str
    bold: str


def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A TrueType font from the Debian font directories."""
    for directory in FONT_DIRS:
        path = directory / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    raise FontMissingError(f"font {name} not found; install fonts-dejavu-core and fonts-liberation")


@dataclass(frozen=True)
class PlacedWord:
    """A word drawn on the clean page: characters [start, end) of the text, ink box in px.

    `font` and `origin` (Pillow's left-ascender anchor) say how it was drawn, so the same
    word can be drawn again elsewhere, e.g. as real text in a born-digital PDF.
    """

    text: str
    start: int
    end: int
    box: tuple[float, float, float, float]
    font: ImageFont.FreeTypeFont | None = field(default=None, compare=False, repr=False)
    origin: tuple[float, float] = (0.0, 0.0)


@dataclass
class _Style:
    regular: ImageFont.FreeTypeFont
    bold: ImageFont.FreeTypeFont
    large: ImageFont.FreeTypeFont
    line_height: int
    ink: tuple[int, int, int]


@dataclass
class _Run:
    """One word waiting to be placed: its text, offsets and font."""

    text: str
    start: int
    end: int
    font: ImageFont.FreeTypeFont


@dataclass
class _Canvas:
    draw: ImageDraw.ImageDraw
    style: _Style
    words: list[PlacedWord] = field(default_factory=list)

    def put(self, run: _Run, x: float, y: float) -> None:
        self.draw.text((x, y), run.text, font=run.font, fill=self.style.ink)
        box = self.draw.textbbox((x, y), run.text, font=run.font)
        x0, y0, x1, y1 = (float(v) for v in box)
        self.words.append(
            PlacedWord(run.text, run.start, run.end, (x0, y0, x1, y1), run.font, (x, y))
        )


def _runs(text: str, offset: int, font: ImageFont.FreeTypeFont) -> list[_Run]:
    return [
        _Run(m.group(0), offset + m.start(), offset + m.end(), font) for m in _WORD.finditer(text)
    ]


def _wrap(runs: list[_Run], width: float) -> list[list[_Run]]:
    """Greedy word wrap; a word wider than the column gets a line of its own."""
    lines: list[list[_Run]] = [[]]
    used = 0.0
    for run in runs:
        space = _gap(lines[-1][-1], run) if lines[-1] else 0.0
        length = run.font.getlength(run.text)
        if lines[-1] and used + space + length > width:
            lines.append([])
            used, space = 0.0, 0.0
        lines[-1].append(run)
        used += space + length
    return [line for line in lines if line]


def _gap(before: _Run, after: _Run) -> float:
    """The blank between two words: as many spaces as the text holds, so columns stay apart."""
    return before.font.getlength(" ") * max(1, after.start - before.end)


def _line_width(line: list[_Run]) -> float:
    words = sum(r.font.getlength(r.text) for r in line)
    return words + sum(_gap(a, b) for a, b in itertools.pairwise(line))


def _blocks(text: str) -> list[list[tuple[str, int]]]:
    """Lines with their start offsets, grouped into blank-line-separated blocks."""
    blocks: list[list[tuple[str, int]]] = [[]]
    offset = 0
    for line in text.split("\n"):
        if line.strip():
            blocks[-1].append((line, offset))
        elif blocks[-1]:
            blocks.append([])
        offset += len(line) + 1
    return [block for block in blocks if block]


class PageLayout:
    """Lays out and draws one document; `draw()` returns the clean page and its words."""

    def __init__(self, text: str, layout: Layout, fonts: FontPair, size: int, rng: random.Random):
        self.text = text
        self.layout = layout
        ink = rng.randrange(15, 55)
        self.style = _Style(
            regular=load_font(fonts.regular, size),
            bold=load_font(fonts.bold, size),
            large=load_font(fonts.bold, round(size * 1.3)),
            line_height=round(size * 1.45),
            ink=(ink, ink, ink + rng.randrange(0, 20)),
        )
        self.paper = tuple(rng.randrange(238, 253) for _ in range(3))
        self.width = PAGE_WIDTH

    def draw(self) -> tuple[Image.Image, list[PlacedWord]]:
        # Lay out twice: first on a scratch page to learn the height, then for real.
        height = self._place(Image.new("RGB", (self.width, 4000), self.paper))
        page = Image.new("RGB", (self.width, max(height, round(self.width * 1.3))), self.paper)
        canvas = _Canvas(ImageDraw.Draw(page), self.style)
        self._place(page, canvas)
        return page, canvas.words

    def _place(self, page: Image.Image, canvas: _Canvas | None = None) -> int:
        canvas = canvas or _Canvas(ImageDraw.Draw(page), self.style)
        blocks = _blocks(self.text)
        self.width = max(self.width, self._needed_width(blocks))
        y = float(MARGIN)
        content = self.width - 2 * MARGIN
        for number, block in enumerate(blocks):
            if number == 0 and self.layout == "letterhead":
                y = self._letterhead(canvas, block, y, content)
            elif number > 0 and self.layout == "two_column":
                return round(self._two_columns(canvas, blocks[number:], y, content)) + MARGIN
            else:
                y = self._block(canvas, block, MARGIN, y, content, title=number == 0)
            y += self.style.line_height * 0.6
        return round(y) + MARGIN

    def _needed_width(self, blocks: list[list[tuple[str, int]]]) -> int:
        widest = 0.0
        for block in blocks:
            rows = [line for line, _ in block if "\t" in line]
            if rows:
                widest = max(widest, sum(self._min_cell_widths(rows)))
        return max(PAGE_WIDTH, round(widest) + 2 * MARGIN)

    def _min_cell_widths(self, rows: list[str]) -> list[float]:
        columns = max(len(row.split("\t")) for row in rows)
        widths = [0.0] * columns
        for row in rows:
            for column, cell in enumerate(row.split("\t")):
                longest = max((self.style.regular.getlength(w) for w in cell.split()), default=0)
                widths[column] = max(widths[column], longest + 2 * CELL_PAD)
        return widths

    def _letterhead(
        self, canvas: _Canvas, block: list[tuple[str, int]], y: float, content: int
    ) -> float:
        for index, (line, offset) in enumerate(block):
            font = self.style.large if index == 0 else self.style.bold
            for wrapped in _wrap(_runs(line, offset, font), content):
                x = MARGIN + (content - _line_width(wrapped)) / 2
                y = self._line(canvas, wrapped, x, y)
        canvas.draw.line((MARGIN, y + 6, MARGIN + content, y + 6), fill=self.style.ink, width=3)
        return y + 12

    def _two_columns(
        self, canvas: _Canvas, blocks: list[list[tuple[str, int]]], y: float, content: int
    ) -> float:
        column = (content - COLUMN_GAP) / 2
        lines: list[list[_Run] | None] = []  # None marks a block gap
        for block in blocks:
            for source, offset in block:
                lines.extend(
                    _wrap(_runs(source.replace("\t", " "), offset, self.style.regular), column)
                )
            lines.append(None)
        total = sum(
            self.style.line_height if line else self.style.line_height * 0.6 for line in lines
        )
        top, x, left_height, bottom = y, float(MARGIN), 0.0, y
        for line in lines:
            step = self.style.line_height if line else self.style.line_height * 0.6
            if x == MARGIN and line and left_height >= total / 2:
                x, y = MARGIN + column + COLUMN_GAP, top  # the rest flows into the right column
            if line:
                self._line(canvas, line, x, y)
            y += step
            if x == MARGIN:
                left_height += step
            bottom = max(bottom, y)
        return bottom

    def _block(
        self, canvas: _Canvas, block, x: float, y: float, content: int, title: bool
    ) -> float:
        index = 0
        while index < len(block):
            line, offset = block[index]
            if "\t" in line:
                rows = []
                while index < len(block) and "\t" in block[index][0]:
                    rows.append(block[index])
                    index += 1
                y = self._grid(canvas, rows, x, y, content)
                continue
            font = self.style.bold if title and index == 0 else self.style.regular
            for wrapped in _wrap(_runs(line, offset, font), content):
                y = self._line(canvas, wrapped, x, y)
            index += 1
        return y

    def _grid(
        self, canvas: _Canvas, rows: list[tuple[str, int]], x: float, y: float, content: int
    ) -> float:
        minimum = self._min_cell_widths([line for line, _ in rows])
        natural = [0.0] * len(minimum)
        for line, _ in rows:
            for column, cell in enumerate(line.split("\t")):
                natural[column] = max(
                    natural[column], self.style.regular.getlength(cell) + 2 * CELL_PAD
                )
        spare = max(content - sum(minimum), 0)
        want = [max(n - m, 0) for n, m in zip(natural, minimum, strict=True)]
        share = min(1.0, spare / sum(want)) if sum(want) else 0.0
        widths = [m + w * share for m, w in zip(minimum, want, strict=True)]
        if self.layout == "form":
            widths[-1] += content - sum(widths)  # form value boxes run to the margin
        ink, line_height = self.style.ink, self.style.line_height
        for row_number, (line, offset) in enumerate(rows):
            header = self.layout == "table" and row_number == 0
            cells, cell_x, row_lines = [], x, 1
            cell_offset = offset
            for column, cell in enumerate(line.split("\t")):
                font = (
                    self.style.bold
                    if header or (self.layout == "form" and column == 0)
                    else self.style.regular
                )
                wrapped = _wrap(_runs(cell, cell_offset, font), widths[column] - 2 * CELL_PAD)
                cells.append((cell_x, wrapped))
                row_lines = max(row_lines, len(wrapped))
                cell_x += widths[column]
                cell_offset += len(cell) + 1
            row_height = row_lines * line_height + 8
            for column, (cell_x, wrapped) in enumerate(cells):
                cell_y = y + 4
                for line_runs in wrapped:
                    cell_y = self._line(canvas, line_runs, cell_x + CELL_PAD, cell_y)
                if self.layout == "form" and column == len(cells) - 1:
                    canvas.draw.rectangle(
                        (cell_x, y + 1, cell_x + widths[column], y + row_height - 1),
                        outline=ink,
                        width=1,
                    )
            if self.layout == "table":
                canvas.draw.line(
                    (x, y + row_height, x + sum(widths), y + row_height),
                    fill=ink,
                    width=2 if header else 1,
                )
            y += row_height
        return y + 4

    def _line(self, canvas: _Canvas, runs: list[_Run], x: float, y: float) -> float:
        for number, run in enumerate(runs):
            canvas.put(run, x, y)
            if number + 1 < len(runs):
                x += run.font.getlength(run.text) + _gap(run, runs[number + 1])
        return y + self.style.line_height
