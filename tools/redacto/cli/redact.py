"""`redacto redact INPUT`: redact one photo, PDF or text file, showing each step as it runs.

One file is redacted through the Python API (`redacto.Redactor`, docs/api.md) and its result
written as `RedactResult.write` writes it. Several inputs, or a folder, make a batch
(`redacto.cli.redact_batch`, docs/batch.md), each worker holding one `Redactor`.

Exit codes: 0 PASS, 10 NEEDS_REVIEW (outputs written and flagged), 2 bad input (nothing
written), 1 engine or internal error (report.json only, no redacted output claimed).
The progress line carries counts and the category, never document values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from redacto.batch import BatchConfig, BatchOptions
from redacto.cli._app import app
from redacto.cli._options import (
    DEFAULT_DETECTORS,
    CategoryOption,
    DetectorsOption,
    LanguageOption,
    ModelOption,
    NoRulesOption,
    OcrChoice,
    OcrOption,
    RayOption,
    StrictOption,
    open_detectors,
    parse_detectors,
    parse_language,
)
from redacto.cli.redact_batch import run_batch_command
from redacto.document import Detector
from redacto.inputs import EXIT_BAD_INPUT, EXIT_CODES, BadInputError, check_input
from redacto.pipeline import Phase, PipelineOptions, ProgressEvent
from redacto.redactor import Redactor
from redacto.report import Status, describe_reasons


class _Progress:
    """One live status line on stderr; each finished step stays printed above it."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.status = console.status("Reading the input…")

    def on_page(self, done: int, total: int) -> None:
        self.status.update(f"Reading the PDF: page {done}/{total}…")

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
    input_paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="INPUT...",
            help="A photo (png/jpg/webp), a PDF, or text (txt/md); several, or folders "
            "(read recursively), make a batch: each input's outputs under --out DIR at its "
            "path, and DIR/summary.json (docs/batch.md).",
        ),
    ],
    model: ModelOption = None,
    ocr: OcrOption = OcrChoice.PPOCR,
    elements: Annotated[
        Path | None,
        typer.Option(
            "--elements",
            help='JSON list of {"text", "box": [x0, y0, x1, y1]} in reading order; skips OCR.',
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output folder (default: out/<input name>); a batch's root (required).",
        ),
    ] = None,
    no_rules: NoRulesOption = False,
    detectors: DetectorsOption = DEFAULT_DETECTORS,
    category: CategoryOption = None,
    no_text_layer: Annotated[
        bool,
        typer.Option(
            "--no-text-layer",
            help="A PDF's redacted.pdf holds the page images only: no searchable text.",
        ),
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="A batch: skip inputs whose outputs in --out are complete for the same "
            "bytes, model and options.",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", min=1, help="A batch: processes on this machine, each with the model open."
        ),
    ] = 1,
    ray: RayOption = None,
    strict: StrictOption = False,
    language: LanguageOption = None,
) -> None:
    """Redact INPUT: classify, detect, redact, validate; write redacted file and report.json.

    Several INPUTs or a folder: a batch, one model kept open, DIR/summary.json at the end.
    """
    console = Console(stderr=True, soft_wrap=True)
    batch = len(input_paths) > 1 or any(path.is_dir() for path in input_paths)
    if batch or resume or workers > 1 or ray is not None:
        if out is None:
            raise typer.BadParameter("a batch needs --out DIR", param_hint="--out")
        if elements is not None:
            raise typer.BadParameter(
                "gives one photo's words; not for a batch", param_hint="--elements"
            )
        # The NER tier is opened by each worker, where it runs.
        pipeline = PipelineOptions(
            rules=not no_rules,
            detectors=parse_detectors(detectors),
            category=category,
            strict=strict,
            language=parse_language(language),
        )
        batch_options = BatchOptions(model, pipeline, ocr.value, text_layer=not no_text_layer)
        config = BatchConfig(tuple(input_paths), out, batch_options, resume, workers, ray)
        run_batch_command(config, console)
    input_path = input_paths[0]
    out_dir = out if out is not None else Path("out") / input_path.stem
    tiers = open_detectors(detectors, console)
    if no_rules:
        tiers -= {Detector.RULES}
    language_code = parse_language(language)
    try:
        check_input(input_path, out_dir, elements)  # before any model time
        # The model's manifest (validator trust and the other `[pipeline]` settings) is
        # applied by the library itself, for every caller: see redacto.pipeline.policy.
        with (
            _Progress(console) as progress,
            Redactor(
                model,
                detectors=tiers,
                ocr=ocr.value,
                category=category,
                strict=strict,
                language=language_code,
                text_layer=not no_text_layer,
            ) as redactor,
        ):
            result = redactor.redact(
                input_path, elements=elements, on_event=progress, on_page=progress.on_page
            )
        outcome = result.write(out_dir)
    except BadInputError as error:
        console.print(f"[red]bad input:[/red] {error}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except OSError as error:
        console.print(f"[red]error:[/red] cannot write to {out_dir}: {error}", highlight=False)
        raise typer.Exit(EXIT_CODES[Status.ERROR]) from None

    report = outcome.report
    if report.status is Status.ERROR:
        console.print(f"[red]ERROR:[/red] {report.error}", highlight=False)
    else:
        reasons = "; ".join(describe_reasons(report))
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
