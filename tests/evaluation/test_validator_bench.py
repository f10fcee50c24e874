"""The validator bench: built clean and leaky redactions, judged through the pipeline's call."""

from __future__ import annotations

from pathlib import Path

from redacto.corpus import load_suite
from redacto.document import Step
from redacto.engines.scripted import ScriptedEngine
from redacto.evaluation.validator_bench import (
    SUMMARY_FILE,
    run_validator_bench,
    verdict_cases,
)
from redacto.tuning import TrainingExample


def oracle_engine(cases: list[TrainingExample]) -> ScriptedEngine:
    """Answers each case right, in order."""
    return ScriptedEngine({Step.VALIDATE: [case.answer for case in cases]})


def test_cases_are_clean_and_leaky_in_both_readings_and_balanced() -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    readings = {(c.read_as_text, c.answer.startswith("FAIL")) for c in cases}
    assert readings == {(False, False), (False, True), (True, False), (True, True)}
    fails = sum(c.answer.startswith("FAIL") for c in cases)
    assert fails == len(cases) - fails


def test_an_oracle_scores_perfectly_and_a_yes_man_passes_every_leak(tmp_path: Path) -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    right = run_validator_bench(oracle_engine(cases), documents, tmp_path / "oracle")
    for tally in right.readings.values():
        assert tally.clean_pass_rate == 1.0 and tally.leaky_pass_rate == 0.0
    assert (tmp_path / "oracle" / SUMMARY_FILE).exists()

    yes = ScriptedEngine({Step.VALIDATE: ["PASS"] * len(cases)})
    summary = run_validator_bench(yes, documents, tmp_path / "yes")
    for tally in summary.readings.values():
        assert tally.leaky_pass_rate == 1.0
        assert set(tally.by_outcome) == {"pass", "pass-over", "fail-one", "fail-word"}

    # A rerun resumes: nothing is asked again (the scripted engine has no reply left).
    again = run_validator_bench(ScriptedEngine({}), documents, tmp_path / "yes")
    assert again.readings == summary.readings


def test_an_unparseable_answer_counts_as_fail(tmp_path: Path) -> None:
    documents = load_suite("smoke")[:1]
    cases = verdict_cases(documents)
    engine = ScriptedEngine({Step.VALIDATE: ["I think it is fine."] * len(cases)})
    summary = run_validator_bench(engine, documents, tmp_path)
    assert all(t.clean_passed == 0 and t.leaky_passed == 0 for t in summary.readings.values())
