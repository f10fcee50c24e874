"""A page stored with /Rotate 90 (a landscape scan turned upright) is redacted where it shows.

The content is drawn turned a quarter counter-clockwise, so the page reads upright once the
viewer applies /Rotate 90 (clockwise). Boxes are pixels of that upright page, the one
`redacted.pdf` shows: the name must be black there and the label beside it untouched.
"""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from pdf_builder import PAGE_H, PAGE_W, Doc, Page
from traps import redact_scripted

from redacto.pdf import PDF_DPI, render_page
from redacto.report import Status

pytestmark = pytest.mark.slow  # PP-OCR reads the page

SCALE = PDF_DPI / 72


def upright_line(x: float, baseline: float, words: str) -> str:
    """Text at (x, baseline) of the upright page, in points from its top-left corner.

    On a /Rotate 90 page an upright point (X, Y) is the user-space point (Y, X), and the
    glyphs run along +y with their tops towards -x.
    """
    return f"BT /F1 14 Tf 0 0 0 rg 0 1 -1 0 {baseline} {x} Tm ({words}) Tj ET\n"


def rotated_pdf(path):
    flat = path.with_name("flat.pdf")
    content = upright_line(54, 100, "Patient: Jane Smith") + upright_line(54, 140, "Ward: North")
    Doc([Page(content)]).write(flat)
    pdf = pdfium.PdfDocument(str(flat))
    pdf[0].set_rotation(90)
    pdf.save(str(path))
    pdf.close()
    return path


def test_a_rotated_page_is_read_upright_and_boxed_where_the_name_shows(tmp_path):
    source = rotated_pdf(tmp_path / "rotated.pdf")
    replies = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["NAME: Jane Smith"],
        "validate": ["PASS"],
    }
    outcome = redact_scripted(source, replies, tmp_path / "out")
    report = outcome.report
    assert report.status is Status.PASS, report.error
    assert report.pdf is not None
    page = report.pdf.pages[0]
    # Upright: as wide as the stored page is tall, and read by OCR (not the text layer).
    assert (page.width, page.height) == (round(PAGE_H * SCALE), round(PAGE_W * SCALE))
    assert page.source == "ocr"
    assert len(page.boxes) == 2  # Jane, Smith

    # The name sits on the first line, after "Patient: " (upright points: x 110-190,
    # baseline 100, 14 pt type).
    name = (110 * SCALE, 90 * SCALE, 185 * SCALE, 102 * SCALE)
    for box in page.boxes:
        assert box.y0 < name[1] + 5 and box.y1 > name[3] - 5
        assert box.x0 > 90 * SCALE  # nothing reaches into "Patient:"

    written = next(p for p in outcome.written if p.name == "redacted.pdf")
    pdf = pdfium.PdfDocument(str(written))
    try:
        pixels = np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()
    x0, y0, x1, y1 = (int(v) for v in name)
    assert pixels.shape == (page.height, page.width)
    assert (pixels[y0:y1, x0:x1] < 30).mean() > 0.95  # the name is black
    label = pixels[y0:y1, int(54 * SCALE) : int(100 * SCALE)]
    # "Patient:" is still ink on paper.
    assert (label < 128).mean() < 0.5 and (label > 200).mean() > 0.3
