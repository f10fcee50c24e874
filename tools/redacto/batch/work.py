"""A batch worker: one model, one NER tier and one OCR engine opened once, many inputs run.

A worker turns a `Job` (an input's path, or its bytes where the worker cannot read the
path) into a `JobResult`: the files a single `redacto redact` would write for it, in
memory, and its summary row. It writes nothing: the driver does (`redacto.batch.store`),
whichever process or machine the worker runs in. Every value here pickles, so the same
worker serves one process, a process pool and Ray actors (`BatchWork`, run by
`redacto.batch.workers`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from redacto.batch.summary import SummaryRow
from redacto.batch.workers import WorkerStartError
from redacto.document import Detector
from redacto.engines import Engine, EngineError
from redacto.inputs import (
    BadInputError,
    ImageInput,
    InputFile,
    OutputFile,
    ReadOptions,
    input_info,
    input_kind,
    read_input,
    read_input_bytes,
    run_input,
)
from redacto.inputs.base import bytes_info
from redacto.models import open_model
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.report import InputInfo, describe_error

if TYPE_CHECKING:
    from redacto.ocr import OcrEngine


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
    """Runs inputs one after another on engines opened once. Close it when done."""

    def __init__(self, options: BatchOptions) -> None:
        from redacto.ner import NerUnavailableError, ner_session

        self.options = options
        self._ocr: OcrEngine | None = None
        try:
            self.prompts = PromptLibrary.load()
            self.engine: Engine = open_model(options.model)
        except (EngineError, PromptError) as error:
            raise WorkerStartError(str(error)) from None
        try:
            if Detector.NER in options.pipeline.detectors:
                ner_session()
        except NerUnavailableError as error:
            self.engine.close()
            raise WorkerStartError(str(error)) from None

    def close(self) -> None:
        self.engine.close()

    def run(self, job: Job) -> JobResult:
        """Run one input; never raises for the input's sake (its row says what happened)."""
        started = time.perf_counter()
        file = str(job.path)
        try:
            ran = run_input(
                job.path,
                lambda: self._read(job),
                lambda: self._info(job),
                self.engine,
                prompts=self.prompts,
                options=self.options.pipeline,
            )
        except BadInputError as error:
            reason = f"bad input: {error}"
        except Exception as error:  # a bug must not stop the batch: the row names it
            reason = f"internal error: {describe_error(error)}"
        else:
            seconds = time.perf_counter() - started
            row = SummaryRow.of_report(file, ran.report, seconds)
            return JobResult(job.index, ran.files_as_written(), row)
        seconds = time.perf_counter() - started
        return JobResult(job.index, (), SummaryRow.error(file, reason, job.sha256, seconds))

    def _read(self, job: Job) -> InputFile:
        read = ReadOptions(ocr=self._ocr_for(job.path), text_layer=self.options.text_layer)
        if job.data is None:
            return read_input(job.path, read)
        return read_input_bytes(job.data, job.path, read)

    def _ocr_for(self, path: Path) -> str | OcrEngine:
        """Photos share one open OCR engine. A PDF gets the name: it opens OCR only for a
        scanned page, and its report names OCR only then, as a single run's does."""
        if input_kind(path) is not ImageInput:
            return self.options.ocr
        if self._ocr is None:
            from redacto.ocr import open_ocr

            self._ocr = open_ocr(self.options.ocr)
        return self._ocr

    @staticmethod
    def _info(job: Job) -> InputInfo:
        return input_info(job.path) if job.data is None else bytes_info(job.path, job.data)


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
