"""The PP-OCR golden file that the Kotlin OCR tests read holds RapidOCR's own answers.

Recomputes every expectation in `ppocr_golden.json` from its stored inputs with RapidOCR's
post-processing classes and redacto's layout code: if either changes, the Kotlin port is
checked against stale numbers, and this fails until the file is rewritten
(`python -m devtools.generated --write ppocr-golden`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("rapidocr")

from devtools.generated.ppocr_expectations import (
    expected_det,
    expected_layout,
    expected_rec,
)

GOLDEN = json.loads((Path(__file__).parent / "ppocr_golden.json").read_text())


def test_detector_expectations_are_rapidocrs() -> None:
    assert GOLDEN["det"]["expected"] == expected_det(GOLDEN["det"])
    assert len(GOLDEN["det"]["expected"]["boxes"]) == 3


@pytest.mark.parametrize("case", GOLDEN["rec"], ids=lambda case: f"line{case['quad'][0]}")
def test_recogniser_expectations_are_rapidocrs(case: dict) -> None:
    assert case["expected"] == expected_rec(case)


def test_recognised_text_is_the_rendered_page() -> None:
    texts = [case["expected"]["text"] for case in GOLDEN["rec"]]
    assert texts == ["Patient: Jane Doe", "MRN 4471-22 DOB 03/14/1980", "Ward 7"]


def test_layout_expectations_are_redactos() -> None:
    assert json.loads(json.dumps(expected_layout())) == GOLDEN["layout"]
