"""Loads and runs the language-neutral golden vectors in tests/vectors/pipeline.

The format is documented in tests/vectors/README.md; the Kotlin core runs the same files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redacto.document import (
    Box,
    Category,
    Detection,
    Detector,
    Document,
    Element,
    Mode,
    Step,
)
from redacto.engines.scripted import ScriptedEngine
from redacto.ner import ner_detections
from redacto.pipeline import PipelineOptions, PipelineResult, run_pipeline
from redacto.pipeline.page_text import PageText
from redacto.pipeline.state import ImageReading
from redacto.prompts import PromptLibrary

VECTORS_DIR = Path(__file__).resolve().parents[1] / "vectors" / "pipeline"


@dataclass(frozen=True)
class Vector:
    name: str
    raw: dict[str, Any]

    @property
    def expect(self) -> dict[str, Any]:
        return self.raw["expect"]


def load_vectors() -> list[Vector]:
    return [
        Vector(path.stem, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(VECTORS_DIR.glob("*.json"))
    ]


def vector_document(raw: dict[str, Any]) -> Document:
    if raw["mode"] == Mode.TEXT.value:
        return Document.from_text(raw["text"])
    if "generated_elements" in raw:
        count = raw["generated_elements"]["count"]
        entries = [{"text": f"w{i}", "box": [10 * i, 0, 10 * i + 8, 10]} for i in range(count)]
    else:
        entries = raw["elements"]
    elements = [
        Element(
            index=index,
            text=entry["text"],
            box=None
            if entry.get("box") is None
            else Box(**dict(zip(["x0", "y0", "x1", "y1"], entry["box"], strict=True))),
        )
        for index, entry in enumerate(entries)
    ]
    return Document.from_elements(elements)


@dataclass(frozen=True)
class TableNer:
    """A NER tier that answers from a table: for each exact text it may be asked about, the
    spans `[start, end, label]` it reports (code points). Image mode asks it about each
    page's lines, as the real tier reads them. A text not in the table
    fails the test: the table pins every text the tier reads, the masked outputs included."""

    table: dict[str, list[list[Any]]]

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        assert text in self.table, f"the NER tier read a text the vector does not list: {text!r}"
        return [(int(start), int(end), str(label)) for start, end, label in self.table[text]]

    def __call__(self, document: Document, category: Category, allowed: Any) -> list[Detection]:
        return ner_detections(document, self.spans)


def run_vector(vector: Vector, prompts: PromptLibrary) -> tuple[PipelineResult, ScriptedEngine]:
    raw = vector.raw
    # `trust_validator_pass` is the model's own setting: a script declares it as a built
    # file's sealed policy would (the caller's options leave it to the model).
    declared = {"trust_validator_pass": raw.get("trust_validator_pass", True)}
    engine = ScriptedEngine.from_mapping(
        {**raw.get("replies", {}), "pipeline": declared}, uri=f"scripted:{vector.name}"
    )
    category = Category(raw["category"]) if "category" in raw else None
    options = PipelineOptions(
        rules=raw.get("rules", False),
        detectors=frozenset(Detector(name) for name in raw.get("detectors", ["rules", "model"])),
        category=category,
        chunk_size=raw.get("chunk_size", 150),
        image_reading=ImageReading(raw.get("image_reading", ImageReading.INDEXED.value)),
        model_redact=raw.get("model_redact", True),
        strict=raw.get("strict", False),
        language=raw.get("language"),
    )
    # Both languages fake the NER tier from the vector's table (Kotlin has no Rampart here).
    assert "ner" in raw or Detector.NER not in options.detectors, "the ner tier needs a `ner` table"
    ner = TableNer(raw["ner"]) if "ner" in raw else None
    result = run_pipeline(vector_document(raw), engine, prompts, options=options, ner=ner)
    return result, engine


def document_block(user: str) -> str:
    """What a text-mode prompt's user message holds between `<document>` and `</document>`."""
    start = user.index("<document>\n") + len("<document>\n")
    return user[start : user.rindex("\n</document>")]


def project(detection: Any, keys: set[str]) -> dict[str, Any]:
    data = detection.model_dump(mode="json")
    return {key: data.get(key) for key in keys}


def check_vector(vector: Vector, result: PipelineResult, engine: ScriptedEngine) -> None:
    """Assert every expectation the vector states, plus the invariants every run keeps."""
    report = result.report
    expect = vector.expect
    if "page_text" in expect:
        page = PageText.of(vector_document(vector.raw).elements).text
        assert page == expect["page_text"], page
    for step in Step:
        assert engine.remaining(step) == 0, f"{step.value}: scripted replies left unused"
    for key in (
        "status",
        "category",
        "document_type",
        "classify_fallback",
        "category_given",
        "rounds",
        "count_shown",
        "redact_fallback",
        "validator_missed",
        "validator_verdict",
    ):
        if key in expect:
            actual = getattr(report, key)
            assert actual == expect[key], f"{key}: {actual!r} != {expect[key]!r}"
    for key in ("detections", "not_located"):
        if key in expect:
            actual = [
                project(d, set(wanted))
                for d, wanted in zip(getattr(report, key), expect[key], strict=False)
            ]
            assert len(getattr(report, key)) == len(expect[key]), f"{key}: {getattr(report, key)}"
            assert actual == expect[key], f"{key}: {actual} != {expect[key]}"
    if "boxes" in expect:
        assert [box.as_list() for box in report.boxes] == expect["boxes"], report.boxes
    if "placeholders" in expect:
        assert result.redacted_elements is not None
        shown = {
            str(index): result.redacted_elements[int(index)].text
            for index in expect["placeholders"]
        }
        assert shown == expect["placeholders"], shown
    if "redacted_text" in expect:
        assert result.redacted_text == expect["redacted_text"], result.redacted_text
    if "parse_errors" in expect:
        assert len(report.parse_errors) == expect["parse_errors"], report.parse_errors
    if "parse_error_reasons" in expect:
        reasons = [error.reason for error in report.parse_errors]
        assert reasons == expect["parse_error_reasons"], reasons
    if "review_reasons" in expect:
        reasons = [reason.value for reason in report.review_reasons]
        assert reasons == expect["review_reasons"], reasons
    if "step_chunks" in expect:
        for step, chunks in expect["step_chunks"].items():
            assert [trace.chunk for trace in report.steps if trace.step.value == step] == chunks
    if "step_stopped" in expect:
        for step, stopped in expect["step_stopped"].items():
            actual = [trace.stopped for trace in report.steps if trace.step.value == step]
            assert actual == stopped, f"step_stopped.{step}: {actual} != {stopped}"
    if "step_count" in expect:
        assert len(report.steps) == expect["step_count"], report.steps
    if "unexplained" in expect:
        words = [word.value for word in report.unexplained]
        assert words == expect["unexplained"], f"unexplained: {words}"
    if "unexplained_count" in expect:
        assert len(report.unexplained) == expect["unexplained_count"], report.unexplained
    if "validated_documents" in expect:
        seen = [document_block(r.user) for r in engine.requests if r.step is Step.VALIDATE]
        assert seen == expect["validated_documents"], seen
    if report.mode == Mode.IMAGE.value:
        assert report.count_shown == len(report.boxes)
    assert sum(trace.parse_errors for trace in report.steps) == len(report.parse_errors)
