"""The shared vectors of `align_to_ink` (tests/vectors/ocr/align.json), which the Kotlin
core's `OcrAlignVectorTest` runs too: word boxes widened to their own ink, or left alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from redacto.document import Box
from redacto.ocr.align import align_to_ink
from redacto.ocr.base import OcrLine, OcrWord

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "ocr" / "align.json").read_text()
)


def page(case: dict[str, Any]) -> np.ndarray:
    gray = np.full((VECTORS["height"], VECTORS["width"]), 255, dtype=np.uint8)
    for x0, y0, x1, y1 in case["ink"]:
        gray[y0:y1, x0:x1] = case["grey"]
    return gray


def line(case: dict[str, Any]) -> OcrLine:
    words = tuple(
        OcrWord(
            text=w["text"],
            box=Box(x0=w["box"][0], y0=w["box"][1], x1=w["box"][2], y1=w["box"][3]),
            confidence=1.0,
        )
        for w in case["line"]["words"]
    )
    return OcrLine(words=words, corners=tuple(tuple(c) for c in case["line"]["corners"]))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"] for c in VECTORS["cases"]])
def test_align_to_ink(case: dict[str, Any]) -> None:
    aligned = align_to_ink(line(case), page(case))
    boxes = [[w.box.x0, w.box.y0, w.box.x1, w.box.y1] for w in aligned.words]
    assert boxes == case["expected_boxes"]


def test_some_case_widens_a_box() -> None:
    """The set is not all 'left alone': one case's expected boxes differ from OCR's."""
    assert any(
        [w["box"] for w in case["line"]["words"]] != case["expected_boxes"]
        for case in VECTORS["cases"]
    )
