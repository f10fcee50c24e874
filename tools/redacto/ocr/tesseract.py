"""`tesseract` — Tesseract 5 (Debian `tesseract-ocr`, `tesseract-ocr-eng`), run as a program.

The second engine: tight word boxes and about 1.6 CPU-seconds a page, but only with
`OMP_THREAD_LIMIT=1` for the tesseract process — its OpenMP threads fight each other on a
small machine and the same page takes 8.7 s without it. Tesseract's block, paragraph and
line numbers group words into lines; the rows are then ordered by the same rule as every
engine (`redacto.ocr.base.order_lines`) so both engines feed the pipeline the same order.

The page goes to the program through a pipe and its words come back on stdout
(`tesseract stdin stdout … tsv`): no file is written, so nothing of the page is left on
disk whatever ends the run — a kill of the parent included. (pytesseract, used before,
wrote the page and its TSV into the temporary folder and removed them only on a normal
return: a killed review page left an unredacted page readable there.)
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import statistics
import subprocess
from dataclasses import dataclass

from PIL import Image

from redacto.document import Box, Element
from redacto.ocr.base import (
    OcrEngine,
    OcrError,
    OcrLine,
    OcrWord,
    pad_box,
    page_elements,
    working_copy,
)

_WORD_LEVEL = 5


@dataclass(frozen=True)
class TesseractSettings:
    """Knobs of the Tesseract engine; defaults are the measured choice (docs/ocr.md).

    `min_confidence` defaults to keeping every non-empty word: for a redactor a doubtful
    word is still text that may need a box. `pad_x_ratio` and `pad_y_ratio` widen each box
    by that share of its line's height sideways and up/down: Tesseract's boxes are tight, leave
    out trailing punctuation (up to ~0.25 of the line height) and sometimes a descender
    (up to ~0.2). `timeout_s` bounds one page.
    """

    language: str = "eng"
    page_segmentation_mode: int = 3
    max_side: int = 2500
    min_confidence: float = 0.0
    pad_x_ratio: float = 0.3
    pad_y_ratio: float = 0.2
    timeout_s: float = 120.0
    program: str = "tesseract"
    """The tesseract program, found on PATH."""


class TesseractEngine(OcrEngine):
    """Tesseract 5 LSTM, one word element per TSV word row."""

    def __init__(self, settings: TesseractSettings | None = None) -> None:
        self.settings = settings or TesseractSettings()
        program = shutil.which(self.settings.program)
        if program is None:
            raise OcrError(
                "the tesseract OCR engine needs the tesseract program: "
                "install Debian tesseract-ocr and tesseract-ocr-eng "
                "(sudo apt-get install tesseract-ocr tesseract-ocr-eng)"
            )
        self._program = program
        version = self._run(["--version"], b"").splitlines()[0].split()[-1]
        languages = self._run(["--list-langs"], b"").splitlines()[1:]
        if self.settings.language not in languages:
            raise OcrError(
                f"tesseract has no '{self.settings.language}' language data: "
                f"install Debian tesseract-ocr-{self.settings.language}"
            )
        self.name = (
            f"tesseract ({version}, lang={self.settings.language}, "
            f"psm={self.settings.page_segmentation_mode}, max_side={self.settings.max_side}, "
            f"pad={self.settings.pad_x_ratio}/{self.settings.pad_y_ratio})"
        )

    def read(self, image: Image.Image) -> list[Element]:
        """Words of `image` in reading order, boxes in `image` pixels."""
        work, factors = working_copy(image, self.settings.max_side)
        page = io.BytesIO()
        work.save(page, format="PNG", compress_level=1)
        tsv = self._run(
            [
                "stdin",
                "stdout",
                "-l",
                self.settings.language,
                "--psm",
                str(self.settings.page_segmentation_mode),
                "tsv",
            ],
            page.getvalue(),
        )
        rows = list(csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE))
        return page_elements(self._lines(rows, work.size), work, factors, image.size)

    def _run(self, arguments: list[str], stdin: bytes) -> str:
        """Run tesseract with `stdin` piped in; its stdout, or `OcrError` (never its stderr,
        which may quote the page's words)."""
        try:
            done = subprocess.run(
                [self._program, *arguments],
                input=stdin,
                capture_output=True,
                timeout=self.settings.timeout_s,
                env={**os.environ, "OMP_THREAD_LIMIT": "1"},
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise OcrError(
                f"tesseract did not finish in {self.settings.timeout_s:.0f} s"
            ) from error
        except OSError as error:
            raise OcrError(f"tesseract could not start: {type(error).__name__}") from error
        if done.returncode != 0:
            raise OcrError(f"tesseract failed with exit status {done.returncode}")
        return done.stdout.decode("utf-8", errors="replace")

    def _lines(self, rows: list[dict[str, str]], size: tuple[int, int]) -> list[OcrLine]:
        grouped: dict[tuple[int, int, int], list[OcrWord]] = {}
        for row in rows:
            text = (row.get("text") or "").strip()
            if int(row["level"]) != _WORD_LEVEL or not text:
                continue
            confidence = float(row["conf"])
            if confidence < self.settings.min_confidence:
                continue
            left, top = float(row["left"]), float(row["top"])
            box = Box(
                x0=left,
                y0=top,
                x1=left + float(row["width"]),
                y1=top + float(row["height"]),
            )
            key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
            grouped.setdefault(key, []).append(
                OcrWord(text=text, box=box, confidence=confidence / 100)
            )
        return [line_through(self._padded(words, size)) for words in grouped.values()]

    def _padded(self, words: list[OcrWord], size: tuple[int, int]) -> list[OcrWord]:
        """Widen every word by a share of its line's height (a short word's own box is
        shorter than the ascenders and descenders around it)."""
        line_height = max(word.box.height for word in words)
        pad_x = self.settings.pad_x_ratio * line_height
        pad_y = self.settings.pad_y_ratio * line_height
        return [
            OcrWord(
                text=word.text,
                box=pad_box(word.box, pad_x, pad_y, size),
                confidence=word.confidence,
            )
            for word in words
        ]


def line_through(words: list[OcrWord]) -> OcrLine:
    """A line outline that follows its words' slope, so tilted photos order correctly."""
    words = sorted(words, key=lambda word: word.box.x0)
    centers_x = [(word.box.x0 + word.box.x1) / 2 for word in words]
    centers_y = [(word.box.y0 + word.box.y1) / 2 for word in words]
    half_height = statistics.median(word.box.height for word in words) / 2
    slope = 0.0
    if len(words) >= 2 and max(centers_x) > min(centers_x):
        slope = statistics.linear_regression(centers_x, centers_y).slope
    mean_x, mean_y = statistics.fmean(centers_x), statistics.fmean(centers_y)
    left, right = words[0].box.x0, max(word.box.x1 for word in words)

    def center_at(x: float) -> float:
        return mean_y + slope * (x - mean_x)

    corners = (
        (left, center_at(left) - half_height),
        (right, center_at(right) - half_height),
        (right, center_at(right) + half_height),
        (left, center_at(left) + half_height),
    )
    return OcrLine(words=tuple(words), corners=corners)
