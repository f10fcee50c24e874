"""Run every golden vector in tests/vectors/rules/ (the Kotlin core runs the same files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redacto.document import Category, Document, Element, Mode
from redacto.rules import RECOGNIZERS, find_rule_detections, find_rule_matches

VECTORS_DIR = Path(__file__).resolve().parents[1] / "vectors" / "rules"
VECTOR_FILES = sorted(VECTORS_DIR.glob("*.json"))
COMMON_KEYS = {"name", "description", "category", "mode", "expected_matches", "expected_detections"}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def document_of(vector: dict) -> Document:
    if vector["mode"] == Mode.TEXT:
        return Document.from_text(vector["text"])
    return Document.from_elements([Element(**element) for element in vector["elements"]])


@pytest.mark.parametrize("path", VECTOR_FILES, ids=[p.stem for p in VECTOR_FILES])
def test_vector(path: Path) -> None:
    vector = load(path)
    payload_key = "text" if vector["mode"] == Mode.TEXT else "elements"
    assert set(vector) == COMMON_KEYS | {payload_key}, "unexpected or missing keys"
    assert vector["name"] == path.stem
    document = document_of(vector)
    category = Category(vector["category"])

    matches = find_rule_matches(document, category)
    detections = find_rule_detections(document, category)
    if document.mode is Mode.TEXT:
        got_matches = [
            {
                "recognizer": m.recognizer,
                "label": m.label,
                "value": m.value,
                "span": [m.span.start, m.span.end],
            }
            for m in matches
        ]
        got_detections = [
            {"span": [d.span.start, d.span.end], "label": d.label, "value": d.value}
            for d in detections
        ]
        for expected in vector["expected_detections"]:
            start, end = expected["span"]
            assert vector["text"][start:end] == expected["value"], "span does not hold the value"
    else:
        got_matches = [
            {
                "recognizer": m.recognizer,
                "label": m.label,
                "value": m.value,
                "indices": list(m.indices),
            }
            for m in matches
        ]
        got_detections = [
            {"index": d.index, "label": d.label, "value": d.value} for d in detections
        ]
    assert got_matches == vector["expected_matches"]
    assert got_detections == vector["expected_detections"]


def test_vectors_cover_every_recognizer_and_both_modes() -> None:
    vectors = [load(path) for path in VECTOR_FILES]
    assert len(vectors) >= 15
    seen = {m["recognizer"] for v in vectors for m in v["expected_matches"]}
    assert seen == set(RECOGNIZERS)
    assert {v["mode"] for v in vectors} == {"image", "text"}
    assert any(not v["expected_matches"] for v in vectors), "no vector with nothing to find"
