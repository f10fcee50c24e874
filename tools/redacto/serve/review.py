"""A person's review of a finished run: add or remove boxes, then approve and write.

`redacto serve` shows a run's result on a page; the reviewer clicks a word to add or remove
its box (image mode) or selects text to redact (text mode). A `ReviewSession` holds the run
as the pipeline left it (the `InputFile` + its `RunReport`) and the edits so far; every preview
and the approved output come from the pipeline's own deterministic redact step over the
edited detections (no model call: the session's engine refuses any), so what the page shows
is exactly what approval writes. Approval goes through `redacto.inputs` (`finish` then
`write`), the writer the CLI uses, and the report gains a `review` record listing each edit
in order; added detections carry `source: reviewer`.

Text-mode spans are in the pipeline's `\\n`-only text while reviewing — the session takes
the report as the run left it (`Redaction.report`), not as written — and the input puts
the user's own line endings back only when the approved report is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from redacto.document import Detection, Mode, Source, Span, Status
from redacto.engines.no_model import NoModelEngine
from redacto.inputs import InputFile, Redaction, RedactOutcome, finish, write
from redacto.pipeline import PipelineOptions, PipelineResult
from redacto.pipeline.detections import detection_key
from redacto.pipeline.parsing import PLACEHOLDER_PATTERN
from redacto.pipeline.redact import (
    ImageRedaction,
    TextRedaction,
    locate_detections,
    redact_elements,
    redact_text,
    redaction_result,
)
from redacto.pipeline.state import StepContext
from redacto.prompts import PromptLibrary
from redacto.report import EditAction, Review, ReviewEdit, RunReport


class ReviewError(ValueError):
    """An edit that cannot be made (a word that does not exist, an unknown label, …)."""


@dataclass(frozen=True)
class ReviewPreview:
    """The redaction the current edits give, and the result approval would write."""

    redaction: ImageRedaction | TextRedaction
    result: PipelineResult


class ReviewSession:
    """One finished run under review. Not thread-safe: the caller serialises access."""

    def __init__(self, source: InputFile, report: RunReport, prompts: PromptLibrary):
        """`report` is the run's as the pipeline left it (`Redaction.report`): a text's
        spans in its `\\n` text, not in the file's line endings."""
        if report.status is Status.ERROR:
            raise ReviewError("a run that ended in ERROR has no output to review")
        self.source = source
        self.report = report
        self.prompts = prompts
        self.mode = source.document.mode
        self.labels = prompts.category_labels(report.category)
        self.edits: list[ReviewEdit] = []
        self.detections = list(report.detections)
        self._round = max(report.rounds, 1)
        self._context = StepContext(_NO_MODEL, prompts, PipelineOptions())

    # -- edits ---------------------------------------------------------------------------

    def toggle_element(self, index: int, label: str) -> ReviewEdit:
        """Image mode: remove the box on word `index`, or add one labelled `label`."""
        self._require(Mode.IMAGE)
        elements = self.source.document.elements
        if not 0 <= index < len(elements) or elements[index].box is None:
            raise ReviewError(f"there is no word {index} with a box on this page")
        present = [d for d in self.detections if d.index == index]
        if present:
            self.detections = [d for d in self.detections if d.index != index]
            return self._record(EditAction.REMOVE, present[0])
        added = Detection(
            label=self._label(label), source=Source.REVIEWER, round=self._round, index=index
        )
        self.detections.append(added)
        return self._record(EditAction.ADD, added)

    def add_span(self, start: int, end: int, label: str) -> ReviewEdit:
        """Text mode: redact the characters [start, end) (surrounding spaces trimmed). Like
        every text-mode value, it is redacted wherever else it occurs too."""
        self._require(Mode.TEXT)
        text = self.source.document.text
        if not 0 <= start < end <= len(text):
            raise ReviewError(f"the selection {start}..{end} lies outside the text")
        piece = text[start:end]
        start += len(piece) - len(piece.lstrip())
        end -= len(piece) - len(piece.rstrip())
        if start >= end:
            raise ReviewError("the selection holds only spaces")
        added = Detection(
            label=self._label(label),
            source=Source.REVIEWER,
            round=self._round,
            value=text[start:end],
            span=Span(start=start, end=end),
        )
        self.detections.append(added)
        return self._record(EditAction.ADD, added)

    def remove_span(self, start: int, end: int) -> list[ReviewEdit]:
        """Text mode: unredact what covers [start, end): each detection placed there goes
        (with every other place its value was redacted)."""
        self._require(Mode.TEXT)
        placed = locate_detections(self.source.document.text, self.detections)
        keys = {
            detection_key(detection)
            for span, detection in placed
            if span.start < end and start < span.end
        }
        if not keys:
            raise ReviewError("nothing is redacted there")
        removed = [d for d in self.detections if detection_key(d) in keys]
        self.detections = [d for d in self.detections if detection_key(d) not in keys]
        return [self._record(EditAction.REMOVE, detection) for detection in removed]

    def dismiss(self, position: int) -> ReviewEdit:
        """Drop the `position`-th value the pipeline could not place on the document (the
        reviewer has boxed it by hand, or judged it not to be there)."""
        unplaced = self.preview().redaction.not_located
        if not 0 <= position < len(unplaced):
            raise ReviewError(f"there is no unplaced value {position}")
        key = detection_key(unplaced[position])
        gone = [d for d in self.detections if detection_key(d) == key]
        self.detections = [d for d in self.detections if detection_key(d) != key]
        return self._record(EditAction.REMOVE, gone[0] if gone else unplaced[position])

    # -- results -------------------------------------------------------------------------

    def preview(self) -> ReviewPreview:
        """The redaction of the current detections, exactly as approval would write it."""
        document = self.source.document
        if self.mode is Mode.IMAGE:
            redaction: ImageRedaction | TextRedaction = redact_elements(
                document, self.detections, self._context, self._round
            )
        else:
            redaction = redact_text(
                document, self.detections, self._context, self._round, ask_model=False
            )
        report = self.report.model_copy(deep=True)
        report.detections = list(self.detections)
        report.not_located = list(redaction.not_located)
        report.review = Review(approved=True, edits=list(self.edits))
        return ReviewPreview(redaction=redaction, result=redaction_result(report, redaction))

    def approved(self) -> Redaction:
        """The reviewed output, in memory: the redacted file(s) and a report that records
        every edit (`review`); `Redaction.files_as_written` are the files `approve` writes."""
        return finish(self.source, self.preview().result)

    def approve(self, out_dir: Path) -> RedactOutcome:
        """Write the reviewed output (`approved`) with the CLI's writer."""
        return write(self.approved(), out_dir)

    # -- helpers -------------------------------------------------------------------------

    def _record(self, action: EditAction, detection: Detection) -> ReviewEdit:
        edit = ReviewEdit(action=action, detection=detection)
        self.edits.append(edit)
        return edit

    def _require(self, mode: Mode) -> None:
        if self.mode is not mode:
            raise ReviewError(f"this edit needs a {mode.value}-mode run; this is {self.mode}")

    def _label(self, label: str) -> str:
        label = label.strip().upper()
        if label not in self.labels or not PLACEHOLDER_PATTERN.fullmatch(f"[{label}_1]"):
            raise ReviewError(f"unknown label {label!r}; use one of {', '.join(self.labels)}")
        return label


_NO_MODEL = NoModelEngine("a review")
"""The review's engine: a model call during a review is an error."""
