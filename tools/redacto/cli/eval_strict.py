"""`redacto eval strict`: `--strict` applied to a finished run's outputs, and rescored."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from redacto.cli.eval import _err, eval_app

if TYPE_CHECKING:
    from redacto.evaluation.summary import Metrics


@eval_app.command("strict")
def strict_command(
    run_dir: Annotated[Path, typer.Argument(help="A finished `redacto eval run` folder.")],
    suite: Annotated[str, typer.Option(help="The run's corpus suite.")] = "main",
) -> None:
    """Redact every word no reader could explain in each output of RUN_DIR (the residual
    check, as --strict does), score again, and print token recall, precision and F2 per
    mode as the run had them and with strict (`redacto.evaluation.strict_outputs`)."""
    from redacto.corpus import load_suite
    from redacto.document import Mode
    from redacto.evaluation.results import read_results
    from redacto.evaluation.strict_outputs import strict_results
    from redacto.evaluation.summary import Metrics

    results = read_results(run_dir)
    if not results:
        _err.print(f"[red]no results in {run_dir}[/red]")
        raise typer.Exit(2)
    strict = strict_results(results, load_suite(suite))
    for mode in Mode:
        for name, rows in (("as run", results), ("strict", strict)):
            scores = [r.score for r in rows if r.mode is mode]
            if scores:
                typer.echo(f"{mode.value}, {name}: {_metrics(Metrics.of(scores))}")


def _metrics(metrics: Metrics) -> str:
    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value:.1%}"

    return (
        f"token recall {pct(metrics.token_recall)}, precision {pct(metrics.token_precision)},"
        f" F2 {pct(metrics.token_f2)}, {metrics.leaky_documents} leaky of {metrics.documents}"
    )
