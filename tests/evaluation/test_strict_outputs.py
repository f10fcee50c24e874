"""`--strict` applied to a finished run's outputs: unexplained words redacted, rescored."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from redacto.cli import app
from redacto.corpus import load_suite
from redacto.document import Mode
from redacto.evaluation.prediction import PredictedSpan, Prediction
from redacto.evaluation.results import DocumentResult, append_result
from redacto.evaluation.scorer import score_document
from redacto.evaluation.strict_outputs import strict_result

DOCUMENT = load_suite("smoke")[0]


def result_without(label: str) -> DocumentResult:
    """Every gold span redacted but those of `label`."""
    spans = tuple(
        PredictedSpan(start=s.start, end=s.end, label=s.label)
        for s in DOCUMENT.pii
        if s.label != label
    )
    prediction = Prediction(mode=Mode.TEXT, spans=spans, category=DOCUMENT.category)
    return DocumentResult(
        document_id=DOCUMENT.id,
        mode=Mode.TEXT,
        prediction=prediction,
        score=score_document(DOCUMENT, prediction),
    )


def test_strict_redacts_the_unexplained_digits_a_run_left_and_the_leak_is_gone() -> None:
    left = result_without("PHONE")
    assert left.score.leaked
    strict = strict_result(left, DOCUMENT)
    assert not strict.score.leaked
    added = strict.prediction.spans[len(left.prediction.spans) :]
    assert added and all(
        s.label == "ID" for s in added if any(c.isdigit() for c in DOCUMENT.text[s.start : s.end])
    )


def test_a_name_the_dictionary_knows_stays_a_leak_under_strict() -> None:
    # `Troy Alvarez`, `Ryan Stewart`: proper nouns of the dictionary, explained (a blind spot).
    left = result_without("NAME")
    assert strict_result(left, DOCUMENT).score.leaked


def test_the_command_prints_both_rows(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    append_result(run, result_without("PHONE"))
    printed = CliRunner().invoke(app, ["eval", "strict", str(run), "--suite", "smoke"])
    assert printed.exit_code == 0, printed.output
    assert "text, as run: token recall" in printed.output
    assert "text, strict: token recall" in printed.output
    assert "0 leaky of 1" in printed.output
