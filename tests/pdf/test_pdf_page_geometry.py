"""Every page shape survives the round trip: read, burn, write, check (A4 PDFs
once ended in ERROR, "page 1 has another size", because the written page's size was rebuilt
from rounded pixels and rendered one pixel wider).

Each shape of `page_shapes.SHAPES`, born-digital and scanned, is read (`InkOcr` stands in for
OCR, so these run in seconds), its name boxed, and written through the product's own
write-verify-rename step. The output page must be the size in points a viewer shows for the
original, upright, render at the original's pixels, show the label exactly where the
original does, and be black wherever the original shows the name.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from devtools.fixtures.pdf_builder import Doc, write_objects
from page_shapes import SHAPES, InkOcr, Shape
from redacto.document import Box
from redacto.pdf import PDF_DPI, PdfVerificationError, read_pdf, render_page, verify_redacted_pdf
from redacto.pdf.geometry import PageGeometry, pdf_number
from redacto.pdf.output import verified_pdf_bytes

SCALE = PDF_DPI / 72
KINDS = ["born-digital", "scanned"]


def build(tmp_path: Path, shape: Shape, kind: str) -> Path:
    return Doc([shape.page(scanned=kind == "scanned")]).write(tmp_path / "in.pdf")


def rendered(path: Path) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()


def mask(shape: tuple[int, ...], boxes: list[Box]) -> np.ndarray:
    inside = np.zeros(shape, dtype=bool)
    for box in boxes:
        inside[int(box.y0) : math.ceil(box.y1), int(box.x0) : math.ceil(box.x1)] = True
    return inside


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_a_page_is_measured_from_its_boxes_and_rotation(tmp_path, shape):
    source = build(tmp_path, shape, "born-digital")
    pdf = pdfium.PdfDocument(str(source))
    try:
        geometry = PageGeometry.of_page(pdf[0])
    finally:
        pdf.close()
    width, height = shape.upright
    assert (geometry.width, geometry.height) == pytest.approx((width, height), abs=1e-3)
    assert (geometry.left, geometry.bottom) == pytest.approx(shape.visible[:2], abs=1e-3)
    assert geometry.rotation == shape.rotate
    assert geometry.pixels == (math.ceil(width * SCALE - 1e-3), math.ceil(height * SCALE - 1e-3))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_the_redacted_page_keeps_its_size_and_covers_the_name(tmp_path, shape, kind):
    source = build(tmp_path, shape, kind)
    read = read_pdf(source, ocr=InkOcr())
    page = read.pages[0]
    words = read.document.elements
    # Patient: | Jane | Smith, from the text layer or from the ink.
    assert len(words) == 3, [w.box for w in words]
    # A page with /Rotate is read from its text layer too, along its characters' baselines.
    assert (page.source.value == "text_layer") == (kind == "born-digital")
    label, names = words[0].box, [w.box for w in words[1:]]
    assert label is not None and all(box is not None for box in names)
    target = tmp_path / "redacted.pdf"
    target.write_bytes(verified_pdf_bytes(read, [names], ["Jane", "Smith"]))

    width, height = shape.upright
    expected_pixels = (math.ceil(width * SCALE - 1e-3), math.ceil(height * SCALE - 1e-3))
    assert page.size == expected_pixels
    out = pdfium.PdfDocument(str(target))
    try:
        assert out[0].get_size() == pytest.approx((width, height), abs=1e-3)
        assert out[0].get_rotation() == 0
    finally:
        out.close()

    before, after = rendered(source), rendered(target)
    assert before.shape == after.shape == expected_pixels[::-1]
    boxed = mask(before.shape, names)
    # The name's ink is all under its boxes, and the boxes are black.
    ink = before < 128
    assert ink[boxed].sum() > 50
    assert not (ink & ~boxed & ~mask(before.shape, [label])).any()
    assert (after[boxed] <= 24).mean() > 0.99
    # Everywhere else the page is the original's, pixel for pixel: not moved, cropped,
    # resampled or turned (the label is where the original shows it).
    difference = np.abs(after.astype(int) - before.astype(int))[~boxed]
    assert difference.max() == 0, difference.max()
    assert ink[mask(before.shape, [label])].sum() > 50


def test_a4_has_the_pixels_the_issue_names():
    """A4 is 595 x 842 pt: 1653 x 2339 px at 200 dpi (1652.8 x 2338.9, rounded up)."""
    assert PageGeometry(595, 842).pixels == (1653, 2339)


def test_a_page_of_another_size_fails_the_check(tmp_path):
    shape = SHAPES[1]  # A4
    source = build(tmp_path, shape, "born-digital")
    read = read_pdf(source, ocr=InkOcr())
    target = tmp_path / "redacted.pdf"
    target.write_bytes(verified_pdf_bytes(read, [[]], []))
    letter = PageGeometry(612, 792)
    with pytest.raises(PdfVerificationError, match="page 1 has another size: 595 x 842 pt"):
        verify_redacted_pdf(target, [[]], pages=[letter], values=[])
    turned = PageGeometry(842, 595)
    with pytest.raises(PdfVerificationError, match="page 1 has another size"):
        verify_redacted_pdf(target, [[]], pages=[turned], values=[])


def test_page_sizes_written_as_text_are_read_back_exactly(tmp_path):
    """pdfium keeps sizes as 32-bit floats: what the writer prints must parse to the same one,
    or a page one step off can render one pixel wider."""
    generator = random.Random(31)
    sizes = [(595, 842), (300.5, 777.3), (595.276, 841.89)]
    sizes += [(generator.uniform(3, 14400), generator.uniform(3, 14400)) for _ in range(2000)]
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    for width, height in sizes:
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pdf_number(width)} "
            f"{pdf_number(height)}] >>".encode()
        )
    kids = " ".join(f"{number} 0 R" for number in range(3, len(objects) + 1))
    objects[1] = f"<< /Type /Pages /Kids [{kids}] /Count {len(sizes)} >>".encode()
    path = write_objects(tmp_path / "sizes.pdf", objects, "/Root 1 0 R")
    pdf = pdfium.PdfDocument(str(path))
    try:
        for number, (width, height) in enumerate(sizes):
            expected = (float(np.float32(width)), float(np.float32(height)))
            assert pdf[number].get_size() == expected
    finally:
        pdf.close()
