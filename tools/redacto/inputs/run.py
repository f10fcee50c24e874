"""One file, one call: check it, open the model, `read_input`, `redact`, `write`.

`redact_path` is what `redacto redact` runs. It adds to the three steps only what a run
from a path needs around them: the cheap checks first (the output folder too, before any
model time), the model chosen by name, and an ERROR report for a run that fails before
it can redact (no model, prompts that do not load, OCR that fails).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from redacto.engines import Engine, EngineError, ModelIdentity, open_engine
from redacto.inputs.base import InputFile, ReadOptions, input_info
from redacto.inputs.read import check_input, input_mode, read_input
from redacto.inputs.redaction import RedactOutcome, redact, write, write_report_only
from redacto.pipeline import OnEvent, PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.report import error_report

ModelChoice = Engine | str | None
"""An open engine (the caller keeps it open and closes it), or a model name, `.litertlm`
path or engine URI that `redact_path` resolves, opens and closes itself (None: the
embedded default, `redacto.models.DEFAULT_MODEL`)."""


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

    `prompts` None loads the shipped prompts. The model's manifest settings are applied
    inside the pipeline (`redacto.pipeline.policy`), whatever `options` ask. `on_input`
    sees the input once it is read (before any model time), `on_event` the steps.

    Raises `BadInputError` when the input cannot be redacted as given: nothing was written.
    Every other failure is an ERROR outcome whose report.json is written and whose stale
    redacted files are removed; an `OSError` escapes only when not even that report can be
    written.
    """
    read = read or ReadOptions()
    check_input(path, out_dir, read.elements_path)
    identity = model.identity if isinstance(model, Engine) else named_model(model)
    try:
        target = model if isinstance(model, Engine) else resolve_model_uri(model)
        if isinstance(target, str):
            identity = named_model(target)
        library = prompts if prompts is not None else PromptLibrary.load()
        source = read_input(path, read)
    except (EngineError, PromptError) as error:
        return write_failure(path, out_dir, identity, error)
    if on_input is not None:
        on_input(source)
    try:
        engine = _engine(target)
    except EngineError as error:
        return write_failure(path, out_dir, identity, error, doing="cannot open the model")
    with engine as opened:
        redaction = redact(source, opened, library, options=options, on_event=on_event)
    return write(redaction, out_dir)


def _engine(target: Engine | str) -> AbstractContextManager[Engine]:
    """The caller's open engine (left open), or the engine a URI names (closed after)."""
    return nullcontext(target) if isinstance(target, Engine) else open_engine(target)


def resolve_model_uri(model: str | None) -> str:
    """The engine URI a model name, `.litertlm` path or URI stands for (None: the default).

    Raises `EngineError` naming the command that builds a model that is not built yet.
    """
    from redacto.models import DEFAULT_MODEL, ModelError, resolve_model

    try:
        return resolve_model(model or DEFAULT_MODEL)
    except ModelError as error:
        raise EngineError(str(error)) from error


def named_model(model: str | None) -> ModelIdentity:
    """Who would have answered, for the report of a run that ended before a model was open."""
    from redacto.models import DEFAULT_MODEL

    uri = model or DEFAULT_MODEL
    return ModelIdentity(uri=uri, name=Path(uri.partition(":")[2] or uri).name)


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
