"""A batch worker: one model, one NER tier and one OCR engine opened once, many inputs run.

A worker turns a `Job` (an input's path, or its bytes where the worker cannot read the
path) into a `JobResult` through the Python API (`redacto.Redactor`, as `redacto redact
INPUT` does): the files a single `redacto redact` would write for it, in memory, and its
summary row. It writes nothing: the driver does (`redacto.batch.store`), whichever process
or machine the worker runs in. Every value here pickles, so the same worker serves one
process, a process pool and Ray actors (`BatchWork`, run by `redacto.batch.workers`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from redacto.batch.summary import SummaryRow
from redacto.batch.workers import WorkerStartError
from redacto.engines import EngineError
from redacto.inputs import BadInputError, OutputFile
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptError
from redacto.redactor import Redactor, RedactResult
from redacto.report import describe_error


@dataclass(frozen=True)
class BatchOptions:
    """What every input of a batch is run with: the model as `--model` names it, the
    pipeline's options, the OCR engine's name and whether a PDF keeps a text layer."""

    model: str | None = None
    pipeline: PipelineOptions = field(default_factory=PipelineOptions)
    ocr: str = "ppocr"
    text_layer: bool = True


@dataclass(frozen=True)
class Job:
    """One input to run: its place in the batch, its path (as the summary names it), its
    bytes' sha256 as the driver read them and, where the worker cannot read that path, the
    bytes themselves."""

    index: int
    path: Path
    sha256: str = ""
    data: bytes | None = None


@dataclass(frozen=True)
class JobResult:
    """A run's files as a single run writes them (none: nothing to write), and its row."""

    index: int
    files: tuple[OutputFile, ...]
    row: SummaryRow


OnResult = Callable[[JobResult], None]
"""Hears each result in the driver's process, as it arrives."""


class Worker:
    """Runs inputs one after another through one `redacto.Redactor`, whose model, prompts,
    NER tier and OCR engine are opened once. Close it when done."""

    def __init__(self, options: BatchOptions) -> None:
        from redacto.ner import NerUnavailableError

        self.options = options
        try:
            self.redactor = Redactor.with_options(
                options.model, options.pipeline, ocr=options.ocr, text_layer=options.text_layer
            )
        except NerUnavailableError as error:
            raise WorkerStartError(str(error)) from None
        try:
            self.redactor.open()  # a model or prompts that cannot load stop the batch here
        except (EngineError, PromptError) as error:
            self.redactor.close()
            raise WorkerStartError(str(error)) from None

    def close(self) -> None:
        self.redactor.close()

    def run(self, job: Job) -> JobResult:
        """Run one input; never raises for the input's sake (its row says what happened)."""
        started = time.perf_counter()
        file = str(job.path)
        try:
            result = self._redact(job)
        except BadInputError as error:
            reason = f"bad input: {error}"
        except Exception as error:  # a bug must not stop the batch: the row names it
            reason = f"internal error: {describe_error(error)}"
        else:
            seconds = time.perf_counter() - started
            row = SummaryRow.of_report(file, result.report, seconds)
            return JobResult(job.index, result.files(), row)
        seconds = time.perf_counter() - started
        return JobResult(job.index, (), SummaryRow.error(file, reason, job.sha256, seconds))

    def _redact(self, job: Job) -> RedactResult:
        """The input at its path, or its bytes named by its path where they were sent."""
        if job.data is None:
            return self.redactor.redact(job.path)
        return self.redactor.redact_bytes(job.data, job.path)


@dataclass(frozen=True)
class BatchWork:
    """A batch's kind of job (`redacto.batch.workers.Work`): each worker a `Worker` with the
    batch's options; a lost input an ERROR row; an input sent to Ray as its bytes."""

    options: BatchOptions

    def open(self) -> Worker:
        return Worker(self.options)

    def lost(self, job: Job, reason: str) -> JobResult:
        row = SummaryRow.error(str(job.path), f"worker lost: {reason}", job.sha256)
        return JobResult(job.index, (), row)

    def to_send(self, job: Job, on_result: OnResult) -> Job | None:
        """The job with its input's bytes, read now (not all at once, to bound memory); an
        input that cannot be read any more is its ERROR row."""
        try:
            return replace(job, data=job.path.read_bytes())
        except OSError as error:
            reason = f"bad input: cannot read ({error.strerror})"
            on_result(JobResult(job.index, (), SummaryRow.error(str(job.path), reason, job.sha256)))
            return None
