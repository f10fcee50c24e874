"""`same_outputs`: two runs on a document agree on everything but timing."""

from __future__ import annotations

import pytest

from redacto.document import Mode, Step
from redacto.evaluation.compare import same_outputs
from redacto.evaluation.prediction import PredictedSpan, Prediction
from redacto.report import StepTrace


def run(*, ms: float = 10.0, tokens: int = 5, stopped: bool = False, end: int = 4) -> Prediction:
    step = StepTrace(step=Step.DETECT, ms=ms, ttft_ms=ms / 2, output_tokens=tokens, stopped=stopped)
    return Prediction(
        mode=Mode.TEXT, spans=(PredictedSpan(start=0, end=end),), steps=(step,), wall_ms=ms * 3
    )


def test_timing_is_not_an_output() -> None:
    assert same_outputs(run(ms=10.0), run(ms=99.0))


def test_a_call_stopped_early_may_have_made_more_tokens_before_the_stop() -> None:
    assert same_outputs(run(tokens=5, stopped=True), run(tokens=9, stopped=True))


@pytest.mark.parametrize(
    "other",
    [run(end=5), run(tokens=9), run(stopped=True)],
    ids=["a span", "tokens of a call that finished", "a call stopped"],
)
def test_anything_the_run_decided_is_an_output(other: Prediction) -> None:
    assert not same_outputs(run(), other)
