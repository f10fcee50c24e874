"""How well a scored verdict separates clean outputs from leaky ones, and where to cut.

A scored validator says PASS when its margin, log P(`PASS`) − log P(`FAIL`), reaches a
threshold. Each threshold gives a PASS rate on clean outputs (should be high) and on leaky
ones (the bar: at most 1 %). `verdict_curve` lists both rates at every threshold the
margins suggest and picks the threshold that passes the most clean outputs within the bar;
`rates_at` reads another set of margins at a threshold chosen elsewhere, so a threshold is
chosen on a dev set and reported on the test split.

Every threshold between two neighbouring margins gives the same rates, so the best point's
threshold is the middle of its gap, not the margin above it: on step 3026's first dev
documents (the page read as text) the clean margins were 6.1–6.7 and the leaky ones −7.3 and
below, and a threshold at the lowest clean margin (6.1) passed one of the four clean test
outputs (4.3–6.2), where the middle of the gap passes them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

MAX_LEAKY_PASS = 0.01
"""The bar a trusted PASS must clear: PASS on at most 1 % of leaky outputs."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Margin:
    """One judged output: its margin and whether it was clean (its right verdict PASS)."""

    margin: float
    clean: bool


class CurvePoint(_Model):
    """PASS rates when PASS means `margin >= threshold`."""

    threshold: float
    clean_pass_rate: float | None
    leaky_pass_rate: float | None
    clean: int
    leaky: int


class VerdictCurve(_Model):
    """Every threshold's PASS rates, the separation (AUC), and the best threshold."""

    clean: int
    leaky: int
    auc: float | None
    """P(a clean output's margin > a leaky one's), ties counting half: 0.5 is a coin."""
    max_leaky_pass: float
    best: CurvePoint | None
    """The highest clean PASS rate within `max_leaky_pass`, its threshold in the middle of
    the gap below the lowest margin that gives it; None when no threshold passes a clean
    output within the bar."""
    points: list[CurvePoint]
    """One per distinct margin, ascending: at the lowest everything passes."""


def rates_at(margins: Sequence[Margin], threshold: float) -> CurvePoint:
    """The PASS rates of `margins` when PASS means `margin >= threshold`."""
    clean = [m.margin for m in margins if m.clean]
    leaky = [m.margin for m in margins if not m.clean]
    return CurvePoint(
        threshold=threshold,
        clean_pass_rate=_share(clean, threshold),
        leaky_pass_rate=_share(leaky, threshold),
        clean=len(clean),
        leaky=len(leaky),
    )


def verdict_curve(
    margins: Sequence[Margin], max_leaky_pass: float = MAX_LEAKY_PASS
) -> VerdictCurve:
    """The curve over every distinct margin as a threshold, and the best point within the bar."""
    thresholds = sorted({m.margin for m in margins})
    points = [rates_at(margins, threshold) for threshold in thresholds]
    within = [
        number
        for number, p in enumerate(points)
        if p.leaky_pass_rate is not None
        and p.leaky_pass_rate <= max_leaky_pass
        and p.clean_pass_rate  # passes at least one clean output
    ]
    best = None
    if within:
        number = within[0]
        below = thresholds[number - 1] if number else thresholds[number]
        best = rates_at(margins, (below + thresholds[number]) / 2)
    clean = sum(m.clean for m in margins)
    return VerdictCurve(
        clean=clean,
        leaky=len(margins) - clean,
        auc=separation(margins),
        max_leaky_pass=max_leaky_pass,
        best=best,
        points=points,
    )


def separation(margins: Sequence[Margin]) -> float | None:
    """The AUC: how often a clean output's margin beats a leaky one's (ties count half)."""
    clean = [m.margin for m in margins if m.clean]
    leaky = [m.margin for m in margins if not m.clean]
    if not clean or not leaky:
        return None
    wins = sum((c > f) + 0.5 * (c == f) for c in clean for f in leaky)
    return wins / (len(clean) * len(leaky))


def _share(values: list[float], threshold: float) -> float | None:
    if not values:
        return None
    return sum(value >= threshold for value in values) / len(values)
