"""`redacto redact INPUT`: redact one photo, PDF or text file, showing each step as it runs.

Exit codes: 0 PASS, 10 NEEDS_REVIEW (outputs written and flagged), 2 bad input (nothing
written), 1 engine or internal error (report.json only, no redacted output claimed).
The progress line carries counts and the category, never document values.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.document import Category
from redacto.engines import EngineError, ModelIdentity, open_engine
from redacto.pipeline import Phase, PipelineOptions, ProgressEvent
from redacto.prompts import PromptError, PromptLibrary
from redacto.redact_file import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    BadInputError,
    check_input,
    prepare_input,
    redact_prepared,
    write_error,
)
from redacto.report import Status

EXIT_ERROR = EXIT_CODES[Status.ERROR]


class OcrChoice(StrEnum):
    PPOCR = "ppocr"
    TESSERACT = "tesseract"


class _Progress:
    """One live status line on stderr; each finished step stays printed above it."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.status = console.status("Starting…")

    def __enter__(self) -> _Progress:
        self.status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.status.stop()

    def __call__(self, event: ProgressEvent) -> None:
        line = event.describe()
        if event.phase is Phase.END:
            self.console.print(f"[green]✓[/green] {line}", highlight=False)
        else:
            self.status.update(line)


@app.command("redact")
def redact_command(
    input_path: Annotated[
        Path,
        typer.Argument(metavar="INPUT", help="A photo (png/jpg/webp), a PDF, or text (txt/md)."),
    ],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Model name, .litertlm path or engine URI (litertlm:, scripted:, …). "
            "Default: the embedded default model.",
        ),
    ] = None,
    ocr: Annotated[
        OcrChoice, typer.Option("--ocr", help="OCR engine for photos and scanned PDF pages.")
    ] = OcrChoice.PPOCR,
    elements: Annotated[
        Path | None,
        typer.Option(
            "--elements",
            help='JSON list of {"text", "box": [x0, y0, x1, y1]} in reading order; skips OCR.',
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (default: out/<input name>)."),
    ] = None,
    no_rules: Annotated[
        bool, typer.Option("--no-rules", help="Skip the checksum-validated rules.")
    ] = False,
    category: Annotated[
        Category | None,
        typer.Option(
            "--category",
            help="What the document is, when you know: skips the classify step.",
            case_sensitive=False,
        ),
    ] = None,
) -> None:
    """Redact INPUT: classify, detect, redact, validate; write redacted file and report.json."""
    console = Console(stderr=True, soft_wrap=True)
    out_dir = out if out is not None else Path("out") / input_path.stem
    try:
        check_input(input_path, out_dir, elements)  # the output folder too, before any model time
    except BadInputError as error:
        _bad_input(console, error)
    identity = _named_model(model)
    try:
        uri = _resolve_model(model)
        identity = _named_model(uri)
        prompts = PromptLibrary.load()
        with console.status("Reading the input…") as reading:

            def on_page(done: int, total: int) -> None:
                reading.update(f"Reading the PDF: page {done}/{total}…")

            prepared = prepare_input(
                input_path, ocr=ocr.value, elements_path=elements, on_page=on_page
            )
    except BadInputError as error:
        _bad_input(console, error)
    except (EngineError, PromptError) as error:
        _failed_early(console, f"{error}", error, input_path, out_dir, identity)

    # The model's manifest (validator trust and the other `[pipeline]` settings) is applied
    # by the library itself, for every caller: see redacto.pipeline.policy.
    options = PipelineOptions(rules=not no_rules, category=category)
    try:
        engine = open_engine(uri)
    except EngineError as error:
        message = f"cannot open the model: {error}"
        _failed_early(console, message, error, input_path, out_dir, identity)
    from redacto.imaging import BadImageError

    with engine, _Progress(console) as progress:
        try:
            outcome = redact_prepared(
                prepared, engine, prompts, out_dir, options=options, on_event=progress
            )
        except (OSError, BadImageError) as error:
            message = f"cannot write the outputs: {type(error).__name__}: {error}"
            _failed_early(console, message, error, input_path, out_dir, engine.identity)

    report = outcome.report
    if report.status is Status.ERROR:
        console.print(f"[red]ERROR:[/red] {report.error}", highlight=False)
    else:
        reasons = "; ".join(reason.value for reason in report.review_reasons)
        colour = "green" if report.status is Status.PASS else "yellow"
        console.print(
            f"[{colour}]{report.status.value}[/{colour}] {report.category.value}, "
            f"{report.count_shown} redacted, {report.rounds} round(s)"
            + (f" — {reasons}" if reasons else ""),
            highlight=False,
        )
    for path in outcome.written:
        typer.echo(str(path))
    raise typer.Exit(outcome.exit_code)


def _resolve_model(model: str | None) -> str:
    """The engine URI to open; a model that is not built names the command that builds it."""
    from redacto.models import DEFAULT_MODEL, ModelError, resolve_model

    try:
        return resolve_model(model or DEFAULT_MODEL)
    except ModelError as error:
        raise EngineError(str(error)) from error


def _named_model(model: str | None) -> ModelIdentity:
    """Who would have answered, for the report of a run that ended before a model was open."""
    from redacto.models import DEFAULT_MODEL

    uri = model or DEFAULT_MODEL
    return ModelIdentity(uri=uri, name=Path(uri.partition(":")[2] or uri).name)


def _bad_input(console: Console, error: BadInputError) -> NoReturn:
    console.print(f"[red]bad input:[/red] {error}", highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT)


def _failed_early(
    console: Console,
    message: str,
    error: BaseException,
    input_path: Path,
    out_dir: Path,
    identity: ModelIdentity,
) -> NoReturn:
    """Exit 1 with an ERROR report.json (and no redacted file) in the output folder, so a
    folder never shows an earlier run's result as if this run had produced it."""
    console.print(f"[red]error:[/red] {message}", highlight=False)
    try:
        outcome = write_error(input_path, out_dir, identity, error)
    except (OSError, BadInputError) as failure:
        console.print(f"[red]error:[/red] cannot write to {out_dir}: {failure}", highlight=False)
    else:
        for path in outcome.written:
            typer.echo(str(path))
    raise typer.Exit(EXIT_ERROR)
