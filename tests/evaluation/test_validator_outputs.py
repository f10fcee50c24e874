"""The scored verdict on real outputs: each output rebuilt as the validator would see it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from redacto.corpus import RENDER_CACHE_DIR, load_suite, render_page
from redacto.document import Mode, Step
from redacto.engines.no_model import NoModelEngine
from redacto.engines.scripted import ScriptedEngine
from redacto.evaluation.prediction import PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.results import DocumentResult, append_result
from redacto.evaluation.scorer import score_document
from redacto.evaluation.validator_bench import verdict_cases
from redacto.evaluation.validator_outputs import output_calls, score_outputs
from redacto.pipeline.state import PipelineOptions, StepContext
from redacto.prompts import PromptLibrary
from redacto.report import Verdict

DOCUMENT = load_suite("smoke")[0]


def text_result(spans: list[PredictedSpan]) -> DocumentResult:
    prediction = Prediction(mode=Mode.TEXT, spans=tuple(spans), category=DOCUMENT.category)
    return DocumentResult(
        document_id=DOCUMENT.id,
        mode=Mode.TEXT,
        prediction=prediction,
        score=score_document(DOCUMENT, prediction),
    )


def gold_spans() -> list[PredictedSpan]:
    return [PredictedSpan(start=s.start, end=s.end, label=s.label) for s in DOCUMENT.pii]


def calls_of(result: DocumentResult):
    prompts = PromptLibrary.load()
    context = StepContext(NoModelEngine("rebuilding outputs"), prompts, PipelineOptions())
    return list(output_calls([result], {DOCUMENT.id: DOCUMENT}, prompts, context))


def test_a_complete_text_output_is_clean_and_shown_as_the_built_complete_redaction() -> None:
    [output] = calls_of(text_result(gold_spans()))
    assert output.expected is Verdict.PASS and output.reading == "text"
    built = [
        (c.system, c.user)
        for c in verdict_cases([DOCUMENT])
        if re.fullmatch(r".*/validate-text(-chunk\d+)?-pass", c.id)
    ]
    assert list(output.calls) == built


def test_a_value_left_out_makes_the_output_leaky_and_readable_to_the_validator() -> None:
    value = DOCUMENT.text[DOCUMENT.pii[0].start : DOCUMENT.pii[0].end]
    # Every occurrence of the value left out: the redaction hides a value wherever it is.
    spans = [s for s in gold_spans() if DOCUMENT.text[s.start : s.end] != value]
    [output] = calls_of(text_result(spans))
    assert output.expected is Verdict.FAIL
    assert any(value in user for _, user in output.calls)


def test_a_page_output_hides_the_words_its_boxes_cover() -> None:
    page = render_page(DOCUMENT, RENDER_CACHE_DIR)
    gold = {(s.start, s.end) for s in DOCUMENT.pii}
    hidden = [w for w in page.words if any(w.start < b and w.end > a for a, b in gold)]
    kept = [w for w in page.words if w not in hidden]
    prediction = Prediction(
        mode=Mode.IMAGE,
        boxes=tuple(PredictedBox(box=w.box, label="NAME") for w in hidden),
        category=DOCUMENT.category,
    )
    result = DocumentResult(
        document_id=DOCUMENT.id,
        mode=Mode.IMAGE,
        prediction=prediction,
        score=score_document(DOCUMENT, prediction, page),
    )
    [output] = calls_of(result)
    assert output.reading == "page-text" and output.expected is Verdict.PASS
    shown = "\n".join(user for _, user in output.calls)
    assert "[NAME_1]" in shown
    assert all(w.text not in shown.split() for w in hidden if w.text not in {k.text for k in kept})
    assert all(w.text in shown for w in kept)


def test_each_output_is_scored_by_its_lowest_chunk_and_a_rerun_resumes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    spans = gold_spans()
    append_result(run, text_result(spans))
    [output] = calls_of(text_result(spans))
    tables = [{"PASS": -1.0, "FAIL": -1.0 - m} for m in (3.0, -0.5, 2.0)][: len(output.calls)]
    engine = ScriptedEngine({}, scores={Step.VALIDATE: tables})
    [result] = score_outputs(engine, [run], [DOCUMENT], tmp_path / "out")
    assert result.outcome == "real" and result.said is None and result.expected is Verdict.PASS
    assert result.margin == min(-(-1.0 - m) - 1.0 for m in (3.0, -0.5, 2.0)[: len(output.calls)])
    assert [(r.system, r.user) for r in engine.score_requests] == list(output.calls)
    # Resumed: nothing is scored again (the scripted engine has no score left).
    again = score_outputs(ScriptedEngine({}), [run], [DOCUMENT], tmp_path / "out")
    assert again == [result]


def test_the_command_counts_real_outputs_in_each_curve(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from redacto.cli import app

    run = tmp_path / "run"
    run.mkdir()
    append_result(run, text_result(gold_spans()))
    [output] = calls_of(text_result(gold_spans()))
    cases = verdict_cases([DOCUMENT])
    tables = [{"PASS": -1.0, "FAIL": -3.0 if c.answer == "PASS" else 1.0} for c in cases]
    tables += [{"PASS": -1.0, "FAIL": -2.0}] * len(output.calls)  # the real output: +1
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"validate": [], "scores": {"validate": tables}}))
    args = ["eval", "validator", "--model", f"scripted:{script}", "--out", str(tmp_path / "o")]
    args += ["--suite", "smoke", "--limit", "1", "--margins-only", "--outputs", str(run)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "text, real outputs (1 clean, 0 leaky)" in result.output
    assert "text, real + built (" in result.output


def test_real_outputs_are_read_by_the_tiers_and_the_lexicon_beside_the_runs_verdict(
    tmp_path: Path,
) -> None:
    from redacto.evaluation.validator_bench import REAL_ROWS, add_real, run_validator_bench
    from redacto.evaluation.validator_outputs import read_outputs

    # A phone number left readable: digits no rule keeps (the name, `Troy Alvarez`, is two
    # words the dictionary knows as proper nouns: a blind spot the lexicon names).
    phone = next(s for s in DOCUMENT.pii if s.label == "PHONE")
    value = DOCUMENT.text[phone.start : phone.end]
    leaky = [s for s in gold_spans() if DOCUMENT.text[s.start : s.end] != value]
    runs = [tmp_path / "clean", tmp_path / "leaky"]
    for run, spans in zip(runs, (gold_spans(), leaky), strict=True):
        run.mkdir()
        result = text_result(spans)
        prediction = result.prediction.model_copy(update={"validator_verdict": Verdict.PASS})
        append_result(run, result.model_copy(update={"prediction": prediction}))
    engine = NoModelEngine("reading outputs")
    read = read_outputs(engine, runs, [DOCUMENT])
    clean, output = read
    assert clean.expected is Verdict.PASS and output.expected is Verdict.FAIL
    assert output.run_verdict is Verdict.PASS  # the run's validator passed a leak
    assert output.lexicon_words is not None and output.tiers_found is not None
    assert any(word in value for word in output.lexicon_words), "the left number is unexplained"
    summary = run_validator_bench(engine, [DOCUMENT], tmp_path / "o", tiers_only=True)
    summary = add_real(summary, read, tmp_path / "o")
    assert set(summary.real) == set(REAL_ROWS)
    today = summary.real["run's verdict"]["text"]
    assert (today.clean, today.leaky, today.leaky_passed) == (1, 1, 1)
    both = summary.real["run's verdict and lexicon"]["text"]
    assert (both.leaky, both.leaky_passed) == (1, 0)
    saved = json.loads((tmp_path / "o" / "verdicts-summary.json").read_text(encoding="utf-8"))
    assert saved["real"]["run's verdict and lexicon"]["text"]["leaky_passed"] == 0
