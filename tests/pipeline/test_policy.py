"""The model's manifest decides what its runs may claim, for every caller of the library."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from redacto.document import Box, Document, Element, Status
from redacto.engines import ModelIdentity
from redacto.engines.scripted import ScriptedEngine
from redacto.model_manifest import PipelineSettings
from redacto.pipeline import ImageReading, PipelineOptions, run_pipeline
from redacto.pipeline.policy import (
    STRICTER,
    apply_model_settings,
    model_settings,
    options_for_model,
)
from redacto.pipeline.state import StepContext
from redacto.report import ReviewReason

UNTRUSTED_FILE = "litertlm:/anywhere/redacto-270m-int8.litertlm"
TRUSTED_FILE = "litertlm:/anywhere/gemma-3-270m-int8.litertlm"


def page() -> Document:
    words = ["Patient", "Jane", "Smith", "compound", "fracture"]
    return Document.from_elements(
        [
            Element(index=i, text=word, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, word in enumerate(words)
        ]
    )


def passing_engine(uri: str) -> ScriptedEngine:
    """A model that finds the name, in the reading its manifest asks for (redacto-270m reads
    the page as text), and whose validator then says PASS."""
    found = "NAME: Jane Smith" if "redacto-270m" in uri else "1:NAME\n2:NAME"
    return ScriptedEngine.from_mapping(
        {"classify": ["CATEGORY: Medical"], "detect": [found], "validate": ["PASS"]},
        uri=uri,
    )


def test_the_api_cannot_pass_a_run_whose_model_manifest_distrusts_its_validator(prompts):
    # The caller asks for nothing special (the defaults trust a PASS): the manifest still wins.
    report = run_pipeline(page(), passing_engine(UNTRUSTED_FILE), prompts).report
    assert report.validator_verdict == "PASS"
    assert report.status is Status.NEEDS_REVIEW
    assert report.review_reasons == [ReviewReason.PASS_NOT_TRUSTED]


def test_a_caller_can_be_stricter_than_the_manifest_never_looser(prompts):
    distrust = PipelineOptions(trust_validator_pass=False)
    stricter = run_pipeline(page(), passing_engine(TRUSTED_FILE), prompts, options=distrust)
    assert stricter.report.status is Status.NEEDS_REVIEW
    trusting = PipelineOptions(trust_validator_pass=True)
    looser = run_pipeline(page(), passing_engine(UNTRUSTED_FILE), prompts, options=trusting)
    assert looser.report.status is Status.NEEDS_REVIEW
    trusted = run_pipeline(page(), passing_engine(TRUSTED_FILE), prompts, options=trusting)
    assert trusted.report.status is Status.PASS


def test_an_unreadable_manifest_cannot_vouch_for_its_model(tmp_path: Path, monkeypatch):
    (tmp_path / "broken.toml").write_text("this is [not toml", encoding="utf-8")
    monkeypatch.setenv("REDACTO_MODELS_DIR", str(tmp_path))
    identity = ModelIdentity(uri="litertlm:/x/broken-int8.litertlm", name="broken-int8.litertlm")
    assert model_settings(identity).trust_validator_pass is False


@pytest.mark.parametrize(
    ("uri", "trusted"),
    [
        (UNTRUSTED_FILE, False),
        ("litertlm:redacto-270m-int4.litertlm", False),
        (TRUSTED_FILE, True),
        ("scripted:replies.json", True),
        ("oracle:", True),
    ],
)
def test_settings_are_found_from_the_engine_identity(uri: str, trusted: bool):
    identity = ModelIdentity(uri=uri, name=uri.rpartition("/")[2])
    assert model_settings(identity).trust_validator_pass is trusted


def test_every_manifest_setting_has_an_option_of_the_same_name():
    option_names = {field.name for field in fields(PipelineOptions)}
    assert set(PipelineSettings.model_fields) <= option_names
    apply_model_settings(PipelineOptions(), PipelineSettings())  # raises if one is missing


def test_the_manifest_settings_reach_the_options_as_their_own_types():
    identity = ModelIdentity(uri=UNTRUSTED_FILE, name="redacto-270m-int8.litertlm")
    manifest = model_settings(identity)
    applied = options_for_model(PipelineOptions(), identity)
    assert applied.image_reading is ImageReading(manifest.image_reading)
    assert applied.model_redact is manifest.model_redact
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
