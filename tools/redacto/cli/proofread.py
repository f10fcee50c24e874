"""`redacto proofread INPUT`: a document proofread by an LLM that sees only placeholders.

Exit codes: 0 complete, 1 failed or incomplete (the outputs hold what was placed so far,
marked `complete: false`), 2 bad input (nothing written). Each mistake is printed the
moment it is placed; the progress line and the summary carry counts only (the words left
readable that no reader could explain are counted, and listed in `mistakes.json` alone).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from redacto.cli._app import app
from redacto.cli._options import (
    DEFAULT_DETECTORS,
    CategoryOption,
    DetectorsOption,
    ModelOption,
    NoRulesOption,
    OcrChoice,
    OcrOption,
    UpstreamCaOption,
    ca_file,
    open_detectors,
)
from redacto.inputs import EXIT_BAD_INPUT, BadInputError
from redacto.pipeline import PipelineOptions, ProgressEvent

if TYPE_CHECKING:  # proofreading loads only when the command runs (other commands start faster)
    from redacto.proofread import PlacedMistake

API_KEY_VARIABLE = "REDACTO_UPSTREAM_API_KEY"
"""Named in the help; the same as `redacto.proofread.API_KEY_VARIABLE` (a test checks)."""


class Language(StrEnum):
    AUTO = "auto"
    EN = "en"
    FR = "fr"


@app.command("proofread")
def proofread_command(
    input_path: Annotated[
        Path,
        typer.Argument(metavar="INPUT", help="A PDF, a photo (png/jpg/webp) or text (txt/md)."),
    ],
    out: Annotated[Path, typer.Option("--out", help="Output folder.")],
    upstream: Annotated[
        str | None,
        typer.Option(
            "--upstream",
            help="An OpenAI-compatible server's base URL (http://host:port or https://…). The "
            f"API key, if any, is read from ${API_KEY_VARIABLE}. Without it: Hunspell, offline.",
        ),
    ] = None,
    upstream_ca: UpstreamCaOption = None,
    upstream_model: Annotated[
        str | None,
        typer.Option(
            "--upstream-model", help="The model to ask (default: the first the server lists)."
        ),
    ] = None,
    language: Annotated[
        Language,
        typer.Option(
            "--language",
            help="The document's language (auto: the LLM reads it; Hunspell takes the "
            "dictionary that knows most of its words).",
        ),
    ] = Language.AUTO,
    model: ModelOption = None,
    ocr: OcrOption = OcrChoice.PPOCR,
    no_rules: NoRulesOption = False,
    detectors: DetectorsOption = DEFAULT_DETECTORS,
    category: CategoryOption = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds to wait for each piece of the answer.", min=0.1),
    ] = 120.0,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Hide every word no reader could explain (not a dictionary word of the "
            "document's language, nor kept by a rule of its category: docs/lexicon.md) "
            "behind a placeholder too before the text is sent to the upstream; the LLM then "
            "cannot correct those words. Without it they are sent readable and counted.",
        ),
    ] = False,
) -> None:
    """Proofread INPUT privately: identifiers hidden, mistakes drawn on proofread.pdf."""
    from redacto.proofread import MISTAKES_JSON, ProofreadOptions, UpstreamConfig, proofread_file

    console = Console(stderr=True, soft_wrap=True)
    config = None
    if upstream is not None:
        config = UpstreamConfig(
            url=upstream,
            model=upstream_model,
            timeout_s=timeout,
            ca_file=ca_file(upstream_ca),
        )
    options = ProofreadOptions(
        upstream=config,
        language=language.value,
        ocr=ocr.value,
        strict=strict,
        pipeline=PipelineOptions(
            rules=not no_rules, detectors=open_detectors(detectors, console), category=category
        ),
    )
    if strict and config is None:
        console.print(
            "--strict hides nothing more offline: Hunspell runs here and nothing is sent",
            highlight=False,
        )
    status = console.status("Reading the input…")
    placed: list[PlacedMistake] = []

    def on_mistake(mistake: PlacedMistake) -> None:
        placed.append(mistake)
        where = f"p{mistake.page}" if mistake.located else "not located"
        typer.echo(f"{where}: {mistake.error_text!r} → {mistake.correction!r}")
        status.update(f"Proofreading… {len(placed)} mistake(s)")

    def on_event(event: ProgressEvent) -> None:
        status.update(event.describe())

    try:
        with status:
            outcome = proofread_file(
                input_path,
                out,
                options,
                model,
                on_mistake=on_mistake,
                on_event=on_event,
                on_stage=status.update,
            )
    except BadInputError as error:
        console.print(f"[red]bad input:[/red] {escape(str(error))}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    result = outcome.result
    located = sum(1 for mistake in result.mistakes if mistake.located)
    console.print(
        f"{len(result.mistakes)} mistake(s): {located} placed, "
        f"{len(result.mistakes) - located} not located; "
        f"{result.values_replaced} value(s) replaced by placeholders "
        f"({result.occurrences_replaced} occurrence(s)), {result.values_sent} sent; "
        f"{result.dropped_touching_placeholder} dropped (about a placeholder)",
        highlight=False,
    )
    if result.unexplained:
        hidden = sum(word.hidden for word in result.unexplained)
        console.print(
            f"{len(result.unexplained)} word(s) no reader could explain: {hidden} hidden "
            f"(--strict), {len(result.unexplained) - hidden} left readable (listed in "
            f"{MISTAKES_JSON})",
            highlight=False,
        )
    if not result.complete:
        console.print(
            f"[red]incomplete:[/red] {escape(result.error or '')} — the outputs hold what was "
            "placed so far",
            highlight=False,
        )
    for path in outcome.written:
        typer.echo(str(path))
    raise typer.Exit(outcome.exit_code)
