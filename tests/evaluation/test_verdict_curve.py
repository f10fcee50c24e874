"""The scored verdict's curve: PASS rates per threshold, the best point within the bar, AUC."""

from __future__ import annotations

import pytest

from redacto.evaluation.verdict_curve import Margin, rates_at, separation, verdict_curve


def margins(clean: list[float], leaky: list[float]) -> list[Margin]:
    return [Margin(m, True) for m in clean] + [Margin(m, False) for m in leaky]


@pytest.mark.parametrize(
    ("clean", "leaky", "best", "best_clean", "auc"),
    [
        # apart: the middle of the gap between the sides passes every clean margin
        ([3.0, 2.0, 1.0], [0.0, -1.0], 0.5, 1.0, 1.0),
        # overlapping: only the clean margin above the highest leaky one passes
        ([2.0, 0.5, -1.0], [1.0, -2.0], 1.5, 1 / 3, 4 / 6),
        # one clean margin just above the leaky ones: the middle of that gap
        ([-5.0], [-6.0, -7.0], -5.5, 1.0, 1.0),
        # a tie passes both: no threshold separates them
        ([1.0], [1.0], None, None, 0.5),
        # every leaky margin above every clean one
        ([-3.0, -2.0], [0.0, 1.0], None, None, 0.0),
    ],
)
def test_best_threshold_and_separation(clean, leaky, best, best_clean, auc):
    curve = verdict_curve(margins(clean, leaky))
    assert (curve.clean, curve.leaky) == (len(clean), len(leaky))
    assert curve.auc == pytest.approx(auc)
    if best is None:
        assert curve.best is None
    else:
        assert curve.best is not None
        assert curve.best.threshold == best
        assert curve.best.clean_pass_rate == pytest.approx(best_clean)
        assert curve.best.leaky_pass_rate <= 0.01


def test_points_cover_every_margin_and_the_rates_fall_with_the_threshold():
    curve = verdict_curve(margins([2.0, 0.5, -1.0], [1.0, -2.0]))
    table = [x for p in curve.points for x in (p.threshold, p.clean_pass_rate, p.leaky_pass_rate)]
    expected = [(-2, 1, 1), (-1, 1, 0.5), (0.5, 2 / 3, 0.5), (1, 1 / 3, 0.5), (2, 1 / 3, 0)]
    assert table == pytest.approx([x for row in expected for x in row])


def test_the_bar_allows_its_share_of_leaky_passes():
    """1 % of 200 leaky outputs is 2: a threshold passing two of them is within the bar."""
    leaky = [-1.0] * 198 + [0.4, 0.6]
    curve = verdict_curve(margins([0.5, 0.7, 0.9], leaky))
    assert curve.best is not None
    assert curve.best.threshold == pytest.approx(-0.3)  # between -1.0 and 0.4
    assert curve.best.leaky_pass_rate == pytest.approx(0.01)
    assert curve.best.clean_pass_rate == 1.0
    stricter = verdict_curve(margins([0.5, 0.7, 0.9], leaky), max_leaky_pass=0.0)
    assert stricter.best is not None and stricter.best.threshold == pytest.approx(0.65)
    assert stricter.best.clean_pass_rate == pytest.approx(2 / 3)


def test_a_threshold_chosen_elsewhere_reads_these_margins():
    point = rates_at(margins([2.0, 0.0, -1.0], [0.5, -3.0]), threshold=0.25)
    assert (point.clean_pass_rate, point.leaky_pass_rate) == (pytest.approx(1 / 3), 0.5)
    assert (point.clean, point.leaky) == (3, 2)


def test_one_sided_sets_have_no_auc_and_no_best_point():
    assert separation(margins([1.0], [])) is None
    only_leaky = verdict_curve(margins([], [0.0]))
    assert only_leaky.best is None and only_leaky.auc is None
    assert only_leaky.points[0].clean_pass_rate is None
