"""`redacto redact INPUT`: redact one photo or text file, showing each step as it runs.

Exit codes: 0 PASS, 10 NEEDS_REVIEW (outputs written and flagged), 2 bad input (nothing
written), 1 engine or internal error (report.json only, no redacted output claimed).
The progress line carries counts and the category, never document values.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.document import Category
from redacto.engines import EngineError, open_engine
from redacto.pipeline import Phase, PipelineOptions, ProgressEvent
from redacto.prompts import PromptError, PromptLibrary
from redacto.redact_file import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    BadInputError,
    check_input,
    error_report,
    input_mode,
    prepare_input,
    redact_prepared,
    write_outputs,
)
from redacto.report import RunReport, Status

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
        Path, typer.Argument(metavar="INPUT", help="A photo (png/jpg/webp) or text (txt/md).")
    ],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Model name, .litertlm path or engine URI (litertlm:, scripted:, …). "
            "Default: the embedded default model.",
        ),
    ] = None,
    ocr: Annotated[OcrChoice, typer.Option("--ocr", help="OCR engine for photos.")] = (
        OcrChoice.PPOCR
    ),
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
        check_input(input_path, out_dir, elements)
        uri = _resolve_model(model)
        prompts = PromptLibrary.load()
        with console.status("Reading the input…"):
            prepared = prepare_input(input_path, ocr=ocr.value, elements_path=elements)
    except BadInputError as error:
        console.print(f"[red]bad input:[/red] {error}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except (EngineError, PromptError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(EXIT_ERROR) from None

    # The model's manifest (validator trust and the other `[pipeline]` settings) is applied
    # by the library itself, for every caller: see redacto.pipeline.policy.
    options = PipelineOptions(rules=not no_rules, category=category)
    try:
        engine = open_engine(uri)
    except EngineError as error:
        console.print(f"[red]error:[/red] cannot open the model: {error}", highlight=False)
        raise typer.Exit(EXIT_ERROR) from None
    with engine, _Progress(console) as progress:
        try:
            outcome = redact_prepared(
                prepared, engine, prompts, out_dir, options=options, on_event=progress
            )
        except OSError as error:
            report = error_report(input_mode(input_path), engine, error)
            write_outputs_safely(report, out_dir, console)
            raise typer.Exit(EXIT_ERROR) from None

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


def write_outputs_safely(report: RunReport, out_dir: Path, console: Console) -> None:
    """Record an ERROR report when writing the outputs themselves failed, if we still can."""
    from redacto.pipeline import PipelineResult

    try:
        write_outputs(PipelineResult(report=report), None, out_dir)
    except OSError as error:
        console.print(f"[red]error:[/red] cannot write to {out_dir}: {error}", highlight=False)
