"""The NER tier in the pipeline: unioned like the rules, chosen per run, never a lone `My`."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from redacto.document import ALL_DETECTORS, Box, Detector, Document, Element, Source, Status
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import ImageReading, PipelineOptions, run_pipeline
from redacto.report import RejectReason, ReviewReason

ALL = PipelineOptions(detectors=ALL_DETECTORS, model_redact=False)
"""All three tiers; text mode's redaction is the locator's alone (no redact reply needed)."""
TEXT = "Ask Joana Ferreira to call back about the invoice."


def scripted(**replies: list[str]) -> ScriptedEngine:
    return ScriptedEngine.from_mapping(replies)


def test_a_ner_hit_is_in_the_report_with_its_source(prompts):
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=ALL)
    report = json.loads(result.report.model_dump_json())
    assert [(d["label"], d["value"], d["source"]) for d in report["detections"]] == [
        ("NAME", "Joana Ferreira", "ner")
    ]
    assert result.redacted_text == "Ask [NAME_1] to call back about the invoice."


def test_ner_hits_are_unioned_with_the_models_and_never_removed(prompts):
    engine = scripted(
        classify=["CATEGORY: General"],
        detect=["NAME: Joana Ferreira\nDATE: 3 May"],
        validate=["PASS"],
    )
    text = "Ask Joana Ferreira to call back on 3 May."
    options = replace(ALL, detectors=frozenset({Detector.NER, Detector.MODEL}))
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    found = [(d.value, d.source) for d in result.report.detections]
    assert found == [("Joana Ferreira", Source.NER), ("3 May", Source.DETECT)]
    assert result.redacted_text == "Ask [NAME_1] to call back on [DATE_1]."


def test_image_mode_ner_hits_are_boxed_by_element(prompts):
    words = ["Ask", "Joana", "Ferreira", "today."]
    document = Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ]
    )
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    result = run_pipeline(document, engine, prompts, options=ALL)
    assert [(d.index, d.source) for d in result.report.detections] == [
        (1, Source.NER),
        (2, Source.NER),
    ]
    assert len(result.boxes) == 2


def test_a_text_with_nothing_to_find_gains_nothing_from_the_ner_tier(prompts):
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    text = "Can you tell me when the next bus to the station leaves?"
    result = run_pipeline(Document.from_text(text), engine, prompts, options=ALL)
    assert result.report.detections == [] and result.redacted_text == text


def test_the_library_default_runs_no_ner_tier(prompts):
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    result = run_pipeline(Document.from_text(TEXT), engine, prompts)
    assert result.report.detections == []


@pytest.mark.parametrize(
    ("detectors", "sources"),
    [
        ({Detector.NER}, {Source.NER}),
        ({Detector.RULES}, {Source.RULE}),
        ({Detector.RULES, Detector.NER}, {Source.RULE, Source.NER}),
    ],
)
def test_without_the_model_no_call_is_made_and_the_run_needs_review(prompts, detectors, sources):
    text = "Joana Ferreira, joana.ferreira@example.com"
    engine = scripted()  # no replies: any model call would be an error
    options = PipelineOptions(detectors=frozenset(detectors))
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    report = result.report
    assert report.status is Status.NEEDS_REVIEW and report.steps == []
    assert ReviewReason.MODEL_OFF in report.review_reasons and report.rounds == 0
    assert {d.source for d in report.detections} == sources


def test_no_rules_still_turns_the_rules_off_whatever_the_detectors(prompts):
    options = PipelineOptions(rules=False, detectors=frozenset({Detector.RULES}))
    result = run_pipeline(
        Document.from_text("joana.ferreira@example.com"), scripted(), prompts, options=options
    )
    assert result.report.detections == []


@pytest.mark.parametrize("word", ["My", "I", "The", "You", "She", "Can", "Je", "Vous"])
def test_a_lone_function_word_named_by_detect_is_refused(prompts, word):
    text = f"{word} phone is fine, Jane Smith said."
    engine = scripted(
        classify=["CATEGORY: General"],
        detect=[f"NAME: {word}\nNAME: Jane Smith"],
        validate=["PASS"],
    )
    options = PipelineOptions(model_redact=False)
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    assert result.report.status is not Status.ERROR
    assert [d.value for d in result.report.detections] == ["Jane Smith"]
    assert [e.reason for e in result.report.parse_errors] == [RejectReason.NOT_A_NAME]


def test_a_lone_function_word_named_by_the_validator_is_refused(prompts):
    text = "I met Jane Smith."
    engine = scripted(
        classify=["CATEGORY: General"],
        detect=["NAME: Jane Smith"],
        validate=["FAIL\nNAME: I"],
    )
    options = PipelineOptions(max_rounds=1, model_redact=False)
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    assert [d.value for d in result.report.detections] == ["Jane Smith"]
    assert RejectReason.NOT_A_NAME in [e.reason for e in result.report.parse_errors]


def test_an_indexed_item_naming_a_function_word_is_refused(prompts):
    words = ["My", "doctor", "is", "Jane", "Smith"]
    document = Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ]
    )
    engine = scripted(
        classify=["CATEGORY: General"], detect=["0:NAME\n3:NAME\n4:NAME"], validate=["PASS"]
    )
    options = PipelineOptions(image_reading=ImageReading.INDEXED)
    result = run_pipeline(document, engine, prompts, options=options)
    assert [d.index for d in result.report.detections] == [3, 4]
