"""Named items that stand for no one (`redacto.pipeline.detections.rejected_as`) and a
greeting cut from a NAME (`trimmed_item`), through the whole pipeline with a scripted model:
detect and validate, text mode and image mode, both image readings."""

from __future__ import annotations

from redacto.document import Box, Category, Document, Element, Source
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import ImageReading, PipelineOptions, run_pipeline
from redacto.report import RejectReason

TEXT = "Coucou Thérèse, the meeting is at 11:15. The fee is 671 EUR."
DETECT = "ADDRESS: 11:15.\nACCOUNT: 671 EUR\nNAME: Coucou Thérèse"
REJECTED = [
    ("ADDRESS: 11:15.", RejectReason.NOT_AN_IDENTIFIER),
    ("ACCOUNT: 671 EUR", RejectReason.NOT_AN_IDENTIFIER),
]
OPTIONS = PipelineOptions(category=Category.FINANCIAL, model_redact=False, max_rounds=1)


def scripted(**replies: list[str]) -> ScriptedEngine:
    return ScriptedEngine.from_mapping(replies)


def page(text: str) -> Document:
    words = text.split()
    return Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ]
    )


def rejections(result) -> list[tuple[str, RejectReason]]:
    return [(e.line, e.reason) for e in result.report.parse_errors]


def test_detect_drops_a_time_and_an_amount_and_cuts_the_greeting_in_text_mode(prompts):
    engine = scripted(detect=[DETECT], validate=["PASS"])
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=OPTIONS)
    assert [(d.label, d.value) for d in result.report.detections] == [("NAME", "Thérèse")]
    assert rejections(result) == REJECTED
    assert result.redacted_text == "Coucou [NAME_1], the meeting is at 11:15. The fee is 671 EUR."


def test_validate_drops_a_time_and_an_amount_and_cuts_the_greeting_in_text_mode(prompts):
    engine = scripted(detect=["NONE"], validate=[f"FAIL\n{DETECT}"])
    result = run_pipeline(Document.from_text(TEXT), engine, prompts, options=OPTIONS)
    found = [(d.label, d.value, d.source) for d in result.report.detections]
    assert found == [("NAME", "Thérèse", Source.VALIDATE)]
    assert rejections(result) == REJECTED
    assert result.report.validator_missed == DETECT.splitlines()


def test_detect_read_as_text_cuts_the_greeting_on_the_page(prompts):
    engine = scripted(detect=[DETECT], validate=["PASS"])
    options = PipelineOptions(
        category=Category.FINANCIAL, image_reading=ImageReading.TEXT, max_rounds=1
    )
    result = run_pipeline(page(TEXT), engine, prompts, options=options)
    assert [(d.index, d.value) for d in result.report.detections] == [(1, "Thérèse")]
    assert rejections(result) == REJECTED
    assert len(result.boxes) == 1


def test_indexed_items_naming_a_time_or_an_amount_are_dropped(prompts):
    # Words: 0 Coucou, 1 Thérèse, ... 6 11:15. ... 10 671, 11 EUR.
    engine = scripted(detect=["6:ADDRESS\n10:ACCOUNT\n1:NAME"], validate=["PASS"])
    options = PipelineOptions(
        category=Category.FINANCIAL, image_reading=ImageReading.INDEXED, max_rounds=1
    )
    result = run_pipeline(page(TEXT), engine, prompts, options=options)
    # An element is read alone: "671" is a bare number, no amount, and stays; the element
    # that is a whole time goes.
    assert [d.index for d in result.report.detections] == [10, 1]
    assert rejections(result) == [("6:ADDRESS", RejectReason.NOT_AN_IDENTIFIER)]
