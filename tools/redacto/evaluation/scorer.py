"""Score one prediction against one gold document: counts, never rates.

The unit of scoring is the **word**: in text mode a whitespace-separated token of the
document text, in image mode a rendered `GoldWord` (the renderer draws the same tokens,
so both modes count the same things). Only letters and digits matter: punctuation next
to a name neither leaks nor protects it.

Decisions (see docs/evaluation.md):

- A word is **gold PII** when one of its letters or digits lies inside a gold PII span.
- Text mode: a PII word is **protected** when every one of its PII characters is hidden;
  a word is **touched** (counted as predicted) when any of its characters is hidden.
- Image mode: a PII word is protected when predicted boxes cover at least
  `PROTECTED_COVERAGE` (90 %) of its box area — a word with a visible tenth is still
  readable enough to count as a leak; a word is touched when boxes cover at least
  `TOUCHED_COVERAGE` (30 %) — a box edge grazing a neighbour is padding, not redaction.
- Token recall = protected PII words / PII words (so leak rate = 1 − recall); token
  precision = touched PII words / touched words. Entity recall: a gold span is found when
  all its words (image) or characters (text) are protected. Entity precision: a predicted
  span or box is correct when it hides part of a gold PII span.
- A preserve span is violated when any of its characters is hidden (text) or any of its
  words is touched (image).

Counts are additive, so per-category and per-label figures are sums over documents.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from redacto.corpus.schema import CorpusDocument, RenderedPage
from redacto.document import Box, Category, Frozen, Mode, Status
from redacto.evaluation.prediction import Prediction
from redacto.report import ReviewReason, StepTrace, Verdict

PROTECTED_COVERAGE = 0.9
TOUCHED_COVERAGE = 0.3
# Misses kept per kind and document for the report; counts are always complete.
MAX_MISSES_PER_KIND = 40

_WORD = re.compile(r"\S+")


class Tally(BaseModel):
    """Additive counts behind every rate in a summary."""

    model_config = ConfigDict(extra="forbid")

    pii_words: int = 0
    protected_words: int = 0
    touched_pii_words: int = 0
    other_words: int = 0
    over_redacted_words: int = 0
    image_other_words: int = 0
    """`other_words` on page images, where a box can spill onto a neighbour."""
    nicked_words: int = 0
    """Non-PII words on a page a box covers only in part, under the over-redaction
    threshold: a neighbour's letter or colon hidden by a box that spills over."""
    pii_entities: int = 0
    found_entities: int = 0
    predicted_entities: int = 0
    correct_predictions: int = 0
    preserve_spans: int = 0
    preserve_violations: int = 0
    pii_area: float = 0.0
    covered_pii_area: float = 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            **{name: getattr(self, name) + getattr(other, name) for name in type(self).model_fields}
        )


class LabelTally(BaseModel):
    """Counts for one label: recall by gold label, precision by predicted label."""

    model_config = ConfigDict(extra="forbid")

    words: int = 0
    protected_words: int = 0
    entities: int = 0
    found_entities: int = 0
    predicted: int = 0
    predicted_correct: int = 0

    def __add__(self, other: LabelTally) -> LabelTally:
        return LabelTally(
            **{name: getattr(self, name) + getattr(other, name) for name in type(self).model_fields}
        )


class Miss(Frozen):
    """One thing the report shows: a leaked PII word, an over-redacted word, a preserve hit."""

    kind: Literal["leak", "over_redaction", "preserve"]
    start: int
    end: int
    label: str
    word_index: int | None = None
    coverage: float | None = None


class DocumentScore(BaseModel):
    """Everything the summary needs about one document, so summaries never re-score."""

    model_config = ConfigDict(extra="forbid")

    document_id: str
    mode: Mode
    category: Category
    predicted_category: Category | None
    status: Status | None
    validator_verdict: Verdict | None = None
    """None in scores written before verdicts were recorded: their status stands in."""
    rounds: int
    review_reasons: list[ReviewReason] | None = None
    """None in scores written before review reasons were recorded."""
    tally: Tally
    labels: dict[str, LabelTally]
    misses: list[Miss]
    steps: list[StepTrace]
    parse_errors: int
    answer_lines: int | None = None
    """Detect and validate answer lines (items used + lines dropped); None in scores
    written before answers were kept, and for systems that give no answers."""
    invented_lines: int | None = None
    """Of those, the lines naming a value that is not in the document."""
    wall_ms: float
    error: str | None = None

    @property
    def leaked(self) -> bool:
        """True when at least one gold PII word stayed readable."""
        return self.tally.protected_words < self.tally.pii_words

    @property
    def validator_passed(self) -> bool:
        """The validator's last verdict was PASS (the status may still be NEEDS_REVIEW)."""
        if self.validator_verdict is not None:
            return self.validator_verdict is Verdict.PASS
        return self.status is Status.PASS

    @property
    def validator_left_nothing(self) -> bool | None:
        """The validator read as "name what is still readable": its last answer named
        nothing the pipeline could use (PASS, or a FAIL with no usable item). None: the
        score predates review reasons."""
        if self.review_reasons is None:
            return None
        return self.validator_passed or ReviewReason.NOTHING_USABLE in self.review_reasons


@dataclass(frozen=True)
class _Word:
    """A scoring unit: char range in the document text and, in image mode, its box."""

    index: int
    start: int
    end: int
    box: Box | None


class _Gold:
    """Per-character lookups of the gold spans for one document."""

    def __init__(self, document: CorpusDocument) -> None:
        size = len(document.text)
        self.text = document.text
        self.entity_at: list[int | None] = [None] * size
        self.preserve_at: list[int | None] = [None] * size
        for number, span in enumerate(document.pii):
            for position in range(span.start, span.end):
                self.entity_at[position] = number
        for number, kept in enumerate(document.preserve):
            for position in range(kept.start, kept.end):
                self.preserve_at[position] = number
        self.labels = [span.label for span in document.pii]

    def alnum(self, start: int, end: int) -> Iterator[int]:
        return (i for i in range(start, end) if self.text[i].isalnum())

    def pii_chars(self, word: _Word) -> list[int]:
        return [i for i in self.alnum(word.start, word.end) if self.entity_at[i] is not None]

    def label_of(self, word: _Word) -> str | None:
        counts: dict[str, int] = {}
        for position in self.pii_chars(word):
            entity = self.entity_at[position]
            assert entity is not None
            counts[self.labels[entity]] = counts.get(self.labels[entity], 0) + 1
        return max(counts, key=lambda label: counts[label]) if counts else None


def score_document(
    document: CorpusDocument, prediction: Prediction, page: RenderedPage | None = None
) -> DocumentScore:
    """Score `prediction` against `document`; image mode needs the rendered `page`."""
    gold = _Gold(document)
    if prediction.mode is Mode.IMAGE:
        if page is None:
            raise ValueError("image-mode scoring needs the rendered page")
        words = [_Word(w.index, w.start, w.end, w.box) for w in page.words]
        coverage = _box_coverage(words, prediction, page)
    else:
        words = [
            _Word(n, m.start(), m.end(), None) for n, m in enumerate(_WORD.finditer(document.text))
        ]
        hidden = _hidden_characters(len(document.text), prediction)
        coverage = [_text_coverage(word, gold, hidden) for word in words]

    tally = Tally()
    labels: dict[str, LabelTally] = {}
    misses: list[Miss] = []
    protected: dict[int, bool] = {}
    touched: dict[int, bool] = {}
    for word, (pii_fraction, any_fraction) in zip(words, coverage, strict=True):
        if not any(True for _ in gold.alnum(word.start, word.end)):
            continue
        is_protected, is_touched = _judge(prediction.mode, pii_fraction, any_fraction)
        protected[word.index], touched[word.index] = is_protected, is_touched
        label = gold.label_of(word)
        if label is None:
            tally.other_words += 1
            if prediction.mode is Mode.IMAGE:
                tally.image_other_words += 1
            if is_touched:
                tally.over_redacted_words += 1
                misses.append(_miss("over_redaction", word, "", any_fraction))
            elif prediction.mode is Mode.IMAGE and any_fraction > 0.0:
                tally.nicked_words += 1
            continue
        tally.pii_words += 1
        counts = labels.setdefault(label, LabelTally())
        counts.words += 1
        if is_protected:
            tally.protected_words += 1
            counts.protected_words += 1
        else:
            misses.append(_miss("leak", word, label, any_fraction))
        if is_touched:
            tally.touched_pii_words += 1
        if word.box is not None:
            tally.pii_area += word.box.area
            tally.covered_pii_area += word.box.area * any_fraction

    _score_entities(document, prediction, gold, words, protected, tally, labels)
    _score_predictions(prediction, gold, words, page, tally, labels)
    misses += _preserve_violations(document, prediction, gold, words, touched, tally)
    return DocumentScore(
        document_id=document.id,
        mode=prediction.mode,
        category=document.category,
        predicted_category=prediction.category,
        status=prediction.status,
        validator_verdict=prediction.validator_verdict,
        rounds=prediction.rounds,
        review_reasons=list(prediction.review_reasons),
        tally=tally,
        labels=labels,
        misses=_capped(misses),
        steps=list(prediction.steps),
        parse_errors=prediction.parse_errors,
        answer_lines=prediction.answer_lines if prediction.steps else None,
        invented_lines=prediction.invented_lines if prediction.steps else None,
        wall_ms=prediction.wall_ms,
        error=prediction.error,
    )


def _judge(mode: Mode, pii_fraction: float, any_fraction: float) -> tuple[bool, bool]:
    if mode is Mode.TEXT:
        return pii_fraction >= 1.0, any_fraction > 0.0
    return any_fraction >= PROTECTED_COVERAGE, any_fraction >= TOUCHED_COVERAGE


def _miss(kind: Literal["leak", "over_redaction"], word: _Word, label: str, cover: float) -> Miss:
    index = word.index if word.box is not None else None
    return Miss(
        kind=kind,
        start=word.start,
        end=word.end,
        label=label,
        word_index=index,
        coverage=round(cover, 3),
    )


def _capped(misses: list[Miss]) -> list[Miss]:
    kept: list[Miss] = []
    per_kind: dict[str, int] = {}
    for miss in misses:
        per_kind[miss.kind] = per_kind.get(miss.kind, 0) + 1
        if per_kind[miss.kind] <= MAX_MISSES_PER_KIND:
            kept.append(miss)
    return kept


def _hidden_characters(size: int, prediction: Prediction) -> list[bool]:
    hidden = [False] * size
    for span in prediction.spans:
        for position in range(min(span.start, size), min(span.end, size)):
            hidden[position] = True
    return hidden


def _text_coverage(word: _Word, gold: _Gold, hidden: list[bool]) -> tuple[float, float]:
    """(fraction of the word's PII characters hidden, fraction of all its alnum hidden)."""
    alnum = list(gold.alnum(word.start, word.end))
    pii = [i for i in alnum if gold.entity_at[i] is not None]
    pii_fraction = sum(hidden[i] for i in pii) / len(pii) if pii else 0.0
    any_fraction = sum(hidden[i] for i in alnum) / len(alnum) if alnum else 0.0
    # A text word counts as touched as soon as any character of it is hidden.
    return pii_fraction, 1.0 if any_fraction > 0 else 0.0


def _box_mask(prediction: Prediction, page: RenderedPage) -> np.ndarray:
    mask = np.zeros((page.height, page.width), dtype=bool)
    for predicted in prediction.boxes:
        x0, y0, x1, y1 = _pixel_range(predicted.box, page)
        mask[y0:y1, x0:x1] = True
    return mask


def _pixel_range(box: Box, page: RenderedPage) -> tuple[int, int, int, int]:
    x0 = min(max(math.floor(box.x0), 0), page.width)
    y0 = min(max(math.floor(box.y0), 0), page.height)
    x1 = min(max(math.ceil(box.x1), 0), page.width)
    y1 = min(max(math.ceil(box.y1), 0), page.height)
    return x0, y0, x1, y1


def _box_coverage(
    words: Sequence[_Word], prediction: Prediction, page: RenderedPage
) -> list[tuple[float, float]]:
    """Per word, the fraction of its pixels under a predicted box (once for both values)."""
    mask = _box_mask(prediction, page)
    result: list[tuple[float, float]] = []
    for word in words:
        assert word.box is not None
        x0, y0, x1, y1 = _pixel_range(word.box, page)
        region = mask[y0:y1, x0:x1]
        fraction = float(region.mean()) if region.size else 0.0
        result.append((fraction, fraction))
    return result


def _words_of_span(words: Sequence[_Word], gold: _Gold, start: int, end: int) -> list[_Word]:
    return [
        word
        for word in words
        if word.start < end
        and start < word.end
        and any(True for _ in gold.alnum(max(word.start, start), min(word.end, end)))
    ]


def _score_entities(
    document: CorpusDocument,
    prediction: Prediction,
    gold: _Gold,
    words: Sequence[_Word],
    protected: dict[int, bool],
    tally: Tally,
    labels: dict[str, LabelTally],
) -> None:
    hidden = _hidden_characters(len(document.text), prediction)
    for span in document.pii:
        if prediction.mode is Mode.TEXT:
            characters = list(gold.alnum(span.start, span.end))
            if not characters:
                continue
            found = all(hidden[i] for i in characters)
        else:
            covering = _words_of_span(words, gold, span.start, span.end)
            if not covering:
                continue  # the renderer did not draw this span: nothing to see or hide
            found = all(protected.get(word.index, False) for word in covering)
        counts = labels.setdefault(span.label, LabelTally())
        tally.pii_entities += 1
        counts.entities += 1
        if found:
            tally.found_entities += 1
            counts.found_entities += 1


def _score_predictions(
    prediction: Prediction,
    gold: _Gold,
    words: Sequence[_Word],
    page: RenderedPage | None,
    tally: Tally,
    labels: dict[str, LabelTally],
) -> None:
    """Entity precision: does each predicted span or box hide part of a gold PII span?"""
    for hit_labels, label in _predicted_hits(prediction, gold, words, page):
        if hit_labels is None:
            continue  # hides no letter or digit at all: neither right nor wrong
        tally.predicted_entities += 1
        if hit_labels:
            tally.correct_predictions += 1
        if label is not None:
            counts = labels.setdefault(label, LabelTally())
            counts.predicted += 1
            if label in hit_labels:
                counts.predicted_correct += 1


def _predicted_hits(
    prediction: Prediction, gold: _Gold, words: Sequence[_Word], page: RenderedPage | None
) -> Iterator[tuple[set[str] | None, str | None]]:
    """For each prediction: gold labels it hides (None if it hides no alnum), its label."""
    if prediction.mode is Mode.TEXT:
        for span in prediction.spans:
            end = min(span.end, len(gold.text))
            characters = list(gold.alnum(min(span.start, end), end))
            if not characters:
                yield None, span.label
                continue
            entities = {gold.entity_at[i] for i in characters} - {None}
            yield {gold.labels[e] for e in entities if e is not None}, span.label
        return
    assert page is not None
    for predicted in prediction.boxes:
        hit: set[str] = set()
        hides_any = False
        for word in words:
            assert word.box is not None
            if _overlap_fraction(word.box, predicted.box) < TOUCHED_COVERAGE:
                continue
            hides_any = True
            label = gold.label_of(word)
            if label is not None:
                hit.add(label)
        # A box over blank paper hides nothing but is still a wrong prediction.
        yield hit if hides_any else set(), predicted.label


def _overlap_fraction(word: Box, box: Box) -> float:
    width = min(word.x1, box.x1) - max(word.x0, box.x0)
    height = min(word.y1, box.y1) - max(word.y0, box.y0)
    if width <= 0 or height <= 0 or word.area <= 0:
        return 0.0
    return width * height / word.area


def _preserve_violations(
    document: CorpusDocument,
    prediction: Prediction,
    gold: _Gold,
    words: Sequence[_Word],
    touched: dict[int, bool],
    tally: Tally,
) -> list[Miss]:
    hidden = _hidden_characters(len(document.text), prediction)
    misses: list[Miss] = []
    for span in document.preserve:
        if prediction.mode is Mode.TEXT:
            violated = any(hidden[i] for i in gold.alnum(span.start, span.end))
        else:
            covering = _words_of_span(words, gold, span.start, span.end)
            if not covering:
                continue
            violated = any(touched.get(word.index, False) for word in covering)
        tally.preserve_spans += 1
        if violated:
            tally.preserve_violations += 1
            misses.append(Miss(kind="preserve", start=span.start, end=span.end, label=span.kind))
    return misses
