"""Pages of every shape the page-geometry tests redact: paper sizes, offset boxes, /Rotate,
/UserUnit, an odd size; each born-digital (a text layer) or scanned (an image of the text).

Every page shows, as a viewer draws it upright, one line near its top-left corner:
`Patient:   Jane   Smith` (wide gaps, so `InkOcr` tells the words apart). The content is
drawn in the page's own space so that it reads upright once /Rotate is applied.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from devtools.fixtures.pdf_builder import Page
from redacto.document import Box, Element
from redacto.ocr.base import OcrEngine

LINE = "Patient:   Jane   Smith"
TOP, LEFT = 60.0, 40.0  # the line's baseline and start, in points from the upright top-left
SIZE = 14


@dataclass(frozen=True)
class Shape:
    """A page's boxes and rotation, and the upright size in points a viewer shows."""

    name: str
    media_box: tuple[float, float, float, float]
    crop_box: tuple[float, float, float, float] | None = None
    rotate: int = 0
    user_unit: float | None = None

    @property
    def visible(self) -> tuple[float, float, float, float]:
        """The CropBox clipped to the MediaBox: left, bottom, right, top."""
        box = self.crop_box or self.media_box
        m = self.media_box
        return (max(box[0], m[0]), max(box[1], m[1]), min(box[2], m[2]), min(box[3], m[3]))

    @property
    def upright(self) -> tuple[float, float]:
        left, bottom, right, top = self.visible
        width, height = right - left, top - bottom
        return (height, width) if self.rotate % 180 else (width, height)

    def user_point(self, x: float, y: float) -> tuple[float, float]:
        """The page-space point shown at (x, y) points from the upright page's top-left."""
        left, bottom, right, top = self.visible
        return {
            0: (left + x, top - y),
            90: (left + y, bottom + x),  # /Rotate 90 turns the page clockwise
            180: (right - x, bottom + y),
            270: (right - y, top - x),
        }[self.rotate]

    def text_matrix(self) -> str:
        """The text matrix's turn, so glyphs run left to right on the upright page."""
        return {0: "1 0 0 1", 90: "0 1 -1 0", 180: "-1 0 0 -1", 270: "0 -1 1 0"}[self.rotate]

    def page(self, *, scanned: bool) -> Page:
        geometry = {
            "media_box": self.media_box,
            "crop_box": self.crop_box,
            "rotate": self.rotate,
            "user_unit": self.user_unit,
        }
        if not scanned:
            x, y = self.user_point(LEFT, TOP)
            content = f"BT /F1 {SIZE} Tf 0 0 0 rg {self.text_matrix()} {x} {y} Tm ({LINE}) Tj ET\n"
            return Page(content, **geometry)
        left, bottom, right, top = self.visible
        content = f"q {right - left} 0 0 {top - bottom} {left} {bottom} cm /Scan Do Q\n"
        return Page(content, images={"Scan": self.scan()}, **geometry)

    def scan(self, dpi: int = 150) -> Image.Image:
        """The line as a scanner would capture the upright page, stored turned back by
        /Rotate (the image is drawn over the page's unrotated visible area)."""
        width, height = (round(v * dpi / 72) for v in self.upright)
        image = Image.new("RGB", (width, height), (255, 255, 255))
        font = ImageFont.load_default(size=round(SIZE * 1.4 * dpi / 72))
        x, y = LEFT * dpi / 72, (TOP - SIZE * 1.2) * dpi / 72
        ImageDraw.Draw(image).text((x, y), LINE, fill=(0, 0, 0), font=font)
        # PIL turns counter-clockwise; the viewer turns the page back clockwise.
        return image.rotate(self.rotate, expand=True) if self.rotate else image


SHAPES = [
    Shape("letter", (0, 0, 612, 792)),
    Shape("a4", (0, 0, 595, 842)),
    Shape("legal", (0, 0, 612, 1008)),
    Shape("a5", (0, 0, 420, 595)),
    Shape("odd size", (0, 0, 300.5, 777.3)),
    Shape("offset crop box", (0, 0, 612, 792), crop_box=(50, 100, 400, 500)),
    Shape("offset media box", (10, 20, 605, 862)),
    Shape("crop box past the media box", (0, 0, 595, 842), crop_box=(-20, 400, 300, 900)),
    Shape("a4 rotated 90", (0, 0, 595, 842), rotate=90),
    Shape("a4 rotated 180", (0, 0, 595, 842), rotate=180),
    Shape(
        "offset crop box rotated 270", (0, 0, 612, 792), crop_box=(50, 100, 400, 500), rotate=270
    ),
    Shape("user unit 2", (0, 0, 306, 396), user_unit=2),
]


class InkOcr(OcrEngine):
    """A stand-in for OCR that finds words as runs of ink: rows of ink separated by blank
    rows are lines, and ink separated by `gap` blank columns is words (`w0`, `w1`…)."""

    name = "ink"

    def __init__(self, gap: int = 12) -> None:
        self.gap = gap

    def read(self, image: Image.Image) -> list[Element]:
        ink = np.asarray(image.convert("L")) < 128
        words: list[Element] = []
        for top, bottom in _runs(ink.any(axis=1), 2):
            for left, right in _runs(ink[top:bottom].any(axis=0), self.gap):
                box = Box(x0=left - 2, y0=top - 2, x1=right + 2, y1=bottom + 2)
                words.append(Element(index=len(words), text=f"w{len(words)}", box=box))
        return words


def _runs(filled: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """Runs of True, merging runs fewer than `gap` False values apart: [(start, end)]."""
    runs: list[tuple[int, int]] = []
    for position in np.flatnonzero(filled):
        if runs and position - runs[-1][1] < gap:
            runs[-1] = (runs[-1][0], int(position) + 1)
        else:
            runs.append((int(position), int(position) + 1))
    return runs
