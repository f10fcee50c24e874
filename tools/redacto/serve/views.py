"""What the review page is sent: typed JSON shapes for the page, the steps and the review.

These go to the browser only (the user's own document on the user's own machine), never to
the server's log. Image coordinates are pixels of the page image the page shows.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from redacto.document import Mode, Source
from redacto.inputs import InputFile
from redacto.pipeline import ProgressEvent
from redacto.pipeline.redact import ImageRedaction, TextRedaction
from redacto.report import RunReport, describe_reasons
from redacto.serve.review import ReviewSession


class View(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PageImage(View):
    """One page image the page draws words and boxes on."""

    number: int
    width: int
    height: int


class WordView(View):
    """One OCR word: its index, page, box (x0, y0, x1, y1) and text."""

    i: int
    page: int
    box: tuple[float, float, float, float]
    t: str


class PageView(View):
    """The input as read, sent before any model time: page images and words, or the text."""

    mode: Mode
    pages: list[PageImage] = []
    words: list[WordView] = []
    text: str = ""


class StepView(View):
    """One progress event: the line the CLI prints, and (image mode) the word just found."""

    step: str
    number: int
    phase: str
    round: int
    line: str
    found: int
    index: int | None = None


class BoxMark(View):
    """A redacted word (image mode): who found it and the placeholder it reads as."""

    index: int
    label: str
    placeholder: str
    source: Source


class TextMark(View):
    """A redacted span of the text (text mode), in the text the page shows."""

    start: int
    end: int
    label: str
    placeholder: str
    source: Source


class Unplaced(View):
    """A value named by the model that is nowhere on the document (`not_located`)."""

    position: int
    label: str
    value: str
    source: Source


class ToCheck(View):
    """A word of the output no reader could explain (the residual check, docs/lexicon.md):
    the first thing a reviewer should look at. Image mode names its word (`index`); text
    mode its characters in the text the page shows (`start`, `end`). `hidden`: the current
    redaction hides it now (strict redacted it, or the reviewer did)."""

    value: str
    kind: str
    index: int | None = None
    start: int | None = None
    end: int | None = None
    hidden: bool = False


class ReviewView(View):
    """The run's outcome and the redaction the current edits give (what approval writes)."""

    status: str
    category: str
    document_type: str
    rounds: int
    reasons: list[str]
    validator_verdict: str | None
    validator_missed: list[str]
    labels: list[str]
    boxes: list[BoxMark] = []
    marks: list[TextMark] = []
    not_located: list[Unplaced] = []
    to_check: list[ToCheck] = []
    edits: int
    count_shown: int
    redacted_text: str


def page_view(source: InputFile, pages: list[PageImage]) -> PageView:
    """The page's first picture of the input: words with boxes, or the text to read."""
    document = source.document
    if document.mode is Mode.TEXT:
        return PageView(mode=Mode.TEXT, text=document.text)
    words = [
        WordView(i=e.index, page=e.page, box=(e.box.x0, e.box.y0, e.box.x1, e.box.y1), t=e.text)
        for e in document.elements
        if e.box is not None
    ]
    return PageView(mode=Mode.IMAGE, pages=pages, words=words)


def step_view(event: ProgressEvent) -> StepView:
    """A progress event as the page shows it (the same line the CLI prints)."""
    from redacto.pipeline.state import STEP_NUMBERS

    return StepView(
        step=event.step.value,
        number=STEP_NUMBERS[event.step],
        phase=event.phase.value,
        round=event.round,
        line=event.describe(),
        found=event.found,
        index=event.index,
    )


def review_view(session: ReviewSession) -> ReviewView:
    """What the reviewer sees now: the pipeline's verdict and the current redaction."""
    preview = session.preview()
    report = preview.result.report
    redaction = preview.redaction
    boxes: list[BoxMark] = []
    marks: list[TextMark] = []
    if isinstance(redaction, ImageRedaction):
        by_index = {d.index: d for d in session.detections if d.index is not None}
        boxes = [
            BoxMark(
                index=index,
                label=by_index[index].label,
                placeholder=placeholder,
                source=by_index[index].source,
            )
            for index, placeholder in sorted(redaction.shown.items())
        ]
    else:
        marks = [
            TextMark(
                start=r.span.start,
                end=r.span.end,
                label=r.detection.label,
                placeholder=r.placeholder,
                source=r.detection.source,
            )
            for r in redaction.replacements
        ]
    unplaced = [
        Unplaced(position=n, label=d.label, value=d.value or "", source=d.source)
        for n, d in enumerate(redaction.not_located)
    ]
    return ReviewView(
        status=report.status.value,
        category=report.category.value,
        document_type=report.document_type,
        rounds=report.rounds,
        reasons=describe_reasons(report),
        validator_verdict=report.validator_verdict,
        validator_missed=list(report.validator_missed),
        labels=list(session.labels),
        boxes=boxes,
        marks=marks,
        not_located=unplaced,
        to_check=to_check(report, redaction),
        edits=len(session.edits),
        count_shown=report.count_shown,
        redacted_text=preview.result.redacted_text or "",
    )


def to_check(report: RunReport, redaction: ImageRedaction | TextRedaction) -> list[ToCheck]:
    """The report's unexplained words, each marked hidden when the redaction now hides it."""
    if isinstance(redaction, ImageRedaction):
        shown = set(redaction.shown)
        return [
            ToCheck(value=w.value, kind=w.kind, index=w.index, hidden=w.index in shown)
            for w in report.unexplained
            if w.index is not None
        ]
    spans = [r.span for r in redaction.replacements]
    return [
        ToCheck(
            value=w.value,
            kind=w.kind,
            start=w.span.start,
            end=w.span.end,
            hidden=any(s.start < w.span.end and w.span.start < s.end for s in spans),
        )
        for w in report.unexplained
        if w.span is not None
    ]
