"""A batch's summary: one typed row per input, written as `summary.json` and `summary.csv`.

The rows hold file names (the user's own output, beside the redacted files), never a
document's text. The exit code is the worst status's (`redacto.inputs.EXIT_CODES`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from redacto.document import Status
from redacto.inputs import EXIT_CODES, atomic_write
from redacto.report import RunReport, describe_reasons

SUMMARY_JSON = "summary.json"
SUMMARY_CSV = "summary.csv"
SUMMARY_FILES = (SUMMARY_JSON, SUMMARY_CSV)
_WORST_FIRST = (Status.ERROR, Status.NEEDS_REVIEW, Status.PASS)


@dataclass(frozen=True)
class SummaryRow:
    """One input of a batch: how its run ended, and why when it did not PASS.

    `file` is the input as found (the INPUT given, joined with its path inside a folder);
    `sha256` its bytes' (empty when they could not be read); `category`, `count` (the boxes
    or placeholders shown), `rounds` as in its report; `seconds` its run's wall time;
    `resumed` that its outputs were already complete (`--resume`) and it was not run again.
    `reason` is the report's error, or its review reasons as a person reads them, the
    residual check's with its count (`3 words no reader could explain`), `; `-separated.
    """

    file: str
    sha256: str
    status: Status
    category: str = ""
    count: int = 0
    rounds: int = 0
    seconds: float = 0.0
    reason: str = ""
    resumed: bool = False

    @classmethod
    def of_report(cls, file: str, report: RunReport, seconds: float) -> SummaryRow:
        """The row of a run that wrote its outputs."""
        if report.status is Status.ERROR:
            reason = report.error or ""
        else:
            reason = "; ".join(describe_reasons(report))
        return cls(
            file=file,
            sha256=report.input.sha256 if report.input is not None else "",
            status=report.status,
            category=report.category.value,
            count=report.count_shown,
            rounds=report.rounds,
            seconds=round(seconds, 3),
            reason=reason,
        )

    @classmethod
    def error(cls, file: str, reason: str, sha256: str = "", seconds: float = 0.0) -> SummaryRow:
        """The row of an input that wrote nothing: bad input, a lost worker, a failed write."""
        return cls(file, sha256, Status.ERROR, seconds=round(seconds, 3), reason=reason)

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "status": self.status.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SummaryRow:
        return cls(**{**data, "status": Status(data["status"])})


COLUMNS = tuple(field.name for field in fields(SummaryRow))


def worst_status(rows: Sequence[SummaryRow]) -> Status:
    """ERROR over NEEDS_REVIEW over PASS; PASS for no rows."""
    present = {row.status for row in rows}
    return next((status for status in _WORST_FIRST if status in present), Status.PASS)


def exit_code(rows: Sequence[SummaryRow]) -> int:
    """The batch's exit code: its worst status's, as a single run's."""
    return EXIT_CODES[worst_status(rows)]


def status_counts(rows: Sequence[SummaryRow]) -> dict[Status, int]:
    """How many rows ended in each status, every status listed."""
    return {status: sum(row.status is status for row in rows) for status in reversed(_WORST_FIRST)}


def write_summary(out_dir: Path, rows: Sequence[SummaryRow]) -> tuple[Path, Path]:
    """Write `summary.json` (the rows and the totals) and `summary.csv` (the rows) into
    `out_dir`, each atomically."""
    counts = {status.value: count for status, count in status_counts(rows).items()}
    document = {"rows": [row.as_json() for row in rows], "counts": counts}
    as_json = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row.as_json())
    return (
        atomic_write(out_dir / SUMMARY_JSON, as_json),
        atomic_write(out_dir / SUMMARY_CSV, buffer.getvalue().encode("utf-8")),
    )
