"""Tesseract reads a page without writing it anywhere: the page goes through a pipe, so a
run killed mid-OCR leaves nothing of it on disk (pytesseract wrote it and its TSV into the
temporary folder and removed them only on a normal return)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from redacto.ocr import open_ocr
from redacto.ocr.synthetic import REGULAR_FONTS, load_font

pytestmark = pytest.mark.slow


def page(path: Path, lines: int = 40) -> Path:
    """An A4-sized page at 150 dpi full of a patient's details."""
    image = Image.new("RGB", (1240, 1754), "white")
    draw = ImageDraw.Draw(image)
    font = load_font(REGULAR_FONTS[0], 26)
    for row in range(lines):
        draw.text(
            (60, 40 + row * 42),
            f"Patient Jane Marlowe {row} DOB 03/15/1978",
            font=font,
            fill="black",
        )
    image.save(path)
    return path


def test_a_page_is_read_through_a_pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    words = [e.text for e in open_ocr("tesseract").read(Image.open(page(tmp_path / "p.png", 3)))]
    assert "Marlowe" in words
    assert list(temporary.iterdir()) == []


def test_a_run_killed_mid_ocr_leaves_nothing_of_the_page(tmp_path: Path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    source = page(tmp_path / "page.png")
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from PIL import Image\n"
            "from redacto.ocr import open_ocr\n"
            "engine = open_ocr('tesseract')\n"
            "image = Image.open(sys.argv[1]); image.load()\n"
            "print('reading', flush=True)\n"
            "engine.read(image)\n"
            "print('done', flush=True)\n",
            str(source),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(temporary)},
        start_new_session=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "reading"
        time.sleep(0.5)  # tesseract is at work on the page (a full page takes seconds)
        assert child.poll() is None, "the page was read before the kill"
        child.send_signal(signal.SIGKILL)  # the parent only: no cleanup code can run
        child.wait(timeout=30)
        assert list(temporary.iterdir()) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)  # an orphaned tesseract still reading
