"""Make `proofread.pdf`: the original document with one highlight per placed mistake.

The input's PDF to draw on (`InputFile.page_pdf`: a PDF's own bytes, or a one-page PDF
of a photo, Pillow, no metadata carried over) is opened with pdfium, a highlight
annotation (`/Subtype /Highlight`, its quadrilaterals over the words, the correction and
the description in `/Contents`, the note a PDF reader shows) is added to the mistake's
page, and a copy is saved, in memory: the input file is never written. Boxes come in
points from the upright page's top-left corner, as `mistakes.json` gives them, and are
turned into the page's own space here (its CropBox offset and /Rotate).
"""

from __future__ import annotations

import ctypes
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redacto.proofread.mistakes import PlacedMistake

if TYPE_CHECKING:
    from redacto.pdf.geometry import PageGeometry

HIGHLIGHT_RGB = (255, 214, 0)
AUTHOR = "Redacto proofread"


@dataclass(frozen=True)
class PageFrame:
    """An output page's visible area: its upright size and where it lies in page space."""

    width: float
    height: float
    left: float = 0.0
    bottom: float = 0.0
    rotation: int = 0

    @classmethod
    def of(cls, geometry: PageGeometry) -> PageFrame:
        return cls(
            geometry.width, geometry.height, geometry.left, geometry.bottom, geometry.rotation
        )

    def user_point(self, x: float, y: float) -> tuple[float, float]:
        """The page-space point shown at (x, y) points from the upright page's top-left."""
        upright_w, upright_h = self.width, self.height
        right = self.left + (upright_h if self.rotation % 180 else upright_w)
        top = self.bottom + (upright_w if self.rotation % 180 else upright_h)
        return {
            0: (self.left + x, top - y),
            90: (self.left + y, self.bottom + x),
            180: (right - x, self.bottom + y),
            270: (right - y, top - x),
        }[self.rotation % 360]


def proofread_pdf(source: bytes, mistakes: Sequence[PlacedMistake]) -> bytes:
    """A copy of the PDF `source` with a highlight per located mistake on its page, made in
    memory (`source` itself is only read)."""
    import pypdfium2 as pdfium

    from redacto.pdf.geometry import PageGeometry

    pdf = pdfium.PdfDocument(source)
    try:
        for mistake in mistakes:
            if not mistake.located or mistake.page is None or not mistake.boxes:
                continue
            page = pdf[mistake.page - 1]
            try:
                _highlight(page, PageFrame.of(PageGeometry.of_page(page)), mistake)
            finally:
                page.close()
        copy = io.BytesIO()
        pdf.save(copy)
        return copy.getvalue()
    finally:
        pdf.close()


def note_text(mistake: PlacedMistake) -> str:
    """What a PDF reader shows in the highlight's note."""
    correction = f"→ {mistake.correction}" if mistake.correction else "→ (no suggestion)"
    return f"{correction}\n{mistake.description}".strip()


def _highlight(page: Any, frame: PageFrame, mistake: PlacedMistake) -> None:
    import pypdfium2.raw as pdfium_c

    annot = pdfium_c.FPDFPage_CreateAnnot(page.raw, pdfium_c.FPDF_ANNOT_HIGHLIGHT)
    if not annot:
        raise RuntimeError("pdfium could not create a highlight annotation")
    try:
        xs: list[float] = []
        ys: list[float] = []
        for x0, y0, x1, y1 in mistake.boxes:
            # Quad order readers expect: upper-left, upper-right, lower-left, lower-right.
            corners = [frame.user_point(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
            quad = pdfium_c.FS_QUADPOINTSF(*(value for corner in corners for value in corner))
            if not pdfium_c.FPDFAnnot_AppendAttachmentPoints(annot, quad):
                raise RuntimeError("pdfium could not set a highlight's area")
            xs += [x for x, _ in corners]
            ys += [y for _, y in corners]
        rect = pdfium_c.FS_RECTF(min(xs), max(ys), max(xs), min(ys))
        pdfium_c.FPDFAnnot_SetRect(annot, rect)
        pdfium_c.FPDFAnnot_SetColor(annot, pdfium_c.FPDFANNOT_COLORTYPE_Color, *HIGHLIGHT_RGB, 255)
        pdfium_c.FPDFAnnot_SetFlags(annot, pdfium_c.FPDF_ANNOT_FLAG_PRINT)
        for key, value in (("Contents", note_text(mistake)), ("T", AUTHOR), ("Subj", "Proofread")):
            pdfium_c.FPDFAnnot_SetStringValue(annot, key.encode(), _wide(value))
    finally:
        pdfium_c.FPDFPage_CloseAnnot(annot)


def _wide(text: str) -> Any:
    """A NUL-terminated UTF-16LE string, as pdfium's FPDF_WIDESTRING wants."""
    data = (text + "\x00").encode("utf-16-le")
    buffer = ctypes.create_string_buffer(data, len(data))
    return ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort))
