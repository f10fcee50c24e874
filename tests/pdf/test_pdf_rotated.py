"""Pages stored with /Rotate 90, 180 and 270 are read from their text layer, redacted where
they show, and `redacted.pdf`'s text layer holds exactly the words they keep.

The content is drawn turned against /Rotate, so each page reads upright once a viewer
applies it (a landscape scan stored as turned), plus one line drawn upright in the page's
own space, which a viewer shows turned. Boxes are pixels of the upright page, the one
`redacted.pdf` shows.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pypdfium2 as pdfium
import pytest
from traps import redact_scripted

from devtools.fixtures.pdf_builder import PAGE_H, PAGE_W, Doc, Page
from redacto.pdf import PDF_DPI, render_page
from redacto.report import ReviewReason, Status

pytestmark = pytest.mark.slow  # PP-OCR reads the page

SCALE = PDF_DPI / 72
ROTATIONS = [90, 180, 270]


def upright_line(rotate: int, x: float, baseline: float, words: str) -> str:
    """Text at (x, baseline) of the page as a viewer shows it (points from its top-left
    corner), drawn turned counter-clockwise by `rotate` so that /Rotate turns it upright."""
    cos, sin = {90: (0, 1), 180: (-1, 0), 270: (0, -1)}[rotate]
    place = {
        90: (baseline, x),
        180: (PAGE_W - x, baseline),
        270: (PAGE_W - baseline, PAGE_H - x),
    }[rotate]
    return (
        f"BT /F1 14 Tf 0 0 0 rg {cos} {sin} {-sin} {cos} {place[0]} {place[1]} Tm ({words}) Tj ET\n"
    )


def rotated_pdf(path, rotate: int):
    content = (
        upright_line(rotate, 54, 100, "Patient: Jane Smith was seen by Dr. Brown")
        + upright_line(rotate, 54, 140, "Ward: North wing, bed twelve")
        # Drawn upright in the page's own space: a viewer shows it turned by /Rotate.
        + "BT /F1 12 Tf 0 0 0 rg 1 0 0 1 330 60 Tm (Filed under Smith) Tj ET\n"
    )
    return Doc([Page(content, rotate=rotate)]).write(path)


REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"], "validate": ["PASS"]}
KEPT = (
    "Patient: was seen by Dr. Brown",
    "Ward: North wing, bed twelve",
    "Filed under Smith",
)
"""The page's lines without the name the model names (the surname filed under is kept)."""
KEPT_WORDS = " ".join(KEPT).split()


def output_words(path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[0].get_textpage().get_text_range().split()
    finally:
        pdf.close()


@pytest.fixture(scope="module", params=ROTATIONS, ids=[f"rotate {r}" for r in ROTATIONS])
def rotated_run(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"rotate{request.param}")
    source = rotated_pdf(folder / "rotated.pdf", request.param)
    return request.param, source, redact_scripted(source, REPLIES, folder / "out")


def test_a_rotated_page_is_read_from_its_text_layer_upright(rotated_run):
    rotate, _, outcome = rotated_run
    report = outcome.report
    assert report.status is not Status.ERROR, report.error
    assert ReviewReason.PDF_TEXT_UNREAD not in report.review_reasons
    assert report.pdf is not None
    page = report.pdf.pages[0]
    upright = (PAGE_H, PAGE_W) if rotate in (90, 270) else (PAGE_W, PAGE_H)
    assert (page.width, page.height) == tuple(round(side * SCALE) for side in upright)
    assert page.source == "text_layer" and page.rotation == rotate
    assert len(page.boxes) == 2 and page.unread_characters == 0  # Jane, Smith


def test_the_text_layer_holds_every_kept_word_and_no_redacted_one(rotated_run):
    _, _, outcome = rotated_run
    written = {p.name: p for p in outcome.written}
    kept = [w for w in written["redacted.txt"].read_text().split() if not w.startswith("[")]
    assert sorted(kept) == sorted(KEPT_WORDS)
    words = output_words(written["redacted.pdf"])
    assert sorted(words) == sorted(KEPT_WORDS)  # pdfium reads every kept word back, and no other
    assert outcome.report.pdf is not None
    assert outcome.report.pdf.pages[0].text_words == len(KEPT_WORDS)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext is absent")
def test_poppler_reads_every_kept_word_too(rotated_run):
    _, _, outcome = rotated_run
    written = next(p for p in outcome.written if p.name == "redacted.pdf")
    text = subprocess.run(
        ["pdftotext", str(written), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert sorted(text.split()) == sorted(KEPT_WORDS)


def test_the_name_is_burned_where_it_shows_and_the_label_is_kept(rotated_run):
    _, source, outcome = rotated_run
    written = next(p for p in outcome.written if p.name == "redacted.pdf")
    before, after = (_rendered(path) for path in (source, written))
    assert before.shape == after.shape
    # "Jane Smith" on the first upright line: x 105-176 pt, baseline 100, 14 pt type.
    x0, y0, x1, y1 = (int(v * SCALE) for v in (106, 90, 175, 102))
    ink = before[y0:y1, x0:x1] < 128
    assert ink.sum() > 100 and (after[y0:y1, x0:x1][ink] <= 24).all()
    label = (slice(y0, y1), slice(int(54 * SCALE), int(100 * SCALE)))
    assert np.array_equal(before[label], after[label])  # "Patient:" untouched


def _rendered(path) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()
