"""Step 3 — Redact: replace every detection with its `[LABEL_N]` placeholder.

Image mode is deterministic and lossless: a detected index is its element's box, and the
redacted element list shows the placeholder instead of the word. Text mode asks the model
to rewrite the text with placeholders (it copes with OCR noise and its own "corrections"),
then trusts only what it can check: the answer must be the original text with some pieces
replaced, each replaced piece must be one of the detections. The locator's spans are always
added, so a model that misses something cannot unredact it. A detection that neither finds
is "not located": reported, and the run fails closed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import pairwise

from redacto.document import Box, Detection, Document, Element, Mode, Span, Step
from redacto.engines import Decoding
from redacto.pipeline.chunking import CHUNK_SIZE, TextChunk, chunk_text
from redacto.pipeline.detections import detection_key
from redacto.pipeline.locator import Locator, edit_distance, fuzzy_budget, is_numeric, skeleton
from redacto.pipeline.parsing import PLACEHOLDER_PATTERN
from redacto.pipeline.placeholders import PlaceholderBook
from redacto.pipeline.state import Phase, PipelineResult, ProgressEvent, StepContext
from redacto.report import RunReport

MIN_SHARED_RUN = 5
_UNFINISHED_PLACEHOLDER = re.compile(r"\[[A-Z0-9_]*$")


@dataclass(frozen=True)
class ImageRedaction:
    """Placeholders shown per detected index, and the boxes to burn (one per index)."""

    shown: dict[int, str]
    boxes: tuple[Box, ...]
    elements: tuple[Element, ...]
    not_located: tuple[Detection, ...]

    @property
    def text(self) -> str:
        return " ".join(element.text for element in self.elements)


@dataclass(frozen=True)
class Replacement:
    """One span of the original text and the placeholder that replaces it."""

    span: Span
    placeholder: str
    detection: Detection


@dataclass(frozen=True)
class TextRedaction:
    """The redacted text, what was replaced, and whether the model's answer was used as-is."""

    text: str
    replacements: tuple[Replacement, ...]
    not_located: tuple[Detection, ...]
    model_answer_accepted: bool
    model_pieces: tuple[tuple[Span, Detection], ...] = ()


def redaction_result(
    report: RunReport, redaction: ImageRedaction | TextRedaction
) -> PipelineResult:
    """The result a redaction gives: `report` counts what it shows (and holds its boxes, in
    image mode), beside the redacted output. Shared by the run and a person's review."""
    if isinstance(redaction, ImageRedaction):
        report.boxes = list(redaction.boxes)
        report.count_shown = len(redaction.boxes)
        return PipelineResult(
            report=report,
            redacted_text=redaction.text,
            redacted_elements=redaction.elements,
            boxes=redaction.boxes,
        )
    report.count_shown = len(redaction.replacements)
    return PipelineResult(report=report, redacted_text=redaction.text)


def redact_elements(
    document: Document, detections: list[Detection], context: StepContext, round_number: int
) -> ImageRedaction:
    """Map each detected index to its box and placeholder (numbered in reading order).

    A detection with no index (a value the text reading could not place on the page) and
    one whose element has no box are not located: reported, and the run fails closed.
    """
    context.emit(ProgressEvent(step=Step.REDACT, phase=Phase.START, round=round_number))
    by_index = {d.index: d for d in detections if d.index is not None}
    book = PlaceholderBook()
    shown: dict[int, str] = {}
    boxes: list[Box] = []
    not_located = [d for d in detections if d.index is None]
    for index in sorted(by_index):
        element = document.elements[index]
        shown[index] = book.assign(by_index[index].label, element.text)
        if element.box is None:
            not_located.append(by_index[index])
        else:
            boxes.append(element.box)
    elements = tuple(
        element.model_copy(update={"text": shown[element.index]})
        if element.index in shown
        else element
        for element in document.elements
    )
    context.emit(
        ProgressEvent(step=Step.REDACT, phase=Phase.END, round=round_number, found=len(boxes))
    )
    return ImageRedaction(shown, tuple(boxes), elements, tuple(not_located))


def redact_text(
    document: Document,
    detections: list[Detection],
    context: StepContext,
    round_number: int,
    *,
    ask_model: bool = True,
    earlier_pieces: tuple[tuple[Span, Detection], ...] = (),
) -> TextRedaction:
    """Redact text-mode detections: the model's checked answer plus the locator's spans.

    The model is asked per 150-word chunk (`chunk_text`), and only for a chunk where a
    detection is located, with only those detections listed; a detection located nowhere is
    listed for every chunk, since the model may still find what the locator cannot.
    `earlier_pieces` are spans a checked model answer of an earlier round tied to a
    detection; they stay redacted even if this round's answer is unusable.
    """
    context.emit(ProgressEvent(step=Step.REDACT, phase=Phase.START, round=round_number))
    text = document.text
    found = [*earlier_pieces, *locate_detections(text, detections)]
    accepted = False
    pieces: list[tuple[Span, Detection]] = []
    if ask_model and detections:
        accepted = True
        listings = chunk_listings(text, detections, found, context.options.chunk_size)
        for chunk, listed in listings:
            chunk_pieces = _ask_chunk(chunk, text, listed, context, round_number)
            if chunk_pieces is None:
                accepted = False
                continue
            pieces.extend(chunk_pieces)
            covered = {detection_key(detection) for _, detection in chunk_pieces}
            accepted = accepted and all(detection_key(d) in covered for d in listed)
    found.extend(pieces)
    replacements = _number(_merge(found))
    covered_keys = {detection_key(detection) for _, detection in found}
    not_located = tuple(d for d in detections if detection_key(d) not in covered_keys)
    redacted = apply_replacements(text, replacements)
    context.emit(
        ProgressEvent(
            step=Step.REDACT, phase=Phase.END, round=round_number, found=len(replacements)
        )
    )
    return TextRedaction(
        redacted, tuple(replacements), not_located, accepted, (*earlier_pieces, *pieces)
    )


def locate_detections(text: str, detections: list[Detection]) -> list[tuple[Span, Detection]]:
    """Every span the locator (or a detection's own span) places a detection at."""
    found: list[tuple[Span, Detection]] = []
    locator = Locator(text)
    for detection in detections:
        if detection.span is not None:
            found.append((detection.span, detection))
        located = locator.locate(detection.value or "")
        if located is not None:
            found.extend((span, detection) for span in located.spans)
    return found


def chunk_listings(
    text: str,
    detections: list[Detection],
    found: list[tuple[Span, Detection]],
    size: int = CHUNK_SIZE,
) -> list[tuple[TextChunk, list[Detection]]]:
    """The chunks the redact step asks about, each with its detections (in list order).

    A chunk is asked about when a detection is placed in it (`found`); a detection placed
    nowhere is listed for every chunk. A text of one chunk lists every detection.
    """
    placed = {detection_key(detection) for _, detection in found}
    listings: list[tuple[TextChunk, list[Detection]]] = []
    for chunk in chunk_text(text, size):
        here = {
            detection_key(detection)
            for span, detection in found
            if chunk.overlaps(span.start, span.end)
        }
        listed = [
            d for d in detections if detection_key(d) in here or detection_key(d) not in placed
        ]
        if listed:
            listings.append((chunk, listed))
    return listings


def redact_listing(detections: list[Detection]) -> str:
    """The redact prompt's `LABEL: value` list.

    One line per distinct item: the prompt numbers placeholders in list order.
    """
    return "\n".join(dict.fromkeys(f"{d.label}: {d.value}" for d in detections))


def _ask_chunk(
    chunk: TextChunk,
    text: str,
    listed: list[Detection],
    context: StepContext,
    round_number: int,
) -> list[tuple[Span, Detection]] | None:
    """One fresh redact call for one chunk; its checked pieces in whole-text coordinates."""
    part = chunk.of(text)
    template = context.prompts.prompt(Step.REDACT, Mode.TEXT)
    system, user = template.render(document=part, detections=redact_listing(listed))
    watch = _AnswerWatch(part)
    reply = context.call(Step.REDACT, system, user, on_text=watch.feed)
    context.record(Step.REDACT, reply, [], round_number, chunk.number)
    pieces = align_answer(part, reply.text, listed)
    if pieces is None:
        return None
    shift = chunk.start
    return [
        (Span(start=span.start + shift, end=span.end + shift), detection)
        for span, detection in pieces
    ]


def align_answer(
    original: str, answer: str, detections: list[Detection]
) -> list[tuple[Span, Detection]] | None:
    """Read the model's redacted text back as spans of the original, or None if rewritten.

    The answer must be the original (surrounding whitespace aside) with some pieces replaced
    by placeholders; each replaced piece must match one detection's value. Any other change
    — a fixed typo, a dropped sentence, a redacted diagnosis — rejects the whole answer.
    """
    answer = answer.strip()
    offset = len(original) - len(original.lstrip())
    body = original.strip()
    parts = PLACEHOLDER_PATTERN.split(answer)
    # split() yields literal, label, number, literal, label, number, ..., literal
    literals = parts[0::3]
    labels = parts[1::3]
    if not labels:
        return [] if answer == body else None
    starts = _literal_starts(body, literals[:-1])
    if starts is None:
        return None
    final_start = len(body) - len(literals[-1])
    if not body.endswith(literals[-1]) or final_start <= starts[-1] + len(literals[-2]):
        return None
    starts.append(final_start)
    pieces: list[tuple[Span, Detection]] = []
    for number, label in enumerate(labels):
        gap_from = starts[number] + len(literals[number])
        gap = body[gap_from : starts[number + 1]]
        gap_start = gap_from + len(gap) - len(gap.lstrip())
        gap_end = gap_from + len(gap.rstrip())
        owner = _owner(body[gap_start:gap_end], label, detections)
        if owner is None:
            return None
        pieces.append((Span(start=offset + gap_start, end=offset + gap_end), owner))
    return pieces


def answer_may_align(original: str, partial: str) -> bool:
    """False once a partial answer can no longer become one `align_answer` accepts.

    Only conditions every accepted answer meets are checked, so an answer that would be
    accepted is never cut short; one that rewrites the text is stopped where it departs
    from the original instead of running to its output budget.
    """
    body = original.strip()
    answer = partial.lstrip()
    unfinished = _UNFINISHED_PLACEHOLDER.search(answer)
    if unfinished is not None:
        answer = answer[: unfinished.start()]
    *complete, last = PLACEHOLDER_PATTERN.split(answer)[0::3]
    last = last.rstrip()
    if not complete:
        return body.startswith(last)
    starts = _literal_starts(body, complete)
    if starts is None:
        return False
    return not last or body.find(last, starts[-1] + len(complete[-1]) + 1) != -1


def _literal_starts(body: str, literals: list[str]) -> list[int] | None:
    """Where each literal of an answer starts in `body`, read left to right; None if one can't.

    The first literal must open `body`. Each later one is the text between two placeholders:
    it must not be empty (the split between back-to-back placeholders is unknown) and must
    start at least one character after the one before ends, the character a placeholder hides.
    """
    if not body.startswith(literals[0]):
        return None
    starts = [0]
    for previous, literal in pairwise(literals):
        start = body.find(literal, starts[-1] + len(previous) + 1) if literal else -1
        if start == -1:
            return None
        starts.append(start)
    return starts


@dataclass
class _AnswerWatch:
    """Stops the redact answer as soon as it can no longer be accepted."""

    original: str
    pieces: list[str] = field(default_factory=list)

    def feed(self, piece: str) -> Decoding:
        self.pieces.append(piece)
        if answer_may_align(self.original, "".join(self.pieces)):
            return Decoding.CONTINUE
        return Decoding.STOP


def _owner(piece: str, label: str, detections: list[Detection]) -> Detection | None:
    """The detection a replaced piece stands for, preferring one with the same label."""
    matching = [d for d in detections if values_match(piece, d.value or "")]
    candidates = [d for d in matching if d.label == label] or matching
    return candidates[0] if candidates else None


def values_match(piece: str, value: str) -> bool:
    """Could OCR noise or a model "correction" turn one into the other?

    Same letters and digits; or few edits (a third of the length, one for mostly-digit
    values); or, for words, a shared run of at least 5 letters/digits that is half the
    shorter one, within at most one extra word — never a whole sentence for one name.
    """
    a, b = skeleton(piece), skeleton(value)
    if not a or not b:
        return piece.strip() == value.strip() and bool(piece.strip())
    if a == b:
        return True
    budget = fuzzy_budget(b)
    if abs(len(a) - len(b)) <= budget and edit_distance(a, b) <= budget:
        return True
    if is_numeric(a) or is_numeric(b) or len(piece.split()) > len(value.split()) + 1:
        return False
    return _longest_shared_run(a, b) >= max(MIN_SHARED_RUN, (min(len(a), len(b)) + 1) // 2)


def _longest_shared_run(a: str, b: str) -> int:
    """The length of the longest run of characters both strings hold."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.find_longest_match(0, len(a), 0, len(b)).size


def _merge(found: list[tuple[Span, Detection]]) -> list[tuple[Span, Detection]]:
    """Disjoint spans in reading order; overlapping ones merge, the longest finder names it."""
    merged: list[tuple[Span, Detection, int]] = []
    for span, detection in sorted(found, key=lambda item: (item[0].start, -item[0].end)):
        if span.end <= span.start:
            continue
        if merged and span.start < merged[-1][0].end:
            last_span, owner, owner_length = merged[-1]
            if span.end - span.start > owner_length:
                owner, owner_length = detection, span.end - span.start
            end = max(last_span.end, span.end)
            merged[-1] = (Span(start=last_span.start, end=end), owner, owner_length)
        else:
            merged.append((span, detection, span.end - span.start))
    return [(span, owner) for span, owner, _ in merged]


def _number(spans: list[tuple[Span, Detection]]) -> list[Replacement]:
    book = PlaceholderBook()
    return [
        Replacement(span, book.assign(detection.label, detection.value or ""), detection)
        for span, detection in spans
    ]


def apply_replacements(
    text: str, replacements: Sequence[Replacement], start: int = 0, end: int | None = None
) -> str:
    """`text[start:end]` with its (sorted, disjoint) replacements applied; one crossing the
    range's edge is cut there, its placeholder kept."""
    end = len(text) if end is None else end
    pieces: list[str] = []
    position = start
    for replacement in replacements:
        cut_start, cut_end = max(replacement.span.start, start), min(replacement.span.end, end)
        if cut_start >= cut_end:
            continue
        pieces.extend((text[position:cut_start], replacement.placeholder))
        position = cut_end
    pieces.append(text[position:end])
    return "".join(pieces)
