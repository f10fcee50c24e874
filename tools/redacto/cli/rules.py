"""`redacto rules kotlin`: compile the rule files into the app, as the prompts are."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redacto.cli._app import app
from redacto.cli._options import CheckOption
from redacto.host.resources import in_checkout
from redacto.rules.kotlin import (
    KOTLIN_RELATIVE_PATH,
    StaleRulesKotlinError,
    check_kotlin,
    write_kotlin,
)

rules_app = typer.Typer(
    help="The checksum-validated rules: compile their files into the Android app.",
    no_args_is_help=True,
)
app.add_typer(rules_app, name="rules")


@rules_app.command("kotlin")
def kotlin(
    check: CheckOption = False,
    out: Annotated[
        Path | None, typer.Option("--out", help=f"Output file (default: {KOTLIN_RELATIVE_PATH}).")
    ] = None,
) -> None:
    """Render recognizers.yaml and categories.yaml into RuleFiles.kt, the app's copy."""
    try:
        target = out or in_checkout(KOTLIN_RELATIVE_PATH)
    except FileNotFoundError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if check:
        try:
            check_kotlin(target)
        except StaleRulesKotlinError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"{target} is up to date")
        return
    changed = write_kotlin(target)
    typer.echo(f"{'wrote' if changed else 'unchanged'} {target}")
