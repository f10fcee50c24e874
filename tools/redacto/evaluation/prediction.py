"""What a system under test produced for one document, in the scorer's own terms.

The scorer never sees the pipeline: anything that redacts (our pipeline, Presidio, a
hand-written fixture) is turned into a `Prediction` first. Text mode predicts character
spans of `CorpusDocument.text` that are no longer readable; image mode predicts boxes drawn
over the rendered page, in its pixels.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from redacto.document import Box, Category, Frozen, Mode, Status
from redacto.report import ReviewReason, StepTrace, Verdict


class PredictedSpan(Frozen):
    """Characters `[start, end)` of the document text that the output hides."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    label: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> PredictedSpan:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} before start {self.start}")
        return self


class PredictedBox(Frozen):
    """A black box drawn on the rendered page (pixels of that page)."""

    box: Box
    label: str | None = None


class Prediction(Frozen):
    """One system's output for one document in one mode, plus what it cost.

    `status` is the run's outcome and `validator_verdict` its validator's last word: a
    validator PASS on a page that still leaks is a false PASS, whether or not the status
    was capped at NEEDS_REVIEW. Systems without a validator (Presidio) leave both None.
    """

    mode: Mode
    spans: tuple[PredictedSpan, ...] = ()
    boxes: tuple[PredictedBox, ...] = ()
    category: Category | None = None
    status: Status | None = None
    validator_verdict: Verdict | None = None
    rounds: int = 0
    review_reasons: tuple[ReviewReason, ...] = ()
    steps: tuple[StepTrace, ...] = ()
    parse_errors: int = 0
    wall_ms: float = 0.0
    error: str | None = None

    @model_validator(mode="after")
    def _matches_mode(self) -> Prediction:
        if self.mode is Mode.TEXT and self.boxes:
            raise ValueError("a text-mode prediction carries spans, not boxes")
        if self.mode is Mode.IMAGE and self.spans:
            raise ValueError("an image-mode prediction carries boxes, not spans")
        return self
