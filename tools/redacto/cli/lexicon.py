"""`redacto lexicon build|vectors`: the residual check's dictionaries and shared vectors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redacto.cli._app import app
from redacto.host.resources import in_checkout

lexicon_app = typer.Typer(
    help="The residual check's lexicon: build its dictionary files, write its shared vectors.",
    no_args_is_help=True,
)
app.add_typer(lexicon_app, name="lexicon")

_CheckOption = Annotated[
    bool,
    typer.Option(
        "--check",
        help="Compare with the committed files instead of writing (exit 1 if they differ).",
    ),
]


def _checkout_path(relative: str, out: Path | None) -> Path:
    try:
        return out or in_checkout(relative)
    except FileNotFoundError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


@lexicon_app.command("build")
def build_command(
    check: _CheckOption = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: lexicon/).")
    ] = None,
) -> None:
    """Expand Debian's Hunspell dictionaries (en_US, fr) into lexicon/*.words.gz, pinned by
    sha256 in lexicon/manifest.json, with their licence notices."""
    from redacto.lexicon.build import build
    from redacto.lexicon.build import check as check_lexicon

    target = _checkout_path("lexicon", out)
    if check:
        results = check_lexicon(target)
        for result in results:
            state = "ok" if result.ok else "STALE"
            if not result.judged:
                state = "not judged"
            typer.echo(f"{result.language}: {state}: {result.message}")
        raise typer.Exit(0 if all(result.ok for result in results) else 1)
    for entry in build(target):
        typer.echo(
            f"{entry.language}: {entry.forms} forms, {entry.file} sha256 {entry.sha256[:16]}…"
        )


@lexicon_app.command("vectors")
def vectors_command(
    check: _CheckOption = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output file (default: tests/vectors/lexicon/residual.json)."),
    ] = None,
) -> None:
    """Write the residual check's golden vectors from tests/vectors/lexicon/texts.json."""
    from redacto.lexicon.vectors import VECTORS_RELATIVE, render_vectors

    target = _checkout_path(VECTORS_RELATIVE, out)
    texts = in_checkout(VECTORS_RELATIVE).with_name("texts.json")
    rendered = render_vectors(texts)
    if check:
        if not target.is_file() or target.read_text(encoding="utf-8") != rendered:
            typer.echo(f"error: {target} is stale: run `redacto lexicon vectors`", err=True)
            raise typer.Exit(1)
        typer.echo(f"{target} is up to date")
        return
    target.write_text(rendered, encoding="utf-8")
    typer.echo(f"wrote {target}")
