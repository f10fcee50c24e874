"""Step 2 — Detect: the category's own prompt finds the identifiers, one line per item.

Image mode shows the elements as an indexed list, 150 per call, and reads `INDEX:LABEL`
lines; text mode shows the text, 150 words per call, and reads `LABEL: value` lines. Image
mode's text reading shows the page as text lines like text mode and maps each value back
onto the elements it covers (`page_text`); a value it cannot place stays a value-only
detection, which the redact step reports as not located. Each line is acted on as soon as
it is complete (the count on screen rises while the model talks). Lines that cannot be used
are dropped and recorded as parse errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from redacto.document import Category, Detection, Document, Mode, Source, Step
from redacto.engines import ReplyConstraint
from redacto.pipeline.chunking import chunk_elements, chunk_text, format_elements
from redacto.pipeline.constraint import ReplyShape
from redacto.pipeline.detections import (
    SaidInAnswer,
    detection_key,
    item_detections,
    rejected_as,
    trimmed_item,
)
from redacto.pipeline.kept_readable import KeptReadable
from redacto.pipeline.locator import Locator
from redacto.pipeline.page_text import PageText
from redacto.pipeline.parsing import (
    IndexItem,
    LineRejected,
    RejectReason,
    TextItem,
    parse_index_line,
    parse_text_line,
)
from redacto.pipeline.state import ImageReading, Phase, ProgressEvent, StepContext


@dataclass
class _Findings:
    """Detections of one detect step, as the lines arrive, with the running count."""

    context: StepContext
    category: Category
    seen: set[int | str]
    found: list[Detection] = field(default_factory=list)
    chunks: int | None = None
    said: SaidInAnswer = field(default_factory=SaidInAnswer)
    page: PageText | None = None
    """The page as text, when an image is read as text: where values are placed."""
    locator: Locator | None = None
    """Where `LABEL: value` answers are looked for (the text, or the page as text)."""
    words: tuple[str, ...] = ()
    """The elements' texts (image mode), to read what an `INDEX:LABEL` item names."""
    kept: KeptReadable | None = None
    """What the category keeps readable wherever it stands (`kept_readable`)."""

    def progress(self, phase: Phase, chunk: int | None = None, index: int | None = None) -> None:
        """A PROGRESS event names the element just detected (`index`), so its box can be
        drawn while the model is still talking."""
        self.context.emit(
            ProgressEvent(
                step=Step.DETECT,
                phase=phase,
                category=self.category,
                found=len(self.seen),
                chunk=chunk,
                chunks=self.chunks,
                index=index,
            )
        )

    def keep(
        self,
        item: IndexItem | TextItem | LineRejected | None,
        line: str,
        rejected: list[LineRejected],
    ) -> list[Detection]:
        """File one parsed line: the new detections it gave (in order), or a rejection."""
        if item is None:
            return []
        if isinstance(item, LineRejected):
            rejected.append(item)
            return []
        item = trimmed_item(item)
        if isinstance(item, TextItem) and self.invented(item.value):
            rejected.append(LineRejected(line, RejectReason.NOT_IN_DOCUMENT))
            return []
        reason = rejected_as(item, self.words, self.kept)
        if reason is not None:
            rejected.append(LineRejected(line, reason))
            return []
        fresh: list[Detection] = []
        said_before = False
        for detection in item_detections(item, Source.DETECT, 1, self.page):
            key = detection_key(detection)
            if key in self.seen:
                # Found by a rule or in an earlier chunk (a name recurs in a long text): no
                # fault of the model's. Said twice in one answer: a duplicate.
                said_before = said_before or self.said.said(key)
                continue
            self.seen.add(key)
            self.said.add(key)
            self.found.append(detection)
            fresh.append(detection)
        if said_before and not fresh:
            rejected.append(LineRejected(line, RejectReason.DUPLICATE))
        return fresh

    def invented(self, value: str) -> bool:
        """A value with no trace in the text (FINDINGS 2: mostly the prompt's own examples)
        cannot leak: it is dropped as noise, not kept as a detection that is not located.
        A near miss stays, and fails closed when the redact step cannot place it."""
        assert self.locator is not None
        return self.locator.locate(value) is None and not self.locator.near(value)


def detect(
    document: Document, category: Category, context: StepContext, already: list[Detection]
) -> list[Detection]:
    """Run the detector over the document; returns its detections (round 1, source detect).

    `already` (the rule hits) seeds the running count shown to the user; the model naming
    one of them again is not counted as an error.
    """
    findings = _Findings(context, category, {detection_key(d) for d in already})
    findings.words = tuple(element.text for element in document.elements)
    findings.kept = KeptReadable.of(document, category)
    if document.mode is Mode.IMAGE and context.options.image_reading is not ImageReading.TEXT:
        template = context.prompts.prompt(Step.DETECT, Mode.IMAGE, category)
        labels = frozenset(template.labels)
        calls = [
            _ChunkCall(
                chunk.number,
                template.render(elements=format_elements(chunk.elements, {})),
                # Indices outside the chunk are the model's error.
                partial(parse_index_line, labels=labels, index_range=chunk.index_range),
            )
            for chunk in chunk_elements(document.elements, context.options.chunk_size)
        ]
    else:
        # Text mode, or a page read as text: the same prompt, the same `LABEL: value` lines.
        text = document.text
        if document.mode is Mode.IMAGE:
            findings.page = PageText.of(document.elements)
            text = findings.page.text
        findings.locator = findings.page.locator if findings.page else Locator(text)
        template = context.prompts.prompt(Step.DETECT, Mode.TEXT, category)
        labels = frozenset(template.labels)
        calls = [
            _ChunkCall(
                text_chunk.number,
                template.render(document=text_chunk.of(text)),
                lambda line: parse_text_line(line, labels),
                # Answers limited to the words this call shows (where the manifest says so).
                context.constraint_for(
                    Step.DETECT, text_chunk.of(text), template.labels, ReplyShape.DETECT
                ),
            )
            for text_chunk in chunk_text(text, context.options.chunk_size)
        ]
    findings.chunks = len(calls)
    findings.progress(Phase.START, 0)
    for hit in already:
        # The rule hits are on screen first: a box appears for each before the model answers.
        if hit.index is not None:
            findings.progress(Phase.PROGRESS, 0, hit.index)
    for call in calls:
        _detect_chunk(call, findings)
    findings.progress(Phase.END, len(calls) - 1)
    return findings.found


@dataclass(frozen=True)
class _ChunkCall:
    """One chunk's detect call: its number, rendered (system, user) and line parser."""

    number: int
    prompt: tuple[str, str]
    parse: Callable[[str], IndexItem | TextItem | LineRejected | None]
    constraint: ReplyConstraint | None = None


def _detect_chunk(call: _ChunkCall, findings: _Findings) -> None:
    """One fresh call for one chunk; each completed line is kept or recorded as rejected."""
    rejected: list[LineRejected] = []
    findings.said.start()
    lines = 0

    def on_line(line: str) -> None:
        nonlocal lines
        item = call.parse(line)
        lines += item is not None
        for detection in findings.keep(item, line, rejected):
            findings.progress(Phase.PROGRESS, call.number, detection.index)

    system, user = call.prompt
    context = findings.context
    reply = context.call_lines(Step.DETECT, system, user, on_line, rejected, call.constraint)
    constrained = call.constraint is not None
    if lines and len(rejected) >= lines:
        # Nothing of the answer was usable: the model did not read this chunk.
        context.unread_chunks.append(call.number)
    context.record(Step.DETECT, reply, rejected, chunk=call.number, constrained=constrained)
