"""One file, one call: check it, open the model, `read_input`, `redact`, `write`.

`redact_path` is what `redacto redact` runs. It adds to the three steps only what a run
from a path needs around them: the cheap checks first (the output folder too, before any
model time), the model chosen by name, and an ERROR report for a run that fails before
it can redact (no model, prompts that do not load, OCR that fails).

`run_input` is the same run without the file system's two ends (the checks and `write`):
what it would write, in memory. `redacto redact INPUT… --out DIR` (`redacto.batch`) runs it
in its workers and writes the files itself, so a batch's outputs are a single run's, byte
for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from redacto.engines import Engine, EngineError, ModelIdentity
from redacto.inputs.base import InputFile, OutputFile, ReadOptions, input_info
from redacto.inputs.read import check_input, input_mode, read_input
from redacto.inputs.redaction import (
    Redaction,
    RedactOutcome,
    redact,
    report_file,
    write,
    write_report_only,
)
from redacto.models import ModelChoice, chosen_identity, using_model
from redacto.pipeline import OnEvent, PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.report import InputInfo, RunReport, error_report


@dataclass(frozen=True)
class FileRun:
    """One input's run, in memory: its redaction, or (`redaction` None) the ERROR report of
    a run that ended before it could redact. `report` is as `write` writes it."""

    report: RunReport
    redaction: Redaction | None = None

    def files_as_written(self) -> tuple[OutputFile, ...]:
        """Every file the run writes, byte for byte: a redaction's files then `report.json`,
        or `report.json` alone."""
        if self.redaction is not None:
            return self.redaction.files_as_written()
        return (report_file(self.report),)


def redact_path(
    path: Path,
    out_dir: Path,
    model: ModelChoice = None,
    *,
    prompts: PromptLibrary | None = None,
    read: ReadOptions | None = None,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
    on_input: Callable[[InputFile], None] | None = None,
) -> RedactOutcome:
    """Check, read, redact and write one file into `out_dir`.

    `model`: an open engine, or what `redacto.models.open_model` opens (and this closes).
    `prompts` None loads the shipped prompts. The model's own settings are applied inside
    the pipeline (`redacto.pipeline.policy`), whatever `options` ask. `on_input` sees the
    input once it is read (before any model time), `on_event` the steps.

    Raises `BadInputError` when the input cannot be redacted as given: nothing was written.
    Every other failure is an ERROR outcome whose report.json is written and whose stale
    redacted files are removed; an `OSError` escapes only when not even that report can be
    written.
    """
    read = read or ReadOptions()
    check_input(path, out_dir, read.elements_path)
    ran = run_input(
        path,
        lambda: read_input(path, read),
        lambda: input_info(path),
        model,
        prompts=prompts,
        options=options,
        on_event=on_event,
        on_input=on_input,
    )
    if ran.redaction is not None:
        return write(ran.redaction, out_dir)
    return write_report_only(ran.report, out_dir, path)


def run_input(
    name: Path,
    read_source: Callable[[], InputFile],
    info: Callable[[], InputInfo],
    model: ModelChoice = None,
    *,
    prompts: PromptLibrary | None = None,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
    on_input: Callable[[InputFile], None] | None = None,
    open_model: Callable[[], AbstractContextManager[Engine]] | None = None,
) -> FileRun:
    """Read an input (`read_source`), open the model and redact, all in memory.

    `name` is the input's file (its kind, by suffix); `info` its report's record, asked
    only for a run that fails before the input is read. `open_model` opens the model once
    the input is read (default: `using_model(model)`; `redacto.redactor` gives the engine
    it keeps open across runs). Raises `BadInputError` as `read_source` does (nothing to
    write); every other failure is an ERROR `FileRun`.
    """
    try:
        library = prompts if prompts is not None else PromptLibrary.load()
        source = read_source()
    except (EngineError, PromptError) as error:
        return failed_run(name, info, chosen_identity(model), error)
    if on_input is not None:
        on_input(source)
    try:
        engine = open_model() if open_model is not None else using_model(model)
    except EngineError as error:
        return failed_run(name, info, chosen_identity(model), error, doing="cannot open the model")
    with engine as opened:
        redaction = redact(source, opened, library, options=options, on_event=on_event)
    return FileRun(redaction.report_as_written, redaction)


def failed_run(
    name: Path,
    info: Callable[[], InputInfo],
    identity: ModelIdentity,
    error: BaseException,
    *,
    doing: str | None = None,
) -> FileRun:
    """A run that failed before it could redact (exit 1): an ERROR report naming the input,
    and no redacted file, so an earlier run's outputs cannot pass for this one's."""
    report = error_report(input_mode(name), identity, error, doing=doing)
    report.input = info()
    return FileRun(report)
