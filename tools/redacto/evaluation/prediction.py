"""What a system under test produced for one document, in the scorer's own terms.

The scorer never sees the pipeline: anything that redacts (our pipeline, Presidio, a
hand-written fixture) is turned into a `Prediction` first. Text mode predicts character
spans of `CorpusDocument.text` that are no longer readable; image mode predicts boxes drawn
over the rendered page, in its pixels.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from redacto.document import Box, Category, Frozen, Mode, Status, Step
from redacto.report import ParseError, RejectReason, ReviewReason, StepTrace, Verdict


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


class NamedItem(Frozen):
    """An item the model named and the pipeline used: which step and round, the label, and
    the value (text, and the page read as text) or the word index (the indexed reading)."""

    step: Step
    round: int
    label: str
    value: str | None = None
    index: int | None = None


MODEL_STEPS = (Step.DETECT, Step.VALIDATE)
"""The steps whose answers name values (the invention rate counts their lines)."""


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
    named: tuple[NamedItem, ...] = ()
    """What detect and validate named that the pipeline used, kept for reading a run."""
    rejected: tuple[ParseError, ...] = ()
    """Every answer line the pipeline dropped, with its reason (an invented value is
    `not in the document`)."""
    wall_ms: float = 0.0
    error: str | None = None

    @property
    def answer_lines(self) -> int:
        """Detect and validate answer lines: the items used plus the lines dropped."""
        return len(self.named) + sum(error.step in MODEL_STEPS for error in self.rejected)

    @property
    def invented_lines(self) -> int:
        """Detect and validate answer lines naming a value that is not in the document."""
        return sum(
            error.step in MODEL_STEPS and error.reason is RejectReason.NOT_IN_DOCUMENT
            for error in self.rejected
        )

    @model_validator(mode="after")
    def _matches_mode(self) -> Prediction:
        if self.mode is Mode.TEXT and self.boxes:
            raise ValueError("a text-mode prediction carries spans, not boxes")
        if self.mode is Mode.IMAGE and self.spans:
            raise ValueError("an image-mode prediction carries boxes, not spans")
        return self
