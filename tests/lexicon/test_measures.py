"""The measurement lists and shapes the residual check reads (`redacto.lexicon.measures`)."""

from __future__ import annotations

import pytest

from redacto.lexicon.measures import is_unit, measure_number, vital_reading, with_unit


@pytest.mark.parametrize(
    ("word", "after", "expected"),
    [
        ("500", "mg", True),
        ("500mg", None, True),
        ("0.125", "mg", True),
        ("12,500", "units", True),
        ("72/min", None, True),
        ("500mg/j", None, True),
        ("135/85", "mmHg", True),
        ("4432", "L", True),
        ("4432", "M", False),
        ("123456", "mg", False),
        ("12345", "mg", False),
        ("1234.5678mg", None, False),
        ("12/05", None, False),
        ("12/05", "h", False),
        ("250", "tablets", False),
        ("500", None, False),
    ],
)
def test_with_unit(word: str, after: str | None, expected: bool) -> None:
    assert with_unit(word, after) is expected


@pytest.mark.parametrize(
    ("word", "label", "expected"),
    [
        ("128/82", "bp", True),
        ("12/8", "ta", True),
        ("128/82mmHg", "bp", True),
        ("12/05", "hr", False),
        ("110", "hr", True),
        ("110", "pouls", True),
        ("1100", "hr", False),
        ("110", "mrn", False),
    ],
)
def test_vital_reading(word: str, label: str, expected: bool) -> None:
    assert vital_reading(word, label) is expected


def test_units_and_numbers() -> None:
    assert is_unit("mL/h") and is_unit("/min") and is_unit("µg") and is_unit("mmHg")
    assert not is_unit("/05") and not is_unit("mg/") and not is_unit("in") and not is_unit("")
    assert measure_number("1250.5") and not measure_number("1250.55")
