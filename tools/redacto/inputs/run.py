"""One file, one call: check it, open the model, `read_input`, `redact`, `write`.

`redact_path` is what `redacto redact` runs. It adds to the three steps only what a run
from a path needs around them: the cheap checks first (the output folder too, before any
model time), the model chosen by name, and an ERROR report for a run that fails before
it can redact (no model, prompts that do not load, OCR that fails).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from redacto.engines import EngineError, ModelIdentity
from redacto.inputs.base import InputFile, ReadOptions, input_info
from redacto.inputs.read import check_input, input_mode, read_input
from redacto.inputs.redaction import RedactOutcome, redact, write, write_report_only
from redacto.models import ModelChoice, chosen_identity, using_model
from redacto.pipeline import OnEvent, PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.report import error_report


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
    try:
        library = prompts if prompts is not None else PromptLibrary.load()
        source = read_input(path, read)
    except (EngineError, PromptError) as error:
        return write_failure(path, out_dir, chosen_identity(model), error)
    if on_input is not None:
        on_input(source)
    try:
        engine = using_model(model)
    except EngineError as error:
        return write_failure(
            path, out_dir, chosen_identity(model), error, doing="cannot open the model"
        )
    with engine as opened:
        redaction = redact(source, opened, library, options=options, on_event=on_event)
    return write(redaction, out_dir)


def write_failure(
    path: Path,
    out_dir: Path,
    identity: ModelIdentity,
    error: BaseException,
    *,
    doing: str | None = None,
) -> RedactOutcome:
    """Record a run that failed before it could redact (exit 1): an ERROR report naming the
    input, and no redacted file, so an earlier run's outputs cannot pass for this one's."""
    report = error_report(input_mode(path), identity, error, doing=doing)
    report.input = input_info(path)
    return write_report_only(report, out_dir, path)
