"""What one `Redactor` call gives back: the status, the redacted bytes, and the whole report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from redacto.document import Box, Detection, Status
from redacto.inputs import (
    REDACTED_IMAGE,
    REDACTED_PDF,
    FileRun,
    OutputFile,
    RedactOutcome,
    write,
)
from redacto.inputs.redaction import write_report_only
from redacto.report import ReviewReason, RunReport, UnexplainedWord


@dataclass(frozen=True)
class RedactResult:
    """One input's run, in memory: nothing has been written anywhere.

    `status` is the run's verdict and the first thing to read: `PASS` (every reader agreed
    and the validator's PASS is trusted), `NEEDS_REVIEW` (the redacted output is here but a
    person must check it: `review_reasons` say why), `ERROR` (the run failed: `error` says
    why, and `text`, `image` and `pdf` are None, so nothing can pass for a redaction).

    `text` is the redacted text (a text input's own line endings kept), `image` the redacted
    photo as PNG bytes (burned boxes, no metadata), `pdf` the redacted and verified PDF.
    `report` is `report.json`'s content; it holds every hidden value in clear, so it is the
    user's record and must not travel with the redacted file.
    """

    report: RunReport
    text: str | None
    image: bytes | None
    pdf: bytes | None
    boxes: tuple[Box, ...]
    """The boxes burned, in the pixels of the page as read (a PDF's: of the page rendered)."""
    run: FileRun
    """The run as `redacto.inputs` holds it (what `write` writes)."""
    source: Path
    """The input's path, or the name an input held in memory goes by."""

    @classmethod
    def of(cls, run: FileRun, source: Path) -> RedactResult:
        """The result of a finished run: the files it would write, picked by name."""
        files = run.redaction.redacted_as_written() if run.redaction is not None else ()
        text = run.redaction.text_as_written if run.redaction is not None else None
        boxes = run.redaction.boxes if run.redaction is not None else ()
        return cls(
            report=run.report,
            text=text,
            image=_named(files, REDACTED_IMAGE),
            pdf=_named(files, REDACTED_PDF),
            boxes=boxes if text is not None else (),
            run=run,
            source=source,
        )

    @property
    def status(self) -> Status:
        """`PASS`, `NEEDS_REVIEW` or `ERROR`."""
        return self.report.status

    @property
    def passed(self) -> bool:
        """Whether the run ended PASS: the only status that needs no person."""
        return self.report.status is Status.PASS

    @property
    def detections(self) -> tuple[Detection, ...]:
        """Everything hidden: label, source (`rule`, `ner`, `detect`, …), round, value."""
        return tuple(self.report.detections)

    @property
    def review_reasons(self) -> tuple[ReviewReason, ...]:
        """Why a person must check the output (empty for PASS)."""
        return tuple(self.report.review_reasons)

    @property
    def unexplained(self) -> tuple[UnexplainedWord, ...]:
        """Words no reader could explain (docs/lexicon.md): readable unless `strict`."""
        return tuple(self.report.unexplained)

    @property
    def error(self) -> str | None:
        """Why an ERROR run failed; None otherwise."""
        return self.report.error

    def files(self) -> tuple[OutputFile, ...]:
        """Every file `redacto redact` would write for this run, byte for byte, in memory:
        the redacted files, then `report.json`."""
        return self.run.files_as_written()

    def write(self, folder: Path) -> RedactOutcome:
        """Write the run's files into `folder` as `redacto redact --out folder` does: each
        atomically, never over the input, an earlier run's redacted files removed when
        this run is ERROR. The one call of the API that writes."""
        if self.run.redaction is not None:
            return write(self.run.redaction, folder)
        return write_report_only(self.report, folder, self.source)


def _named(files: tuple[OutputFile, ...], name: str) -> bytes | None:
    return next((file.data for file in files if file.name == name), None)
