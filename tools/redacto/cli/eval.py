"""`redacto eval run | compare | presidio`: thin commands over `redacto.evaluation`."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from redacto.cli._app import app
from redacto.cli._options import (
    DEFAULT_DETECTORS,
    DetectorsOption,
    RayOption,
    StrictOption,
    parse_detectors,
)
from redacto.corpus.schema import PageInput
from redacto.document import ConstrainedDecoding, ImageReading, Mode, detectors_text
from redacto.evaluation.results import RunConfig, RunError, RunSummary
from redacto.evaluation.run import System, run_evaluation
from redacto.pipeline.state import MAX_ROUNDS

if TYPE_CHECKING:
    from redacto.evaluation.workers import Workers

eval_app = typer.Typer(
    name="eval",
    help="Score the pipeline (or Presidio) on a labelled corpus suite; compare runs.",
    no_args_is_help=True,
)
app.add_typer(eval_app, name="eval")

_err = Console(stderr=True)


class OcrOption(StrEnum):
    GOLD = "gold"
    PPOCR = "ppocr"
    TESSERACT = "tesseract"


class ModeOption(StrEnum):
    IMAGE = "image"
    TEXT = "text"
    BOTH = "both"


class ImagePathOption(StrEnum):
    WORDS = "words"
    REDACTOR = "redactor"


def _modes(mode: ModeOption) -> tuple[Mode, ...]:
    return (Mode.IMAGE, Mode.TEXT) if mode is ModeOption.BOTH else (Mode(mode.value),)


def _default_out(
    suite: str,
    system: str,
    mode: ModeOption,
    ocr: OcrOption,
    page_input: PageInput = PageInput.IMAGE,
) -> Path:
    """`out/eval/<suite>-<system>-<mode>[-<input>]-<ocr>` (out/ is git-ignored)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", Path(system.partition(":")[2] or system).stem).strip("-")
    pages = "" if page_input is PageInput.IMAGE else f"-{page_input.value}"
    return Path("out") / "eval" / f"{suite}-{slug or 'system'}-{mode.value}{pages}-{ocr.value}"


def _ocr_for(ocr: OcrOption | None, page_input: PageInput) -> OcrOption:
    """The OCR a run uses: gold words for photos unless told, PP-OCR for PDFs unless told.

    A PDF is always read by the product's PDF path, which needs a real OCR engine (for a
    scan, and for what a born-digital page shows outside its text layer)."""
    if page_input is PageInput.IMAGE:
        return ocr or OcrOption.GOLD
    if ocr is OcrOption.GOLD:
        raise typer.BadParameter(
            "a PDF input is read by an OCR engine: --ocr ppocr or tesseract", param_hint="--ocr"
        )
    return ocr or OcrOption.PPOCR


def _execute(
    system: System,
    config: RunConfig,
    out: Path,
    peer_dir: Path | None = None,
    workers: Workers | None = None,
) -> RunSummary:
    from redacto.corpus.suites import load_suite
    from redacto.evaluation.results import read_summary

    peer = read_summary(peer_dir) if peer_dir is not None else None
    try:
        documents = load_suite(config.suite)
    except (FileNotFoundError, ValueError) as error:
        raise RunError(f"cannot load suite {config.suite!r}: {error}") from error
    if config.split is not None:
        documents = [d for d in documents if d.split == config.split]
        if not documents:
            raise RunError(f"suite {config.suite!r} has no documents in split {config.split!r}")
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=_err, transient=False) as progress:
        task = progress.add_task(f"{config.suite} × {config.system}", total=None)

        def on_progress(done: int, total: int, _result: object) -> None:
            progress.update(task, completed=done, total=total)

        summary = run_evaluation(
            system, documents, config, out, on_progress=on_progress, peer=peer, workers=workers
        )
    _print_headline(summary, out)
    return summary


def _print_headline(summary: RunSummary, out: Path) -> None:
    for mode, mode_summary in summary.modes.items():
        overall = mode_summary.overall

        def pct(value: float | None) -> str:
            return "—" if value is None else f"{100 * value:.1f}%"

        _err.print(
            f"{mode.value}: token recall {pct(overall.token_recall)}, precision "
            f"{pct(overall.token_precision)}, F2 {pct(overall.token_f2)}, leak rate "
            f"{pct(overall.leak_rate)}, preserve violations "
            f"{pct(overall.preserve_violation_rate)}, false PASS "
            f"{pct(mode_summary.validator.false_pass_rate)}, "
            f"{mode_summary.cost.pages_per_minute or 0:.2f} pages/min",
            highlight=False,
        )
    _err.print(f"wrote {out / 'summary.json'}, {out / 'report.md'}, {out / 'report.html'}")


@eval_app.command("run")
def run_command(
    suite: Annotated[str, typer.Option(help="Suite name under eval/suites/.")],
    model: Annotated[
        str,
        typer.Option(help="A built model's name (gemma-3-270m) or an engine URI (litertlm:PATH)."),
    ],
    split: Annotated[
        str | None, typer.Option(help="Only documents of this split (train, test, hard).")
    ] = None,
    ocr: Annotated[
        OcrOption | None,
        typer.Option(
            help="Words for image mode: gold or an OCR (default: gold; ppocr for PDF inputs, "
            "which read their text layer and OCR every page)."
        ),
    ] = None,
    page_input: Annotated[
        PageInput,
        typer.Option(
            "--input",
            help="What image mode reads: the photo, or the page as a born-digital PDF "
            "(pdf-text) or a scanned PDF (pdf-scan), through the PDF reading path.",
        ),
    ] = PageInput.IMAGE,
    mode: Annotated[ModeOption, typer.Option(help="image, text, or both side by side.")] = (
        ModeOption.IMAGE
    ),
    rules: Annotated[bool, typer.Option(help="Run the checksum rules before detect.")] = True,
    detectors: DetectorsOption = DEFAULT_DETECTORS,
    gold_category: Annotated[
        bool,
        typer.Option(
            help="Give each document its true category (classify skipped): measures detect, "
            "rules and validate apart from classification."
        ),
    ] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N documents.")] = None,
    out: Annotated[Path | None, typer.Option(help="Run directory (resumable).")] = None,
    peer: Annotated[
        Path | None, typer.Option(help="A finished run (e.g. Presidio) to show beside this one.")
    ] = None,
    image_reading: Annotated[
        ImageReading | None,
        typer.Option(
            help="How image mode shows a page to the model: indexed words or text lines "
            "(default: the model manifest's choice)."
        ),
    ] = None,
    max_rounds: Annotated[
        int,
        typer.Option(
            min=1, help="Redact+validate rounds at most (3, the product's; 1 measures detect)."
        ),
    ] = MAX_ROUNDS,
    constrained_decoding: Annotated[
        ConstrainedDecoding | None,
        typer.Option(
            help="Which calls decode under a pattern built from the page's words "
            "(default: the model manifest's choice)."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Documents on this many processes of this machine, each with the model open "
            "(with --ray: how many actors).",
        ),
    ] = 1,
    ray: RayOption = None,
    strict: StrictOption = False,
) -> None:
    """Run the pipeline over a suite; rerunning into the same --out resumes."""
    from redacto.batch import WorkerStartError
    from redacto.evaluation.pipeline_system import PipelineSpec
    from redacto.evaluation.workers import Workers
    from redacto.host.resources import portable
    from redacto.models import ModelError, resolve_model

    try:
        model = resolve_model(model)
    except ModelError as error:
        _err.print(f"[red]cannot start the pipeline:[/red] {error}")
        raise typer.Exit(2) from error
    ocr = _ocr_for(ocr, page_input)
    tiers = parse_detectors(detectors)
    config = RunConfig(
        suite=suite,
        split=split,
        system=portable(model),  # no machine's folders in a committed baseline
        modes=_modes(mode),
        ocr=ocr.value,
        rules=rules,
        detectors=detectors_text(tiers),
        gold_category=gold_category,
        limit=limit,
        image_reading=image_reading,
        max_rounds=max_rounds,
        page_input=page_input,
        constrained_decoding=constrained_decoding,
        strict=strict,
    )
    out = out or _default_out(suite, model, mode, ocr, page_input)
    spec = PipelineSpec(
        model,
        ocr=ocr.value,
        rules=rules,
        gold_category=gold_category,
        # None: the model manifest's choice, applied by run_pipeline like every setting.
        image_reading=image_reading,
        max_rounds=max_rounds,
        constrained_decoding=constrained_decoding,
        detectors=tiers,
        strict=strict,
    )
    spread = Workers(spec, workers, ray) if workers > 1 or ray is not None else None
    try:
        system = spec.system()
    except Exception as error:
        _err.print(f"[red]cannot start the pipeline:[/red] {type(error).__name__}: {error}")
        raise typer.Exit(2) from error
    if spread is not None:
        # Opened only to name the run (and to fail before any worker starts): the workers
        # open their own, so its model is not held for the whole run. Closing twice is safe.
        system.close()
    try:
        _execute(system, config, out, peer, spread)
    except RunError as error:
        _err.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from error
    except WorkerStartError as error:
        _err.print(f"[red]cannot start the pipeline:[/red] {error}")
        raise typer.Exit(2) from error
    finally:
        system.close()


@eval_app.command("presidio")
def presidio_command(
    suite: Annotated[str, typer.Option(help="Suite name under eval/suites/.")],
    split: Annotated[
        str | None, typer.Option(help="Only documents of this split (train, test, hard).")
    ] = None,
    ocr: Annotated[OcrOption, typer.Option(help="Words for image mode: gold or an OCR.")] = (
        OcrOption.GOLD
    ),
    mode: Annotated[ModeOption, typer.Option(help="image, text, or both.")] = ModeOption.BOTH,
    image_path: Annotated[
        ImagePathOption,
        typer.Option(
            help="words: analyzer on the same words as ours; redactor: "
            "presidio-image-redactor with its own Tesseract."
        ),
    ] = ImagePathOption.WORDS,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N documents.")] = None,
    out: Annotated[Path | None, typer.Option(help="Run directory (resumable).")] = None,
) -> None:
    """Run the Presidio baseline over a suite, scored by the same scorer."""
    from redacto.evaluation.presidio import PresidioSystem

    system_name = f"presidio-{image_path.value}"
    config = RunConfig(
        suite=suite,
        split=split,
        system=system_name,
        modes=_modes(mode),
        ocr=ocr.value,
        rules=False,
        limit=limit,
    )
    out = out or _default_out(suite, system_name, mode, ocr)
    try:
        system = PresidioSystem(ocr=ocr.value, image_path=image_path.value)
    except Exception as error:
        _err.print(f"[red]cannot start Presidio:[/red] {type(error).__name__}: {error}")
        raise typer.Exit(2) from error
    try:
        _execute(system, config, out)
    except RunError as error:
        _err.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from error


@eval_app.command("compare")
def compare_command(
    run_a: Annotated[Path, typer.Argument(help="The earlier (reference) run directory.")],
    run_b: Annotated[Path, typer.Argument(help="The later run directory.")],
    out: Annotated[Path | None, typer.Option(help="Also write the comparison here (.md).")] = None,
) -> None:
    """Show per metric and per document what got better or worse from A to B."""
    from redacto.evaluation.compare import compare_runs, comparison_markdown

    try:
        comparison = compare_runs(run_a, run_b)
    except RunError as error:
        _err.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from error
    text = comparison_markdown(comparison)
    typer.echo(text)
    if out is not None:
        out.write_text(text, encoding="utf-8")
