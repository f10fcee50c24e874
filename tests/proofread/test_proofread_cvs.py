"""`proofread_file` end to end on French and English CVs, born-digital and scanned, on a
short page, A4 and US Letter, against a fake OpenAI-compatible upstream on loopback that
streams in small pieces and records every request."""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import subprocess
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image

from cv_cases import ANY, DETECTOR_OPTIONS, ENGLISH, FRENCH, ActedOn, CvCase
from cv_pages import A4, LETTER
from fake_upstream import Answer, FakeUpstream
from redacto.proofread import (
    MISTAKES_JSON,
    PROOFREAD_PDF,
    ProofreadOptions,
    UpstreamConfig,
    proofread_file,
)

pytestmark = pytest.mark.slow  # OCR reads every page (Tesseract: a few seconds each)

SHORT_PAGE_CASES = [ENGLISH, FRENCH, ENGLISH.scanned(), FRENCH.scanned()]
CASES = SHORT_PAGE_CASES + [case.on(page) for page in (A4, LETTER) for case in SHORT_PAGE_CASES]


class Recorded(logging.Handler):
    """Every log record of the run, from every logger, at every level."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def run_case(case: CvCase, upstream, tmp_path: Path, log: Recorded):
    source = case.write(tmp_path / f"{case.name}.pdf")
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    acted = ActedOn(case)
    upstream.answer = Answer(lines=case.answer, piece=4)
    upstream.gate = acted.gate
    options = ProofreadOptions(
        upstream=UpstreamConfig(upstream.url), ocr="tesseract", pipeline=DETECTOR_OPTIONS
    )
    root = logging.getLogger()
    level = root.level
    root.addHandler(log)
    root.setLevel(logging.DEBUG)
    try:
        outcome = proofread_file(source, tmp_path / "out", options, case.engine(), on_mistake=acted)
    finally:
        root.removeHandler(log)
        root.setLevel(level)
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before  # the input is only read
    return outcome, acted


@pytest.fixture(params=CASES, ids=[case.name for case in CASES], scope="module")
def run(request, tmp_path_factory):
    """One run per case, shared by the checks below (OCR is the slow part)."""
    case = request.param
    upstream = FakeUpstream.start()
    log = Recorded()
    try:
        tmp_path = tmp_path_factory.mktemp(case.name)
        outcome, acted = run_case(case, upstream, tmp_path, log)
    finally:
        upstream.stop()
    return case, outcome, acted, upstream, tmp_path / "out", "\n".join(log.lines)


def test_no_detected_value_reaches_the_upstream_or_the_logs(run):
    case, outcome, _, upstream, _, log = run
    chats = [r for r in upstream.requests if r.path.endswith("/chat/completions")]
    assert len(chats) == 1
    sent = chats[0].text()
    assert "[NAME_1]" in sent and "[EMAIL_1]" in sent
    for value in case.values:
        assert value.casefold() not in sent.casefold()
        assert value not in log
    assert outcome.result.values_sent == 0
    assert outcome.result.values_replaced >= 4


def test_every_mistake_is_acted_on_before_the_next_line_and_the_end_of_the_stream(run):
    case, outcome, acted, upstream, _, _ = run
    assert upstream.gate_results == [True] * len(case.answer)
    assert acted.count == len(case.kept())
    assert outcome.result.complete and outcome.exit_code == 0


def test_mistakes_come_back_restored_placed_and_dropped_as_expected(run):
    case, outcome, _, _, out_dir, _ = run
    result = outcome.result
    assert result.dropped_touching_placeholder == case.expected.count(None)
    got = [(m.error_text, m.correction, m.strategy, m.located) for m in result.mistakes]
    want = [
        (
            e.error_text,
            e.correction,
            None if e.strategy == ANY else e.strategy,
            e.strategy is not None,
        )
        for e in case.kept()
    ]
    if case.scan:  # OCR decides which strategy finds it
        got = [(error, correction, None, located) for error, correction, _, located in got]
    assert got == want
    written = json.loads((out_dir / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert [m["error_text"] for m in written["mistakes"]] == [e.error_text for e in case.kept()]
    for mistake in written["mistakes"]:
        assert set(mistake) == {
            "error_text",
            "correction",
            "description",
            "located",
            "strategy",
            "page",
            "boxes",
        }
        assert (mistake["page"] == 1) is mistake["located"]
        assert bool(mistake["boxes"]) is mistake["located"]
    assert written["complete"] is True and written["values_sent"] == 0


def yellow(pixels: np.ndarray) -> np.ndarray:
    return (pixels[..., 0] > 200) & (pixels[..., 1] > 150) & (pixels[..., 2] < 120)


def test_poppler_draws_the_highlights_where_mistakes_json_says(run):
    case, outcome, _, _, out_dir, _ = run
    subprocess.run(
        ["pdftoppm", "-png", "-r", "72", str(out_dir / PROOFREAD_PDF), str(out_dir / "page")],
        check=True,
        timeout=60,
    )
    pixels = np.asarray(Image.open(out_dir / "page-1.png").convert("RGB"))
    assert pixels.shape[:2] == (round(case.page.height), round(case.page.width))  # 72 dpi
    highlighted = yellow(pixels)
    inside = np.zeros(highlighted.shape, dtype=bool)
    located = [m for m in outcome.result.mistakes if m.located]
    for mistake in located:
        for x0, y0, x1, y1 in mistake.boxes:
            box = highlighted[round(y0) : round(y1), round(x0) : round(x1)]
            assert box.mean() > 0.3, f"{mistake.error_text!r} is not highlighted"
            # poppler draws a highlight's ends rounded, a few points past its quadrilateral
            inside[round(y0) - 4 : round(y1) + 4, round(x0) - 4 : round(x1) + 4] = True
    assert not (highlighted & ~inside).any()  # nothing highlighted anywhere else
    notes = annotation_notes(out_dir / PROOFREAD_PDF)
    assert notes == [
        (pdfium_c.FPDF_ANNOT_HIGHLIGHT, f"→ {m.correction}\n{m.description}") for m in located
    ]


def annotation_notes(path: Path) -> list[tuple[int, str]]:
    """Each annotation of page 1: its subtype and the note a reader shows (`/Contents`)."""
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[0]
    notes = []
    for number in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
        annot = pdfium_c.FPDFPage_GetAnnot(page.raw, number)
        size = pdfium_c.FPDFAnnot_GetStringValue(annot, b"Contents", None, 0)
        buffer = ctypes.create_string_buffer(size)
        pdfium_c.FPDFAnnot_GetStringValue(
            annot, b"Contents", ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size
        )
        text = buffer.raw[: size - 2].decode("utf-16-le")
        notes.append((pdfium_c.FPDFAnnot_GetSubtype(annot), text))
        pdfium_c.FPDFPage_CloseAnnot(annot)
    page.close()
    pdf.close()
    return notes
