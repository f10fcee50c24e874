"""`redact` an input in memory, then `write` the redaction into a folder.

`redact` runs the pipeline on the input's document and has the input make its redacted
files in memory: nothing is written (a PDF's pages are rendered again from its file, which
is only read), and the report is final (a PDF that
fails its check is ERROR here, not half-way through writing). `write` writes those files
and `report.json` through temporary files renamed into place; an ERROR run writes only its
report, and removes redacted files an earlier run left, so nothing in the folder claims a
redaction that did not happen. A text's own line endings are applied only there.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from redacto.document import Box, Status
from redacto.engines import Engine
from redacto.inputs.base import (
    REDACTED_FILES,
    REDACTED_TEXT,
    REPORT,
    InputFile,
    OutputFile,
    same_file,
)
from redacto.pipeline import OnEvent, PipelineOptions, PipelineResult, run_pipeline
from redacto.prompts import PromptLibrary
from redacto.report import RunReport, error_report

EXIT_CODES = {Status.PASS: 0, Status.NEEDS_REVIEW: 10, Status.ERROR: 1}
EXIT_BAD_INPUT = 2


@dataclass(frozen=True)
class Redaction:
    """One input's finished run, in memory: its report (final), the redacted text and the
    boxes drawn, and the redacted files its kind made. Text and spans are in the document's
    own text (`\\n` endings); `write` puts a text's endings back."""

    input: InputFile
    report: RunReport
    redacted_text: str | None = None
    boxes: tuple[Box, ...] = ()
    files: tuple[OutputFile, ...] = ()

    @property
    def text_as_written(self) -> str | None:
        """`redacted.txt` as `write` writes it (None: the run wrote no redaction)."""
        if self.report.status is Status.ERROR or self.redacted_text is None:
            return None
        return self.input.written_text(self.redacted_text)

    @property
    def report_as_written(self) -> RunReport:
        """`report.json` as `write` writes it."""
        return self.input.written_report(self.report)

    def files_as_written(self) -> tuple[OutputFile, ...]:
        """Every file `write` writes, byte for byte, in memory: the kind's redacted files
        and `redacted.txt` (a redaction only), then `report.json`. `redacto serve` offers
        these for download without writing them."""
        return (*self.redacted_as_written(), report_file(self.report_as_written))

    def redacted_as_written(self) -> tuple[OutputFile, ...]:
        """The redacted files as `write` writes them (none for a run that did not redact):
        the kind's files, then `redacted.txt`."""
        text = self.text_as_written
        if text is None:
            return ()
        return (*self.files, OutputFile(REDACTED_TEXT, text.encode("utf-8")))


@dataclass(frozen=True)
class RedactOutcome:
    """What one file's run wrote: its report as written, the files and the exit code."""

    report: RunReport
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.report.status]


def redact(
    source: InputFile,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> Redaction:
    """Run the pipeline on `source` and make its redacted files, all in memory.

    Never raises for a failed run: an exception inside the pipeline is an ERROR report.
    """
    try:
        result = run_pipeline(source.document, engine, prompts, options=options, on_event=on_event)
    except Exception as error:
        result = PipelineResult(report=error_report(source.mode, engine.identity, error))
    return finish(source, result)


def finish(source: InputFile, result: PipelineResult) -> Redaction:
    """A pipeline result on `source` as a redaction: the report names the input and its
    OCR, and the input's kind makes its files (which may end the run ERROR)."""
    result.report.ocr = source.ocr_name
    if result.report.input is None:
        result.report.input = source.info
    files = source.redacted_files(result)
    return Redaction(source, result.report, result.redacted_text, tuple(result.boxes), files)


def write(redaction: Redaction, out_dir: Path) -> RedactOutcome:
    """Write the redacted files and `report.json` into `out_dir` (made if missing).

    Files that cannot be written end the run as ERROR (a report, nothing claimed); only
    when not even that report can be written does the `OSError` reach the caller.
    """
    try:
        return _write(redaction, out_dir)
    except OSError as error:
        source = redaction.input
        report = error_report(
            source.mode, redaction.report.model, error, doing="cannot write the outputs"
        )
        report.input, report.ocr = source.info, source.ocr_name
        return _write(Redaction(source, report), out_dir)


def write_report_only(report: RunReport, out_dir: Path, input_path: Path) -> RedactOutcome:
    """Record a run that ended before its input was read: its ERROR report, and no
    redacted file, so an earlier run's outputs cannot pass for this one's."""
    write_files(out_dir, (), input_path, stale=REDACTED_FILES)
    return RedactOutcome(report=report, written=(_write_report(report, out_dir, input_path),))


def _write(redaction: Redaction, out_dir: Path) -> RedactOutcome:
    source = redaction.input
    files = redaction.redacted_as_written()  # a redaction: its kind's files, then the text
    # An earlier run's report goes first: a run stopped before its own report is written
    # leaves its files with no report, never beside one that vouches for other files.
    written = write_files(out_dir, files, source.path, stale=(*REDACTED_FILES, REPORT))
    report = redaction.report_as_written
    written.append(_write_report(report, out_dir, source.path))
    return RedactOutcome(report=report, written=tuple(written))


def write_files(
    out_dir: Path, files: Sequence[OutputFile], input_path: Path, *, stale: Iterable[str] = ()
) -> list[Path]:
    """Write `files` into `out_dir` (made if missing), each through a temporary file renamed
    into place, never over the input; first the files named in `stale` that are not among
    them (an earlier run's) are removed, never the input. The written paths, in order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    _remove_stale(out_dir, set(stale) - {file.name for file in files}, input_path)
    return [_atomic(out_dir / file.name, file.data, input_path) for file in files]


def _remove_stale(out_dir: Path, names: set[str], input_path: Path) -> None:
    """Remove an earlier run's redacted files, never the input (checked before the run,
    but a link may appear meanwhile)."""
    for name in sorted(names):
        if not same_file(out_dir / name, input_path):
            (out_dir / name).unlink(missing_ok=True)


def _write_report(report: RunReport, out_dir: Path, input_path: Path) -> Path:
    return _atomic(out_dir / REPORT, report_file(report).data, input_path)


def report_file(report: RunReport) -> OutputFile:
    """`report.json` as `write` writes `report` (already as written): indented JSON and a
    final newline."""
    return OutputFile(REPORT, (report.model_dump_json(indent=2) + "\n").encode("utf-8"))


def _atomic(target: Path, data: bytes, input_path: Path) -> Path:
    """Write through a temporary file beside `target`, then rename it into place; never
    over the input itself (checked before the run too: a link may appear meanwhile)."""
    if same_file(target, input_path):
        raise FileExistsError(f"{target} is the input itself: refusing to overwrite it")
    return atomic_write(target, data)


def atomic_write(target: Path, data: bytes) -> Path:
    """Write `data` through a temporary file beside `target`, then rename it into place: a
    reader sees the old file or the whole new one, never a part."""
    handle, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.stem}-", suffix=target.suffix
    )
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return target
