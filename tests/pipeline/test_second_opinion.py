"""Validate's second opinion: the rules and the NER tier read each round's output again.

The shared cases (both languages) are `tests/vectors/pipeline/*second_opinion*.json`; these
pin the masking itself, the real tiers on masked outputs, and what the run does with a hit.
"""

from __future__ import annotations

import pytest
from pipeline_vectors import TableNer

from redacto.document import (
    ALL_DETECTORS,
    Box,
    Category,
    Detection,
    Detector,
    Document,
    Element,
    Source,
    Span,
    Status,
)
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.pipeline.second_opinion import (
    MASK,
    MaskedText,
    SecondOpinion,
    masked_elements,
    read_page_output,
    read_text_output,
)
from redacto.pipeline.state import Phase, ProgressEvent
from redacto.report import ReviewReason

LABELS = ("NAME", "EMAIL", "PHONE", "ADDRESS", "ID", "SSN", "ACCOUNT", "DATE")


def _rules(document: Document, category: Category) -> list[Detection]:
    from redacto.rules import find_rule_detections

    return find_rule_detections(document, category)


def _ner(document: Document, category: Category) -> list[Detection]:
    from redacto.ner import find_ner_detections

    return find_ner_detections(document, category, LABELS)


REAL = SecondOpinion(((Source.VALIDATE_RULES, _rules), (Source.VALIDATE_NER, _ner)))


@pytest.mark.parametrize(
    ("original", "redacted", "masked", "hit", "readable"),
    [
        ("Call Jane Moreau today", [(5, 9)], "Call … Moreau today", (5, 13), ["Moreau"]),
        ("Call Jane Moreau today", [(5, 9)], "Call … Moreau today", (5, 6), []),
        ("Ann, Bo and Cy", [(5, 7)], "Ann, … and Cy", (0, 14), ["Ann", "and Cy"]),
        ("Jane Moreau", [(0, 11)], "…", (0, 1), []),
        ("x Jane. y", [], "x Jane. y", (2, 7), ["Jane"]),
        ("ab cd ef", [(6, 8), (0, 2)], "… cd …", (0, 6), ["cd"]),
    ],
)
def test_masked_text_maps_readable_parts_back_to_the_original(
    original, redacted, masked, hit, readable
):
    text = MaskedText.of(original, [Span(start=s, end=e) for s, e in redacted])
    assert text.text == masked
    spans = text.readable(*hit, original)
    assert [original[s.start : s.end] for s in spans] == readable


def test_a_surname_beside_a_masked_given_name_is_found_by_the_real_ner_tier():
    original = "Patient Jane Moreau was seen today by the nurse."
    found = read_text_output(original, [Span(start=8, end=12)], Category.GENERAL, REAL, 1)
    assert [(d.value, d.source, d.round, d.span) for d in found] == [
        ("Moreau", Source.VALIDATE_NER, 1, Span(start=13, end=19))
    ]


def test_a_placeholder_would_be_read_as_text_the_mask_is_not():
    """Why mask: left as `[NAME_1]`, the placeholder is text Rampart reads (it took the phone
    beside it for an address); masked, no hit reaches into a redacted value."""
    from redacto.ner import find_ner_spans

    shown = "Please call [NAME_1] at 555-0134 about the invoice."
    assert [s.label for s in find_ner_spans(shown, Category.GENERAL, LABELS)] == ["ADDRESS"]
    original = "Please call Jane Moreau at 555-0134 about the invoice."
    spans = [Span(start=12, end=23), Span(start=27, end=35)]
    assert MaskedText.of(original, spans).text == "Please call … at … about the invoice."
    assert read_text_output(original, spans, Category.GENERAL, REAL, 1) == []


def test_a_fully_redacted_output_reads_clean_to_both_real_tiers():
    original = "Patient Jane Moreau, MRN 4471829, jane.moreau@example.org, 415-555-0134."
    redacted = [(8, 19), (25, 32), (34, 57), (59, 71)]
    spans = [Span(start=s, end=e) for s, e in redacted]
    assert read_text_output(original, spans, Category.MEDICAL, REAL, 2) == []
    found = read_text_output(original, spans[:2], Category.MEDICAL, REAL, 2)
    assert {(d.value, d.source) for d in found} >= {
        ("jane.moreau@example.org", Source.VALIDATE_RULES)
    }
    assert all(d.round == 2 for d in found)


def test_image_mode_masks_redacted_elements_and_keeps_only_readable_ones():
    words = ["Call", "Jane", "Moreau", "today"]
    document = Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=40 * i, y0=0, x1=40 * i + 30, y1=10))
            for i, w in enumerate(words)
        ]
    )
    masked = masked_elements(document, [1])
    assert [e.text for e in masked.elements] == ["Call", MASK, "Moreau", "today"]
    assert masked.elements[1].box == document.elements[1].box
    fake = TableNer({"Call … Moreau today": [[5, 13, "NAME"]]})
    opinion = SecondOpinion(((Source.VALIDATE_NER, lambda d, c: fake(d, c, LABELS)),))
    found = read_page_output(document, [1], Category.GENERAL, opinion, 1)
    assert [(d.index, d.value, d.source) for d in found] == [(2, "Moreau", Source.VALIDATE_NER)]


def scripted(**replies: list[str]) -> ScriptedEngine:
    """A script whose declared policy trusts its validator, so a PASS can end PASS."""
    return ScriptedEngine.from_mapping({**replies, "pipeline": {"trust_validator_pass": True}})


NER_MODEL = PipelineOptions(detectors=frozenset({Detector.NER, Detector.MODEL}), model_redact=False)
TEXT = "Call Jane Moreau today about the invoice."


def test_an_llm_fail_naming_nothing_usable_still_gets_another_round_from_the_second_opinion(
    prompts,
):
    engine = scripted(
        classify=["CATEGORY: General"], detect=["NAME: Jane"], validate=["FAIL", "PASS"]
    )
    ner = TableNer(
        {TEXT: [], "Call … Moreau today about the invoice.": [[7, 13, "NAME"]], **_clean()}
    )
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=NER_MODEL, ner=ner)
    assert result.report.status is Status.PASS and result.report.rounds == 2
    assert result.redacted_text == "Call [NAME_1] [NAME_2] today about the invoice."


def _clean() -> dict[str, list[list[object]]]:
    return {"Call … … today about the invoice.": []}


def test_the_second_opinion_and_the_llm_both_failing_on_the_last_round_give_both_reasons(
    prompts,
):
    engine = scripted(classify=["CATEGORY: General"], detect=["NAME: Jane"], validate=["FAIL"])
    ner = TableNer({TEXT: [], "Call … Moreau today about the invoice.": [[7, 13, "NAME"]]})
    options = PipelineOptions(
        detectors=frozenset({Detector.NER, Detector.MODEL}), model_redact=False, max_rounds=1
    )
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=options, ner=ner)
    assert result.report.review_reasons == [
        ReviewReason.STILL_FAILING,
        ReviewReason.OUTPUT_STILL_READS,
    ]
    assert result.redacted_text == "Call [NAME_1] [NAME_2] today about the invoice."


def test_model_only_runs_no_second_opinion_even_with_the_tiers_at_hand(prompts):
    def never(document, category, allowed):
        raise AssertionError("the NER tier ran in a model-only run")

    engine = scripted(classify=["CATEGORY: General"], detect=["NAME: Jane"], validate=["PASS"])
    options = PipelineOptions(detectors=frozenset({Detector.MODEL}), model_redact=False)
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=options, ner=never)
    assert result.report.status is Status.PASS and result.report.rounds == 1


def test_a_second_opinion_hit_draws_its_box_as_it_is_found(prompts):
    elements = [
        Element(index=i, text=w, box=Box(x0=40 * i, y0=0, x1=40 * i + 30, y1=10))
        for i, w in enumerate(["Call", "Jane", "Moreau", "today"])
    ]
    ner = TableNer(
        {
            "Call Jane Moreau today": [],
            "Call … Moreau today": [[7, 13, "NAME"]],
            "Call … … today": [],
        }
    )
    events: list[ProgressEvent] = []
    engine = scripted(classify=["CATEGORY: General"], detect=["1:NAME"], validate=["PASS", "PASS"])
    options = PipelineOptions(detectors=frozenset({Detector.NER, Detector.MODEL}))
    run_pipeline(
        Document.from_elements(elements),
        engine,
        prompts,
        options=options,
        ner=ner,
        on_event=events.append,
    )
    validate = [e for e in events if e.step.value == "validate" and e.round == 1]
    assert [(e.phase, e.index) for e in validate if e.phase is not Phase.START] == [
        (Phase.PROGRESS, 2),
        (Phase.END, None),
    ]
    assert validate[-1].verdict == "FAIL"


def test_all_tiers_on_a_real_text_find_nothing_more_when_detect_hid_everything(prompts):
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    options = PipelineOptions(detectors=ALL_DETECTORS, model_redact=False)
    text = "Ask Joana Ferreira to call back about the invoice."
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    assert result.report.status is Status.PASS and result.report.rounds == 1
    assert [d.source for d in result.report.detections] == [Source.NER]
