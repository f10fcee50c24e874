"""The model's own policy decides what its runs may claim, for every caller of the library."""

from __future__ import annotations

from dataclasses import fields

from redacto.document import Box, Document, Element, Status, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.modelfile.manifest import PipelineSettings
from redacto.pipeline import ImageReading, PipelineOptions, run_pipeline
from redacto.pipeline.policy import (
    STRICTER,
    apply_model_settings,
    options_for_model,
)
from redacto.pipeline.state import StepContext
from redacto.report import PolicyState, ReviewReason

MEASURED_UNTRUSTED = PipelineSettings(
    trust_validator_pass=False, image_reading=ImageReading.TEXT, model_redact=False
)
"""What redacto-270m's sealed policy says: its validator was measured and is not trusted."""
MEASURED_TRUSTED = PipelineSettings(trust_validator_pass=True)


def page() -> Document:
    words = ["Patient", "Jane", "Smith", "compound", "fracture"]
    return Document.from_elements(
        [
            Element(index=i, text=word, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, word in enumerate(words)
        ]
    )


def passing_engine(settings: PipelineSettings | None) -> ScriptedEngine:
    """A model that finds the name, in the reading its settings ask for, and whose validator
    then says PASS; `settings` None: it declares none (an unknown model)."""
    found = (
        "NAME: Jane Smith" if settings and settings.image_reading == "text" else "1:NAME\n2:NAME"
    )
    return ScriptedEngine(
        {Step.CLASSIFY: ["CATEGORY: Medical"], Step.DETECT: [found], Step.VALIDATE: ["PASS"]},
        settings=settings,
    )


def test_the_api_cannot_pass_a_run_whose_model_distrusts_its_validator(prompts):
    # The caller asks for nothing special: the model's own policy still wins.
    report = run_pipeline(page(), passing_engine(MEASURED_UNTRUSTED), prompts).report
    assert report.validator_verdict == "PASS"
    assert report.status is Status.NEEDS_REVIEW
    assert report.review_reasons == [ReviewReason.PASS_NOT_TRUSTED]


def test_a_model_with_no_policy_cannot_end_pass_and_the_report_says_why(prompts):
    report = run_pipeline(page(), passing_engine(None), prompts).report
    assert report.validator_verdict == "PASS"
    assert report.status is Status.NEEDS_REVIEW
    assert report.review_reasons == [ReviewReason.MODEL_NOT_MEASURED]
    assert report.model.policy is PolicyState.ABSENT


def test_a_caller_can_be_stricter_than_the_model_never_looser(prompts):
    distrust = PipelineOptions(trust_validator_pass=False)
    stricter = run_pipeline(page(), passing_engine(MEASURED_TRUSTED), prompts, options=distrust)
    assert stricter.report.status is Status.NEEDS_REVIEW
    trusting = PipelineOptions(trust_validator_pass=True)
    looser = run_pipeline(page(), passing_engine(MEASURED_UNTRUSTED), prompts, options=trusting)
    assert looser.report.status is Status.NEEDS_REVIEW
    trusted = run_pipeline(page(), passing_engine(MEASURED_TRUSTED), prompts, options=trusting)
    assert trusted.report.status is Status.PASS


def test_the_uri_and_name_an_engine_has_decide_nothing(prompts):
    """A script named like the default's built file declares nothing: it is unknown."""
    engine = ScriptedEngine(
        {Step.CLASSIFY: ["CATEGORY: Medical"], Step.DETECT: ["1:NAME"], Step.VALIDATE: ["PASS"]},
        uri="litertlm:/anywhere/gemma-3-270m-int8.litertlm",
    )
    report = run_pipeline(page(), engine, prompts).report
    assert report.status is Status.NEEDS_REVIEW
    assert report.review_reasons == [ReviewReason.MODEL_NOT_MEASURED]


def test_the_fail_closed_defaults_trust_no_pass():
    assert PipelineSettings().trust_validator_pass is False


def test_every_manifest_setting_has_an_option_of_the_same_name():
    option_names = {field.name for field in fields(PipelineOptions)}
    assert set(PipelineSettings.model_fields) <= option_names
    apply_model_settings(PipelineOptions(), PipelineSettings())  # raises if one is missing


def test_the_model_settings_reach_the_options_as_their_own_types():
    applied = options_for_model(PipelineOptions(), passing_engine(MEASURED_UNTRUSTED))
    assert applied.image_reading is ImageReading.TEXT
    assert applied.model_redact is False
    assert applied.trust_validator_pass is False


def test_a_setting_the_caller_chose_is_kept_and_none_takes_the_manifests():
    manifest = PipelineSettings(image_reading="text", model_redact=False)
    assert apply_model_settings(PipelineOptions(), manifest).image_reading is ImageReading.TEXT
    chosen = PipelineOptions(image_reading=ImageReading.INDEXED, model_redact=True)
    kept = apply_model_settings(chosen, manifest)
    assert kept.image_reading is ImageReading.INDEXED and kept.model_redact is True
    assert "image_reading" not in STRICTER and "model_redact" not in STRICTER


def test_a_context_built_without_run_pipeline_has_every_setting_decided(prompts):
    context = StepContext(ScriptedEngine({}), prompts, PipelineOptions())
    assert context.options.image_reading is ImageReading.INDEXED
    assert context.options.model_redact is True
