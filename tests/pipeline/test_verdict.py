"""The scored verdict: PASS only when log P(PASS) − log P(FAIL) reaches the margin.

A scripted engine with canned log-likelihoods stands in for the model; the margin is put on
both sides of the threshold, and on it.
"""

from __future__ import annotations

import pytest

from redacto.document import Category, Document, Source, Status, Step, ValidatorVerdict
from redacto.engines.scripted import ScriptedEngine
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.policy import phone_settings
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.pipeline.policy import apply_model_settings
from redacto.report import ReviewReason
from scripted_models import TRUSTING

TEXT = "Patient Jane Smith was seen by Dr. Alan Reyes today."
MARGIN = 1.0


def scored(margin: float) -> dict[str, float]:
    """A score table whose PASS − FAIL margin is `margin`."""
    return {"PASS": -0.5, "FAIL": -0.5 - margin}


def options(verdict: ValidatorVerdict = ValidatorVerdict.SCORED, **changes) -> PipelineOptions:
    settings = {"rules": False, "category": Category.GENERAL, "model_redact": False}
    return PipelineOptions(validator_verdict=verdict, pass_margin=MARGIN, **settings | changes)


def engine(validate: list[str], margins: list[float] | None) -> ScriptedEngine:
    tables = None if margins is None else {Step.VALIDATE: [scored(m) for m in margins]}
    replies = {Step.DETECT: ["NAME: Jane Smith"], Step.VALIDATE: validate}
    return ScriptedEngine(replies, scores=tables, settings=TRUSTING)


def run(engine: ScriptedEngine, prompts, **changes):
    return run_pipeline(Document.from_text(TEXT), engine, prompts, options=options(**changes))


@pytest.mark.parametrize("margin", [MARGIN, MARGIN + 0.01, 5.0])
def test_a_margin_at_or_over_the_bar_is_a_pass_without_a_reply(prompts, margin):
    model = engine(validate=[], margins=[margin])
    result = run(model, prompts)
    assert result.report.status is Status.PASS
    assert result.report.validator_verdict == "PASS"
    assert [r.candidates for r in model.score_requests] == [("PASS", "FAIL")]
    request = model.score_requests[0]
    validate_calls = [r for r in model.requests if r.step is Step.VALIDATE]
    assert validate_calls == []  # scored, not generated
    assert "[NAME_1]" in request.user and "Jane Smith" not in request.user
    trace = [t for t in result.report.steps if t.step is Step.VALIDATE]
    assert [(t.verdict_margin, t.output_tokens) for t in trace] == [(pytest.approx(margin), 0)]


def test_a_margin_under_the_bar_generates_the_answer_for_its_items(prompts):
    """FAIL by the score: the free reply names what is missed, and the next round is scored."""
    model = engine(validate=["FAIL\nNAME: Alan Reyes"], margins=[MARGIN - 0.01, 2.0])
    result = run(model, prompts)
    assert result.report.status is Status.PASS and result.report.rounds == 2
    validator = [d for d in result.report.detections if d.source is Source.VALIDATE]
    assert [(d.value, d.round) for d in validator] == [("Alan Reyes", 1)]
    # The free call is the very call that was scored.
    validate_call = next(r for r in model.requests if r.step is Step.VALIDATE)
    assert (validate_call.system, validate_call.user) == (
        model.score_requests[0].system,
        model.score_requests[0].user,
    )
    assert model.remaining(Step.VALIDATE) == 0 and model.remaining_scores(Step.VALIDATE) == 0


def test_under_the_bar_a_free_pass_is_still_fail(prompts):
    model = engine(validate=["PASS"], margins=[-0.2])
    result = run(model, prompts)
    assert result.report.validator_verdict == "FAIL"
    assert result.report.status is Status.NEEDS_REVIEW
    assert result.report.review_reasons == [ReviewReason.NOTHING_USABLE]


def test_the_answer_rule_never_scores(prompts):
    model = engine(validate=["PASS"], margins=[-9.0])
    result = run(model, prompts, verdict=ValidatorVerdict.ANSWER)
    assert result.report.status is Status.PASS
    assert model.score_requests == [] and model.remaining_scores(Step.VALIDATE) == 1


def test_an_engine_that_cannot_score_runs_the_answer_rule_and_its_pass_is_not_trusted(prompts):
    model = engine(validate=["PASS"], margins=None)
    result = run(model, prompts)
    assert result.report.validator_verdict == "PASS"
    assert result.report.status is Status.NEEDS_REVIEW
    assert result.report.review_reasons == [ReviewReason.PASS_NOT_TRUSTED]


MANIFEST_SCORED = PipelineSettings(validator_verdict=ValidatorVerdict.SCORED, pass_margin=1.5)


@pytest.mark.parametrize(
    ("caller", "manifest", "verdict", "margin"),
    [
        (PipelineOptions(), MANIFEST_SCORED, ValidatorVerdict.SCORED, 1.5),
        (PipelineOptions(pass_margin=3.0), MANIFEST_SCORED, ValidatorVerdict.SCORED, 3.0),
        (PipelineOptions(pass_margin=-2.0), MANIFEST_SCORED, ValidatorVerdict.SCORED, 1.5),
        (
            PipelineOptions(validator_verdict=ValidatorVerdict.ANSWER),
            MANIFEST_SCORED,
            ValidatorVerdict.SCORED,
            1.5,
        ),
        (
            PipelineOptions(validator_verdict=ValidatorVerdict.SCORED, pass_margin=-2.0),
            PipelineSettings(),
            ValidatorVerdict.SCORED,
            -2.0,
        ),
        (PipelineOptions(), PipelineSettings(), ValidatorVerdict.ANSWER, None),
    ],
)
def test_a_caller_may_be_stricter_than_the_manifests_verdict_rule_never_looser(
    caller, manifest, verdict, margin
):
    applied = apply_model_settings(caller, manifest)
    assert (applied.validator_verdict, applied.pass_margin) == (verdict, margin)


def test_the_manifest_table_reads_the_verdict_settings():
    settings = PipelineSettings.model_validate(
        {"validator_verdict": "scored", "pass_margin": 0.75, "trust_validator_pass": True}
    )
    assert settings.validator_verdict is ValidatorVerdict.SCORED and settings.pass_margin == 0.75
    assert PipelineSettings().validator_verdict is ValidatorVerdict.ANSWER
    with pytest.raises(ValueError, match="validator_verdict"):
        PipelineSettings.model_validate({"validator_verdict": "vibes"})


@pytest.mark.parametrize(
    ("verdict", "trusted", "on_the_phone"),
    [
        (ValidatorVerdict.ANSWER, True, True),
        (ValidatorVerdict.SCORED, True, False),  # the phone cannot score
        (ValidatorVerdict.SCORED, False, False),
        (ValidatorVerdict.ANSWER, False, False),
    ],
)
def test_the_phones_settings_trust_only_the_answer_rule(verdict, trusted, on_the_phone):
    settings = PipelineSettings(trust_validator_pass=trusted, validator_verdict=verdict)
    assert phone_settings(settings).trust_validator_pass is on_the_phone
