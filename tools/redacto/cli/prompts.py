"""`redacto prompts …`: compile prompts/ into the app, and show a rendered prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redacto.cli._app import app
from redacto.cli._options import CheckOption
from redacto.document import Category, Mode, Step
from redacto.host.resources import in_checkout
from redacto.prompts import PromptError, PromptLibrary
from redacto.prompts.kotlin import (
    KOTLIN_RELATIVE_PATH,
    StaleKotlinError,
    check_kotlin,
    write_kotlin,
)

prompts_app = typer.Typer(
    help="The prompt library: compile it into the Android app, inspect a rendered prompt.",
    no_args_is_help=True,
)
app.add_typer(prompts_app, name="prompts")

PromptsDir = Annotated[
    Path | None,
    typer.Option("--prompts", help="Prompts folder (default: the repository's prompts/)."),
]


def _load(prompts: Path | None) -> PromptLibrary:
    try:
        return PromptLibrary.load(prompts)
    except PromptError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


@prompts_app.command("kotlin")
def kotlin(
    check: CheckOption = False,
    prompts: PromptsDir = None,
    out: Annotated[
        Path | None, typer.Option("--out", help=f"Output file (default: {KOTLIN_RELATIVE_PATH}).")
    ] = None,
) -> None:
    """Render every prompt into PipelinePrompts.kt, the app's compiled-in copy of prompts/."""
    library = _load(prompts)
    try:
        target = out or in_checkout(KOTLIN_RELATIVE_PATH)
    except FileNotFoundError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if check:
        try:
            check_kotlin(library, target)
        except StaleKotlinError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"{target} is up to date")
        return
    changed = write_kotlin(library, target)
    typer.echo(f"{'wrote' if changed else 'unchanged'} {target}")


@prompts_app.command("show")
def show(
    step: Annotated[Step, typer.Argument(help="classify, detect, redact or validate.")],
    mode: Annotated[Mode, typer.Option(help="image or text.")] = Mode.TEXT,
    category: Annotated[
        Category | None, typer.Option(help="Category for detect and validate, e.g. Medical.")
    ] = None,
    prompts: PromptsDir = None,
) -> None:
    """Print one rendered prompt variant and its rough size (characters / 4 ≈ tokens)."""
    library = _load(prompts)
    try:
        template = library.prompt(step, mode, category)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"# {template.name} v{template.version} ({template.mode}, {template.output_format})")
    typer.echo(f"# system ≈ {len(template.system) // 4} tokens; variables {template.variables}")
    typer.echo("## system")
    typer.echo(template.system)
    typer.echo("## user")
    typer.echo(template.user)
