"""Validate's residual check in the pipeline: a word no reader explains keeps a PASS from
standing and is listed in the report (with its box on a page); `strict` redacts it."""

from __future__ import annotations

from redacto.document import Box, Category, Document, Element, Source, Span, Status
from redacto.lexicon import MASK as LEXICON_MASK
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.pipeline.second_opinion import MASK, MaskedText
from redacto.report import ReviewReason, describe_reasons
from scripted_models import trusting

NO_RULES = PipelineOptions(rules=False, category=Category.GENERAL)
LEAK = "Ask ex-Zombie Wiik about the plan."


def test_the_lexicon_reads_the_same_mask_as_the_second_opinion():
    assert LEXICON_MASK == MASK


def test_a_word_no_reader_explains_keeps_the_run_from_pass(prompts):
    engine = trusting({"detect": ["NONE"], "validate": ["PASS"]})
    result = run_pipeline(Document.from_text(LEAK), engine, prompts, options=NO_RULES)
    report = result.report
    assert report.validator_verdict == "PASS"
    assert report.status is Status.NEEDS_REVIEW
    assert report.review_reasons == [ReviewReason.UNEXPLAINED_WORDS]
    assert [(w.value, w.kind, w.span) for w in report.unexplained] == [
        ("Wiik", "capitalised", Span(start=14, end=18))
    ]
    assert report.language == "en"
    assert describe_reasons(report) == ["1 word no reader could explain"]
    assert result.redacted_text == LEAK  # not redacted by default


def test_strict_redacts_the_word_and_then_passes(prompts):
    engine = trusting({"detect": ["NONE"], "validate": ["PASS", "PASS"]})
    options = PipelineOptions(
        rules=False, category=Category.GENERAL, strict=True, model_redact=False
    )
    result = run_pipeline(Document.from_text(LEAK), engine, prompts, options=options)
    report = result.report
    assert result.redacted_text == "Ask ex-Zombie [NAME_1] about the plan."
    assert [(d.value, d.source, d.round) for d in report.detections] == [
        ("Wiik", Source.LEXICON, 1)
    ]
    assert report.rounds == 2 and report.status is Status.PASS
    assert report.unexplained == [] and report.review_reasons == []


def test_strict_out_of_rounds_redacts_and_names_what_nothing_read_after(prompts):
    engine = trusting({"detect": ["NONE"], "validate": ["PASS"]})
    options = PipelineOptions(rules=False, category=Category.GENERAL, strict=True, max_rounds=1)
    result = run_pipeline(Document.from_text(LEAK), engine, prompts, options=options)
    report = result.report
    assert result.redacted_text == "Ask ex-Zombie [NAME_1] about the plan."
    assert report.status is Status.NEEDS_REVIEW
    assert ReviewReason.UNEXPLAINED_WORDS in report.review_reasons
    assert [(w.value, w.redacted) for w in report.unexplained] == [("Wiik", True)]


def test_the_language_given_is_the_dictionary_read(prompts):
    engine = trusting({"detect": ["NONE"], "validate": ["PASS"]})
    options = PipelineOptions(rules=False, category=Category.GENERAL, language="fr")
    text = "The patient was seen."
    report = run_pipeline(Document.from_text(text), engine, prompts, options=options).report
    assert report.language == "fr" and report.status is Status.NEEDS_REVIEW
    assert [w.value for w in report.unexplained] == ["The", "was", "seen"]


def test_a_page_lists_the_unexplained_element_with_its_box(prompts):
    words = ["Why", "is", "Malthe", "so", "impulsive?"]
    page = Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ]
    )
    engine = trusting({"detect": ["NONE"], "validate": ["PASS"]})
    report = run_pipeline(page, engine, prompts, options=NO_RULES).report
    assert report.status is Status.NEEDS_REVIEW
    assert [(w.value, w.index, w.box, w.page) for w in report.unexplained] == [
        ("Malthe", 2, Box(x0=20, y0=0, x1=28, y1=10), 0)
    ]


def test_a_masked_range_maps_back_to_the_original():
    masked = MaskedText.of("Call Ann Wiik now", [Span(start=5, end=8)])
    assert masked.text == f"Call {MASK} Wiik now"
    start = masked.text.index("Wiik")
    assert masked.original_span(start, start + 4) == Span(start=9, end=13)
    assert masked.original_span(0, len(masked.text)) is None
