"""A text file: UTF-8, read with `\\n` endings, written back with its own.

The pipeline reads lines that end at `\\n`; the file's own endings (CRLF, CR, mixed) are
kept aside (`LineEndings`) and applied only when the redacted text and the report are
written: in memory, a run's text and spans are in the `\\n` text the pipeline read.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from redacto.document import Detection, Document, Mode, Span
from redacto.inputs.base import (
    BadInputError,
    InputFile,
    OutputFile,
    ReadOptions,
    bytes_info,
    input_info,
)
from redacto.inputs.line_endings import LineEndings
from redacto.report import InputInfo, RunReport

if TYPE_CHECKING:
    from PIL import Image

    from redacto.pipeline import PipelineResult


class TextInput(InputFile):
    """A text (`.txt`, `.md`) and its line endings; its only redacted file is the text, and
    it has no pages (nothing to show as a picture or to draw on)."""

    suffixes: ClassVar[frozenset[str]] = frozenset({".txt", ".md"})
    mode: ClassVar[Mode] = Mode.TEXT
    noun: ClassVar[str] = "text"

    def __init__(self, path: Path, endings: LineEndings, info: InputInfo) -> None:
        super().__init__(path, Document.from_text(endings.normalized), info, None)
        self.line_endings = endings

    @classmethod
    def read(cls, path: Path, options: ReadOptions) -> TextInput:
        endings = LineEndings.of(_read_text(path))
        return cls(path, endings, input_info(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: Path, options: ReadOptions) -> TextInput:
        """A text held in memory (an upload), checked as a file is: UTF-8, not empty."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadInputError(f"{name}: not UTF-8 text ({error.reason})") from error
        return cls(name, LineEndings.of(_not_empty(text, name)), bytes_info(name, data))

    @classmethod
    def of_text(cls, text: str, name: str) -> TextInput:
        """A text held in memory (the eval's documents), named as its file would be."""
        info = InputInfo(name=name, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
        return cls(Path(name), LineEndings.of(text), info)

    def redacted_files(self, result: PipelineResult) -> tuple[OutputFile, ...]:
        return ()

    def page_pictures(self) -> list[Image.Image]:
        return []

    def page_pdf(self) -> None:
        return None

    def points_per_pixel(self) -> list[float]:
        return []

    def written_text(self, text: str) -> str:
        return self.line_endings.restore(text)

    def written_report(self, report: RunReport) -> RunReport:
        """Spans point into the user's file, not into the `\\n` text the pipeline read."""
        if not self.line_endings.changed:
            return report
        written = report.model_copy()
        written.detections = self._mapped(report.detections)
        written.not_located = self._mapped(report.not_located)
        if report.review is not None:
            review = report.review.model_copy()
            review.edits = [
                edit.model_copy(update={"detection": self._mapped([edit.detection])[0]})
                for edit in report.review.edits
            ]
            written.review = review
        return written

    def _mapped(self, detections: list[Detection]) -> list[Detection]:
        endings = self.line_endings
        return [
            detection
            if detection.span is None
            else detection.model_copy(
                update={
                    "span": Span(
                        start=endings.original_offset(detection.span.start),
                        end=endings.original_offset(detection.span.end),
                    )
                }
            )
            for detection in detections
        ]


def _read_text(path: Path) -> str:
    """The file decoded as UTF-8 with its line endings as written (no newline translation)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError as error:
        raise BadInputError(f"{path}: not UTF-8 text ({error.reason})") from error
    except OSError as error:
        raise BadInputError(f"{path}: cannot read ({error.strerror})") from error
    return _not_empty(text, path)


def _not_empty(text: str, path: Path) -> str:
    if not text.strip():
        raise BadInputError(f"{path}: the file is empty")
    return text
