"""Validator false-PASS, classification, cost per step and the image ÷ text ratio."""

from __future__ import annotations

import pytest
from eval_cases import DOCUMENT

from redacto.document import Category, Mode, Status, Step
from redacto.evaluation.prediction import PredictedSpan, Prediction
from redacto.evaluation.scorer import DocumentScore, score_document
from redacto.evaluation.summary import f_beta, mode_ratio, summarize_mode
from redacto.report import ReviewReason, StepTrace, Verdict

PERFECT = (PredictedSpan(start=8, end=18), PredictedSpan(start=38, end=46))


def scored(
    spans: tuple[PredictedSpan, ...],
    status: Status,
    category: Category,
    steps: tuple[StepTrace, ...] = (),
    mode: Mode = Mode.TEXT,
    rounds: int = 1,
):
    prediction = Prediction(
        mode=Mode.TEXT,
        spans=spans,
        status=status,
        category=category,
        steps=steps,
        rounds=rounds,
        wall_ms=30_000,
    )
    score = score_document(DOCUMENT, prediction)
    return score.model_copy(update={"mode": mode})


def test_false_pass_is_a_pass_on_a_document_that_still_leaks() -> None:
    scores = [
        scored(PERFECT[:1], Status.PASS, Category.MEDICAL),  # phone leaked, said PASS
        scored(PERFECT, Status.PASS, Category.MEDICAL),
        scored((), Status.NEEDS_REVIEW, Category.GENERAL),
    ]
    validator = summarize_mode(Mode.TEXT, scores).validator
    assert (validator.passes, validator.false_passes) == (2, 1)
    assert validator.false_pass_rate == 0.5
    assert validator.leaky_documents == 2
    assert validator.leaky_passed_rate == 0.5
    assert validator.status_counts == {"PASS": 2, "NEEDS_REVIEW": 1}


def test_false_pass_counts_the_validators_verdict_even_when_the_status_was_capped() -> None:
    leaky = scored(PERFECT[:1], Status.NEEDS_REVIEW, Category.MEDICAL)
    clean = scored(PERFECT, Status.NEEDS_REVIEW, Category.MEDICAL)
    scores = [
        leaky.model_copy(update={"validator_verdict": Verdict.PASS}),  # PASS not trusted: capped
        clean.model_copy(update={"validator_verdict": Verdict.PASS}),
        clean.model_copy(update={"validator_verdict": Verdict.FAIL}),
    ]
    validator = summarize_mode(Mode.TEXT, scores).validator
    assert (validator.passes, validator.false_passes) == (2, 1)
    assert validator.leaky_passed_rate == 1.0
    assert (validator.clean_documents, validator.clean_passed_rate) == (2, 0.5)
    assert validator.status_counts == {"NEEDS_REVIEW": 3}


def test_nothing_usable_reading_passes_a_fail_that_named_nothing_usable() -> None:
    leaky = scored(PERFECT[:1], Status.NEEDS_REVIEW, Category.MEDICAL)
    clean = scored(PERFECT, Status.NEEDS_REVIEW, Category.MEDICAL)
    fail = {"validator_verdict": Verdict.FAIL}
    scores = [
        leaky.model_copy(update={**fail, "review_reasons": [ReviewReason.NOTHING_USABLE]}),
        leaky.model_copy(update={**fail, "review_reasons": [ReviewReason.STILL_FAILING]}),
        clean.model_copy(update={**fail, "review_reasons": [ReviewReason.NOTHING_USABLE]}),
        clean.model_copy(update={"validator_verdict": Verdict.PASS, "review_reasons": []}),
        clean.model_copy(update={**fail, "review_reasons": [ReviewReason.STILL_FAILING]}),
    ]
    validator = summarize_mode(Mode.TEXT, scores).validator
    assert validator.leaky_passed_rate == 0.0
    assert validator.leaky_left_nothing_rate == 0.5
    assert validator.clean_left_nothing_rate == pytest.approx(2 / 3)


def test_nothing_usable_reading_is_unknown_for_scores_written_before_review_reasons() -> None:
    written = scored(PERFECT, Status.NEEDS_REVIEW, Category.MEDICAL).model_dump(mode="json")
    del written["review_reasons"]
    old = DocumentScore.model_validate(written)
    assert old.review_reasons is None
    assert summarize_mode(Mode.TEXT, [old]).validator.clean_left_nothing_rate is None


def test_classification_accuracy_and_confusion() -> None:
    scores = [
        scored(PERFECT, Status.PASS, Category.MEDICAL),
        scored(PERFECT, Status.PASS, Category.MEDICAL),
        scored(PERFECT, Status.PASS, Category.GENERAL),
    ]
    classification = summarize_mode(Mode.TEXT, scores).classification
    assert classification.accuracy == pytest.approx(2 / 3)
    assert classification.confusion == {"Medical": {"Medical": 2, "General": 1}}


def trace(step: Step, ms: float, prompt: int, output: int) -> StepTrace:
    return StepTrace(step=step, ms=ms, prompt_tokens=prompt, output_tokens=output, ttft_ms=10)


def test_cost_per_step_and_image_over_text_ratio() -> None:
    text_steps = (trace(Step.DETECT, 1000, 300, 20), trace(Step.REDACT, 2000, 400, 100))
    image_steps = (trace(Step.DETECT, 3000, 900, 10), trace(Step.VALIDATE, 500, 200, 2))
    text = summarize_mode(
        Mode.TEXT, [scored(PERFECT, Status.PASS, Category.MEDICAL, text_steps, rounds=2)] * 2
    )
    image = summarize_mode(
        Mode.IMAGE,
        [scored(PERFECT, Status.PASS, Category.MEDICAL, image_steps, Mode.IMAGE)] * 2,
    )
    detect = text.cost.steps["detect"]
    assert (detect.calls, detect.ms_mean, detect.prompt_tokens_per_page) == (2, 1000, 300)
    assert text.cost.prompt_tokens_per_page == 700
    assert text.cost.output_tokens_per_page == 120
    assert text.cost.pages_per_minute == 2.0  # 30 s per page
    assert text.cost.rounds_mean == 2
    ratio = mode_ratio(image, text)
    assert ratio.prompt_tokens_per_page == pytest.approx(1100 / 700)
    assert ratio.output_tokens_per_page == pytest.approx(12 / 120)
    assert ratio.ms_per_step == {"detect": 3.0}


@pytest.mark.parametrize(
    ("precision", "recall", "expected"),
    [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0), (0.5, 1.0, 5 * 0.5 / (2 + 1)), (None, 1.0, None)],
)
def test_f2(precision, recall, expected) -> None:
    assert f_beta(precision, recall) == (pytest.approx(expected) if expected else expected)
