"""`redacto eval validator`: the validator alone on built clean and leaky redactions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redacto.cli.eval import _err, eval_app


@eval_app.command("validator")
def validator_command(
    model: Annotated[str, typer.Option(help="Model name, .litertlm path or engine URI.")],
    out: Annotated[Path, typer.Option(help="Folder for verdicts.jsonl (resumes) and summary.")],
    suite: Annotated[str, typer.Option(help="Corpus suite.")] = "main",
    split: Annotated[str, typer.Option(help="Split of the suite.")] = "test",
    limit: Annotated[int | None, typer.Option(help="The first N documents only.")] = None,
) -> None:
    """Ask the validator about complete, over-redacted and leaky redactions of held-out
    documents; prints PASS rates on clean and on leaky ones, per reading."""
    from redacto.corpus import load_suite
    from redacto.engines import open_engine
    from redacto.evaluation.validator_bench import run_validator_bench
    from redacto.models import resolve_model

    try:
        engine = open_engine(resolve_model(model))
    except Exception as error:  # a missing build, a bad URI, a file the runtime refuses
        _err.print(f"[red]cannot open the model:[/red] {type(error).__name__}: {error}")
        raise typer.Exit(2) from error
    documents = [d for d in load_suite(suite) if d.split == split]
    try:
        summary = run_validator_bench(engine, documents, out, limit)
    finally:
        engine.close()
    for reading, tally in summary.readings.items():
        clean = tally.clean_pass_rate
        leaky = tally.leaky_pass_rate
        typer.echo(
            f"{reading}: PASS on {tally.clean_passed}/{tally.clean} clean"
            f" ({'—' if clean is None else f'{clean:.1%}'}), on {tally.leaky_passed}/{tally.leaky}"
            f" leaky ({'—' if leaky is None else f'{leaky:.1%}'})"
        )
