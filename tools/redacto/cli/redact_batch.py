"""`redacto redact INPUT… --out DIR`: many files and folders in one run (`redacto.batch`).

A progress bar over the files on stderr (file names only, never document values), then a
closing table: the count per status and every input that did not PASS, with its reason.
The exit code is the worst status's: 0 PASS, 10 NEEDS_REVIEW, 1 ERROR; 2 when the batch
cannot start (bad `--out`, no input found).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from redacto.batch import (
    BatchConfig,
    BatchError,
    BatchResult,
    WorkerStartError,
    run_batch,
    status_counts,
)
from redacto.document import Status
from redacto.inputs import EXIT_BAD_INPUT, EXIT_CODES

EXIT_INTERRUPTED = 130


def run_batch_command(config: BatchConfig, console: Console) -> NoReturn:
    """Run the batch with a progress bar and end the command with its exit code."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with _stop_on_sigterm(), Progress(*columns, console=console) as progress:
            task = progress.add_task("Redacting", total=None)

            result = run_batch(
                config,
                on_start=lambda total: progress.update(task, total=total),
                on_row=lambda _row: progress.advance(task),
            )
    except BatchError as error:
        console.print(f"[red]bad input:[/red] {error}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except WorkerStartError as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(EXIT_CODES[Status.ERROR]) from None
    except KeyboardInterrupt:
        console.print(
            "[yellow]stopped:[/yellow] finished outputs are complete; "
            "run again with --resume to do the rest",
            highlight=False,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    console.print(closing_table(result))
    console.print(f"summary: {config.out_dir / 'summary.json'}", highlight=False)
    raise typer.Exit(result.exit_code)


def closing_table(result: BatchResult) -> Table:
    """One line per input that needs a look (not PASS) with its reason, then the count of
    each status."""
    table = Table(title="redacto: batch summary")
    table.add_column("status")
    table.add_column("file")
    table.add_column("reason")
    for row in result.rows:
        if row.status is not Status.PASS:
            table.add_row(row.status.value, row.file, row.reason)
    resumed = sum(row.resumed for row in result.rows)
    counts = ", ".join(
        f"{count} {status.value}" for status, count in status_counts(result.rows).items()
    )
    table.caption = (
        f"{len(result.rows)} file(s): {counts}"
        + (f"; {resumed} already done (--resume)" if resumed else "")
        + (
            f"; {result.passed_over} in the folders passed over (hidden, or no input kind)"
            if result.passed_over
            else ""
        )
    )
    return table


@contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """SIGTERM stops the batch as Ctrl-C does: the driver stops its workers, and every
    output already in place stays complete (`redacto.batch.store`)."""

    def stop(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
