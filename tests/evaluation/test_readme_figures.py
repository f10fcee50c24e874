"""The README's table of the embedded default's figures says what the committed results say.

Each row of "The embedded default, honestly" names the folder under `eval/baselines/` it
comes from; its recall, precision and leaky documents must be that run's, rounded as
written, and its detectors and document count the run's own configuration. A rerun
committed with new figures then fails here until the README says them too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from redacto.host.resources import SOURCE_ROOT

BASELINES = SOURCE_ROOT / "eval" / "baselines"
SECTION = "## The embedded default, honestly"


@dataclass(frozen=True)
class FigureRow:
    """One row of the README's table, as written."""

    set_name: str
    detectors: str
    recall: str
    precision: str
    leaky: str
    folder: str


def readme_rows(readme: str) -> list[FigureRow]:
    """The rows of the first table in the section, those that name a results folder."""
    section = readme.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[5].startswith("`"):
            continue
        set_name, detectors, recall, precision, leaky, folder = cells
        rows.append(FigureRow(set_name, detectors, recall, precision, leaky, folder.strip("`")))
    return rows


def percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def run_figures(folder: Path) -> tuple[int, str, str, str, str]:
    """Documents, detectors, recall, precision and leaky documents of a committed run."""
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    (mode,) = summary["modes"].values()
    overall = mode["overall"]
    detectors = summary["info"]["config"].get("detectors") or "rules,model"
    return (
        overall["documents"],
        detectors,
        percent(overall["token_recall"]),
        percent(overall["token_precision"]),
        str(overall["leaky_documents"]),
    )


ROWS = readme_rows((SOURCE_ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_table_names_committed_runs() -> None:
    assert len(ROWS) >= 5, "the README's figures table lost its rows"
    for row in ROWS:
        assert (BASELINES / row.folder / "summary.json").is_file(), row.folder


@pytest.mark.parametrize("row", ROWS, ids=[row.folder for row in ROWS])
def test_a_readme_row_matches_its_committed_run(row: FigureRow) -> None:
    documents, detectors, recall, precision, leaky = run_figures(BASELINES / row.folder)
    assert (row.recall, row.precision, row.leaky) == (recall, precision, leaky)
    assert re.search(rf"\b{documents}\b", row.set_name), (row.set_name, documents)
    written = {word.strip().lower() for word in row.detectors.split("(")[0].split(",")}
    assert written == set(detectors.split(",")), (row.detectors, detectors)
