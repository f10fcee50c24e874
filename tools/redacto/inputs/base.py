"""What every input kind shares: the base class, its outputs' names, and bad input.

An input is one file read into a `Document` for the pipeline, plus what its kind needs to
turn a finished run back into files: a photo its pixels, a PDF its pages, a text its own
line endings. Each kind is a subclass that knows its suffixes, how to read itself, which
files a run makes of it (in memory) and how its text and report are written, so nothing
outside these classes asks what kind an input is.
"""

from __future__ import annotations

import hashlib
import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from redacto.document import Document, Mode, Status
from redacto.report import InputInfo, RunReport

if TYPE_CHECKING:
    from PIL import Image

    from redacto.ocr import OcrEngine
    from redacto.pipeline import PipelineResult

REDACTED_IMAGE = "redacted.png"
REDACTED_PDF = "redacted.pdf"
REDACTED_TEXT = "redacted.txt"
REPORT = "report.json"
REDACTED_FILES = (REDACTED_IMAGE, REDACTED_PDF, REDACTED_TEXT)
"""Every file that claims a redaction; an ERROR run leaves none of them in its folder."""
OUTPUTS = (*REDACTED_FILES, REPORT)


class BadInputError(ValueError):
    """The input cannot be redacted as given (exit 2); nothing has been written."""


OnPage = Callable[[int, int], None]
"""Progress while a PDF is read: called with (pages done, pages in all)."""


@dataclass(frozen=True)
class ReadOptions:
    """How to read an input: the OCR engine for photos and scanned pages (its name, or an
    engine already open: the proxy reads every image with one), an `--elements` file that
    replaces a photo's OCR, who follows a PDF's pages as they are read, a lower limit on a
    photo's pixels, and whether a PDF's output keeps its words as text."""

    ocr: str | OcrEngine = "ppocr"
    elements_path: Path | None = None
    on_page: OnPage | None = None
    max_pixels: int | None = None
    """A lower pixel limit for photos than the product's (`imaging.MAX_PIXELS`), checked on
    the header before any pixel is decoded: the review server's `--max-megapixels`."""
    text_layer: bool = True
    """Whether a PDF's `redacted.pdf` carries its kept words as an invisible text layer
    (searchable, selectable); False: page images only (`redacto redact --no-text-layer`)."""


@dataclass(frozen=True)
class OutputFile:
    """One redacted file, made in memory: its name in the output folder and its bytes."""

    name: str
    data: bytes


class InputFile(ABC):
    """One input, read: its document, the report's record of it, and its way back to files.

    Subclasses declare their `suffixes`, their `mode` and a `noun` for messages, read
    themselves (`read`), make their redacted files in memory (`redacted_files`), and say
    what their pages are (`page_pictures`, `page_pdf`, `points_per_pixel`: what the review
    page shows and proofreading draws on).
    """

    suffixes: ClassVar[frozenset[str]]
    mode: ClassVar[Mode]
    noun: ClassVar[str]
    """What the input is, in a message: "a photo", "a PDF", "text"."""
    takes_elements: ClassVar[bool] = False
    """Whether `--elements` (word boxes of a photo, skipping OCR) applies to this kind."""

    def __init__(self, path: Path, document: Document, info: InputInfo, ocr_name: str | None):
        self.path = path
        self.document = document
        self.info = info
        self.ocr_name = ocr_name

    @classmethod
    @abstractmethod
    def read(cls, path: Path, options: ReadOptions) -> InputFile:
        """Read `path` (already checked to exist and to be of this kind).

        Raises `BadInputError` for unreadable input, `EngineError` when OCR itself fails.
        """

    @classmethod
    @abstractmethod
    def from_bytes(cls, data: bytes, name: Path, options: ReadOptions) -> InputFile:
        """Read an input held in memory (an upload), with the same checks and limits as
        `read`; `name` stands for its file (its kind, messages, the report's name).

        Nothing is written or read from disk but OCR's own models. Raises as `read` does.
        """

    @abstractmethod
    def redacted_files(self, result: PipelineResult) -> tuple[OutputFile, ...]:
        """The redacted files besides `redacted.txt` (a PNG, a PDF), made in memory.

        Called for every run; a run that did not redact makes none. A kind may still record
        in the report what it read (a PDF's pages) or end the run ERROR when its output
        fails a check: the report is final when this returns.
        """

    @abstractmethod
    def page_pictures(self) -> list[Image.Image]:
        """The pages as pictures, in the pixels the document's word boxes are in (the review
        page shows them); none for an input without pages (a text)."""

    @abstractmethod
    def page_pdf(self) -> bytes | None:
        """This input as a PDF to draw on (`redacto proofread`'s highlights), in memory: a
        PDF's own bytes, a photo as a one-page PDF; None for an input without pages."""

    @abstractmethod
    def points_per_pixel(self) -> list[float]:
        """Per page (0-based), the points of `page_pdf`'s page one pixel of the page as read
        (`page_pictures`) is worth; empty for an input without pages."""

    def written_text(self, text: str) -> str:
        """The redacted text as it is written to `redacted.txt` (a text keeps its endings)."""
        return text

    def written_report(self, report: RunReport) -> RunReport:
        """The report as written to `report.json` (a text's spans point into its file)."""
        return report


def redacted(result: PipelineResult) -> bool:
    """Whether a run produced a redaction to write (not ERROR, with a redacted text)."""
    return result.report.status is not Status.ERROR and result.redacted_text is not None


def input_info(path: Path) -> InputInfo:
    """The input's file name and the sha256 of its bytes, for its report."""
    from redacto.modelfile.record import sha256_of

    try:
        return InputInfo(name=path.name, sha256=sha256_of(path))
    except OSError as error:
        raise BadInputError(f"{path}: cannot read ({error.strerror})") from error


def bytes_info(name: Path, data: bytes) -> InputInfo:
    """The report's record of an input held in memory: its name and its bytes' sha256
    (the same as `input_info` gives for the same bytes in a file)."""
    return InputInfo(name=name.name, sha256=hashlib.sha256(data).hexdigest())


def same_file(candidate: Path, path: Path) -> bool:
    """The same file, by path, symbolic link or hard link."""
    try:
        return os.path.samefile(candidate, path)
    except OSError:
        return False
