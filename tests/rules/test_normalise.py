"""The rules' normaliser: the shared vectors (tests/vectors/normalise, also read by the
Kotlin core's `RuleNormaliseVectorTest`) and the promises every map keeps."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

import pytest

from redacto.host.resources import SOURCE_ROOT
from redacto.rules.normalise import normalise

VECTORS = SOURCE_ROOT / "tests" / "vectors" / "normalise" / "normalise.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_vector(case: dict[str, Any]) -> None:
    read = normalise(case["text"])
    assert read.text == case["normalised"]
    assert [list(read.source_span(i, i + 1)) for i in range(len(read.text))] == case["origins"]
    assert (read.maps == ()) == (read.text == case["text"])


def test_the_vectors_cover_every_step() -> None:
    names = {case["name"] for case in CASES}
    for step in ("fullwidth_digits", "zero_width", "unicode_spaces", "dashes", "digit_gaps"):
        assert step in names


ALPHABET = "a1 -\t\n\u00a0\u200b\u2013\uff11\u0301\ufb01\u2460@.\U0001d7d9"


def test_spans_map_onto_the_original_in_order_and_cover_what_lies_between() -> None:
    chooser = random.Random(45)
    for _ in range(2_000):
        text = "".join(chooser.choice(ALPHABET) for _ in range(chooser.randint(0, 24)))
        read = normalise(text)
        origins = [read.source_span(i, i + 1) for i in range(len(read.text))]
        for (start, end), (next_start, next_end) in pairwise(origins):
            assert start < end <= next_end and start <= next_start
        for i in range(len(read.text)):
            for j in range(i + 1, len(read.text) + 1):
                assert read.source_span(i, j) == (origins[i][0], origins[j - 1][1])
        assert read.text == normalise(read.text).text  # reading twice changes nothing
