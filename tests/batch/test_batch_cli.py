"""`redacto redact FOLDER --out DIR`: a mixed folder with the tiny model, real OCR, rules and
NER; every output folder is what a single-file run writes, byte for byte but for timings."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from mixed_inputs import BROKEN, good_inputs, make_mixed_folder

from cli_runs import all_files, digest, redact

pytestmark = pytest.mark.slow  # the tiny model and PP-OCR run


def without_timings(value: object) -> object:
    """A report with every wall-clock measure blanked (`ms`, `ttft_ms`, …). A step whose
    stream was stopped counts the tokens decoded before the stop took hold: a timing too
    (two single runs of one file differ there)."""
    if isinstance(value, dict):
        timed = {key for key in value if key.endswith("ms")}
        if value.get("stopped") is True:
            timed.add("output_tokens")
        return {key: None if key in timed else without_timings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def folder_contents(folder: Path) -> dict[str, object]:
    """A run's output folder: each file's bytes, a report with its timings blanked."""
    contents: dict[str, object] = {}
    for path in sorted(folder.iterdir()):
        if path.name == "report.json":
            contents[path.name] = without_timings(json.loads(path.read_text(encoding="utf-8")))
        else:
            contents[path.name] = digest(path)
    return contents


def assert_same_outputs(batch_out: Path, one_process_out: Path) -> None:
    """Two batches of the mixed folder wrote the same rows and the same folders."""
    fields = ("file", "sha256", "status", "category", "count", "rounds")
    rows = [
        [[row[f] for f in fields] for row in json.loads(path.read_text(encoding="utf-8"))["rows"]]
        for path in (batch_out / "summary.json", one_process_out / "summary.json")
    ]
    assert rows[0] == rows[1]
    for name in good_inputs():
        assert folder_contents(batch_out / name) == folder_contents(one_process_out / name), name


@pytest.fixture(scope="module")
def batch(tmp_path_factory, tiny_model_path):
    """The mixed folder, redacted once in one process: (inputs, out, result, model URI)."""
    root = make_mixed_folder(tmp_path_factory.mktemp("batch") / "inbox")
    before = all_files(root)
    out = root.parent / "out"
    model = f"litertlm:{tiny_model_path}"
    result = redact(root, "--model", model, "--out", out)
    assert all_files(root) == before, "an input was changed"
    return root, out, result, model


def test_twenty_rows_and_the_worst_status_as_exit_code(batch):
    root, out, result, _ = batch
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 20, result.output
    by_file = {Path(row["file"]).relative_to(root).as_posix(): row for row in rows}
    assert sorted(by_file) == sorted([*good_inputs(), *BROKEN])
    for name in BROKEN:
        assert by_file[name]["status"] == "ERROR"
        assert by_file[name]["reason"].startswith("bad input:")
        assert not (out / name).exists()
    for name in good_inputs():
        assert by_file[name]["status"] in ("PASS", "NEEDS_REVIEW"), by_file[name]["reason"]
        assert by_file[name]["sha256"] == digest(root / name)
    assert result.exit_code == 1  # ERROR is the worst status
    with (out / "summary.csv").open(encoding="utf-8") as handle:
        csv_rows = list(csv.DictReader(handle))
    assert [row["file"] for row in csv_rows] == [row["file"] for row in rows]
    assert list(csv_rows[0])[:8] == [
        "file", "sha256", "status", "category", "count", "rounds", "seconds", "reason"
    ]  # fmt: skip
    assert "Jane" not in result.stderr and "Dupont" not in result.stderr


def test_each_output_folder_is_a_single_runs_byte_for_byte(batch, tmp_path):
    root, out, _, model = batch
    for name in good_inputs():
        single = tmp_path / name
        result = redact(root / name, "--model", model, "--out", single)
        assert result.exit_code in (0, 10), result.output
        assert folder_contents(out / name) == folder_contents(single), name


def test_two_worker_processes_write_what_one_process_writes(batch, tmp_path):
    root, out, _, model = batch
    pooled = tmp_path / "pooled"
    result = redact(root, "--model", model, "--out", pooled, "--workers", "2")
    assert result.exit_code == 1, result.output
    assert_same_outputs(pooled, out)


def test_ray_local_with_two_actors_writes_what_one_process_writes(batch, tmp_path):
    pytest.importorskip("ray")
    root, out, _, model = batch
    on_ray = tmp_path / "on-ray"
    result = redact(root, "--model", model, "--out", on_ray, "--ray", "local")
    assert result.exit_code == 1, result.output
    assert_same_outputs(on_ray, out)
