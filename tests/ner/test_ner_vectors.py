"""The NER golden vectors (`devtools/generated/ner_vectors.py`; `python -m devtools.generated
--check` says they are what the tier makes now): their stored decisions follow from their
stored model output by the pure decoding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from devtools.generated.ner_vectors import VECTORS
from redacto.document import Category
from redacto.ner import COMMA_JOINS, word_is_value
from redacto.ner.decode import (
    Token,
    TokenReading,
    Window,
    best_window,
    join_hits,
    plan_windows,
    softmax_best,
    word_hits,
)
from redacto.ner.labels import label_for

FILES = sorted(VECTORS.glob("*.json"))


def test_there_are_at_least_fifty_vectors_in_both_languages():
    names = [path.stem for path in FILES]
    assert len(names) >= 50
    assert any(n.startswith("fr_") for n in names) and any(n.startswith("long_") for n in names)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_decoding_the_stored_model_output_gives_the_stored_decisions(path: Path):
    """What Kotlin checks without ONNX: windows, readings, words and spans from the file."""
    vector = json.loads(path.read_text(encoding="utf-8"))
    settings, text = vector["settings"], vector["text"]
    windows = plan_windows(
        vector["word_ids"], settings["window_tokens"], settings["overlap_tokens"]
    )
    assert [[w.start, w.end] for w in windows] == [
        [w["start"], w["end"]] for w in vector["windows"]
    ]
    readings = []
    for position in range(len(vector["tokens"])):
        number = best_window(position, [Window(w.start, w.end) for w in windows])
        stored = vector["windows"][number]
        label, score = stored["best"][position - stored["start"]]
        readings.append(TokenReading(settings["labels"][label], score))
        if "logits" in stored:
            best, probability = softmax_best(stored["logits"][position - stored["start"]])
            assert best == label and probability == pytest.approx(score, abs=2e-3)
    assert [[r.label, r.entity(settings["threshold"])] for r in readings] == [
        [label, hit] for label, _, hit in vector["readings"]
    ]
    allowed = vector["allowed_labels"]
    tokens = [Token(*token) for token in vector["tokens"]]
    hits = word_hits(text, tokens, readings, lambda e: label_for(e, allowed), settings["threshold"])
    assert [[h.start, h.end, h.label, h.entity] for h in hits] == vector["word_hits"]
    values = [hit for hit in hits if word_is_value(text, hit)]
    joined = join_hits(text, values, COMMA_JOINS)
    assert [[s.start, s.end, s.label, list(s.entities)] for s in joined] == vector["joined"]
    Category(vector["category"])  # a known category
