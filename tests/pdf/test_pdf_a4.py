"""An A4 PDF, born-digital and scanned, through `redacto redact FILE.pdf --out DIR` (A4
pages once ended in ERROR, "the redacted PDF failed its check after writing: page 1 has
another size"). Real PP-OCR reads the pages; the model is scripted."""

from __future__ import annotations

import json

import numpy as np
import pypdfium2 as pdfium
import pytest

from cli_runs import redact, script
from devtools.fixtures.pdf_builder import Doc
from page_shapes import SHAPES
from redacto.pdf import render_page

pytestmark = pytest.mark.slow  # PP-OCR reads the pages

A4 = next(shape for shape in SHAPES if shape.name == "a4")


@pytest.mark.parametrize("kind", ["born-digital", "scanned"])
def test_an_a4_pdf_redacts_verified(tmp_path, kind):
    source = Doc([A4.page(scanned=kind == "scanned")]).write(tmp_path / "a4.pdf")
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=["1:NAME\n2:NAME"],  # Patient: | Jane | Smith
        validate=["PASS"],
    )
    out = tmp_path / "out"
    result = redact(source, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "PASS", report.get("error")
    assert report["pdf"]["verified"] is True
    page = report["pdf"]["pages"][0]
    assert (page["width"], page["height"]) == (1653, 2339)
    assert (page["width_pt"], page["height_pt"], page["rotation"]) == (595, 842, 0)
    assert page["source"] == ("text_layer" if kind == "born-digital" else "ocr")
    assert len(page["boxes"]) == 2  # Jane, Smith
    assert (out / "redacted.txt").read_text(encoding="utf-8") == "Patient: [NAME_1] [NAME_2]"

    pdf = pdfium.PdfDocument(str(out / "redacted.pdf"))
    try:
        assert pdf[0].get_size() == (595, 842)
        pixels = np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()
    assert pixels.shape == (2339, 1653)
    for box in page["boxes"]:
        x0, y0, x1, y1 = (int(box[key]) for key in ("x0", "y0", "x1", "y1"))
        assert (pixels[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1] <= 24).all()
