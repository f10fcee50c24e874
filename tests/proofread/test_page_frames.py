"""A highlight sits on its words on any page a viewer shows: turned by /Rotate, or a
CropBox offset inside a larger MediaBox. The same CV shown the same way gives the same
boxes in mistakes.json, and poppler draws the highlights there."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from PIL import Image

from cv_cases import DETECTOR_OPTIONS, ENGLISH
from cv_pages import Frame, write_born_digital
from fake_upstream import Answer
from redacto.proofread import PROOFREAD_PDF, ProofreadOptions, UpstreamConfig, proofread_file

pytestmark = pytest.mark.slow  # a rotated page is read by OCR

FRAMES = [Frame(), Frame(0, 40, 25), Frame(90, 40, 25), Frame(270)]


def proofread(frame: Frame, upstream, tmp_path):
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf", frame)
    upstream.answer = Answer(lines=ENGLISH.answer)
    options = ProofreadOptions(
        upstream=UpstreamConfig(upstream.url), ocr="tesseract", pipeline=DETECTOR_OPTIONS
    )
    return proofread_file(source, tmp_path / "out", options, ENGLISH.engine())


def overlap(a, b) -> float:
    width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return width * height / ((a[2] - a[0]) * (a[3] - a[1]))


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    from fake_upstream import FakeUpstream

    server = FakeUpstream.start()
    try:
        return proofread(Frame(), server, tmp_path_factory.mktemp("plain"))
    finally:
        server.stop()


@pytest.mark.parametrize("frame", FRAMES[1:], ids=["offset crop box", "rotated 90", "rotated 270"])
def test_the_highlights_follow_the_page_as_shown(frame, plain, upstream, tmp_path):
    outcome = proofread(frame, upstream, tmp_path)
    located = [m for m in outcome.result.mistakes if m.located]
    expected = [m for m in plain.result.mistakes if m.located]
    assert [m.error_text for m in located] == [m.error_text for m in expected]
    for mistake, reference in zip(located, expected, strict=True):
        # rotated pages are read by OCR: its boxes are the line's height, not the font's
        assert max(overlap(box, reference.boxes[0]) for box in mistake.boxes) > 0.5
    subprocess.run(
        [
            "pdftoppm",
            "-cropbox",
            "-png",
            "-r",
            "72",
            str(tmp_path / "out" / PROOFREAD_PDF),
            str(tmp_path / "page"),
        ],
        check=True,
        timeout=60,
    )
    pixels = np.asarray(Image.open(tmp_path / "page-1.png").convert("RGB")).astype(int)
    assert pixels.shape[:2] == (500, 612)  # shown upright
    yellow = (pixels[..., 0] > 200) & (pixels[..., 1] > 150) & (pixels[..., 2] < 120)
    inside = np.zeros(yellow.shape, dtype=bool)
    for mistake in located:
        for x0, y0, x1, y1 in mistake.boxes:
            assert yellow[round(y0) : round(y1), round(x0) : round(x1)].mean() > 0.3
            inside[round(y0) - 4 : round(y1) + 4, round(x0) - 4 : round(x1) + 4] = True
    assert not (yellow & ~inside).any()
