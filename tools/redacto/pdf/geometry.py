"""A PDF page's geometry, measured once from its boxes and carried to the writer and checker.

A page shows its CropBox (clipped to its MediaBox), turned by /Rotate. That area, upright,
is what `read_pdf` renders and reads at `PDF_DPI`, what `write_redacted_pdf` rebuilds, and
what `verify_redacted_pdf` checks the output against. Sizes are kept in points (PDF canvas
units) as pdfium holds them, and pixels are derived from points in one place
(`PageGeometry.pixels`, the arithmetic pypdfium2's `render` uses), so the three steps agree
to the pixel on any page size: A4's 595 x 842 pt is 1652.8 x 2338.9 px at 200 dpi, and a
size written back from rounded pixels does not survive the round trip.

/UserUnit (PDF 1.6: a canvas unit longer than 1/72 in) is neither exposed nor applied by
pdfium, so a page that declares one is measured, rendered, burned and rebuilt in canvas
units throughout: its boxes still sit on its words, but the output does not carry the unit
(docs/pdf-output.md, "Page geometry").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

PDF_DPI = 200
"""Pages are read and re-rendered at this resolution: small print stays legible to OCR and
a page of US Letter is 1700 x 2200 pixels (11 MB of RGB while it is worked on)."""

POINTS_PER_INCH = 72
SAME_SIZE_PT = 0.01
"""Two page sizes within this many points are the same (pdfium keeps sizes as 32-bit floats,
and a size written as text is read back to within one of their steps)."""


@dataclass(frozen=True)
class PageGeometry:
    """The area of a page a viewer shows, upright, in points, and its pixels at `dpi`.

    `width` and `height` are the upright size of the CropBox clipped to the MediaBox (turned
    by `rotation`, /Rotate in degrees clockwise); `left` and `bottom` are that area's lower
    left corner in the page's own (unrotated) space, non-zero for an offset CropBox or
    MediaBox. Pixels are counted from the area's upper-left corner as the page is shown.
    """

    width: float
    height: float
    left: float = 0.0
    bottom: float = 0.0
    rotation: int = 0
    dpi: int = PDF_DPI

    @classmethod
    def of_page(cls, page: Any, dpi: int = PDF_DPI) -> PageGeometry:
        """Measure a pypdfium2 page: its bounding box (CropBox within MediaBox) and /Rotate."""
        left, bottom, _, _ = page.get_bbox()
        return cls(
            width=float(page.get_width()),
            height=float(page.get_height()),
            left=float(left),
            bottom=float(bottom),
            rotation=int(page.get_rotation()),
            dpi=dpi,
        )

    @property
    def pixels(self) -> tuple[int, int]:
        """The page rendered at `dpi`: exactly the size pypdfium2's `render` makes."""
        scale = self.dpi / POINTS_PER_INCH
        return math.ceil(self.width * scale), math.ceil(self.height * scale)

    def same_size(self, other: PageGeometry) -> bool:
        """Whether `other` shows an area of this size, in points and in pixels."""
        return (
            abs(self.width - other.width) <= SAME_SIZE_PT
            and abs(self.height - other.height) <= SAME_SIZE_PT
            and self.pixels == other.pixels
        )

    def describe(self) -> str:
        """The size for a message: points (rounded) and pixels; never document content."""
        return (
            f"{self.width:g} x {self.height:g} pt ({self.pixels[0]} x {self.pixels[1]} px "
            f"at {self.dpi} dpi)"
        )


def pdf_number(value: float) -> str:
    """`value` as a PDF number that pdfium reads back as the same 32-bit float.

    pdfium keeps coordinates as 32-bit floats; the shortest decimal that names that float
    ("777.3" for 777.2999877929688) is parsed back to it, where a rounded or long decimal
    could land one step away and change a page's pixel count.
    """
    return np.format_float_positional(np.float32(value), trim="-")
