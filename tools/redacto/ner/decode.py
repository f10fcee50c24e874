"""From the classifier's per-token output to labelled words: pure, so Kotlin can match it.

A text is tokenized once (WordPiece, no special tokens); the tokens are read in windows of
at most `window_tokens` with `overlap_tokens` shared between neighbours, each window wrapped
as `[CLS] … [SEP]`. A token seen by two windows takes the reading of the window where it
has more context on its shorter side (`best_window`), so a name cut by a window edge is read
where the sentence around it is whole.

A token is a *hit* when its most probable label is not `O` and that probability reaches the
threshold (0.5). Decisions are **by word**: a word is a maximal run of non-space characters
(`str.isspace`) with its leading and trailing punctuation (Unicode category P*) trimmed, and
any hit token overlapping it puts the whole word under that hit's label, so `##l` of
`Morel` hides `Morel`. Neighbouring hit words with the same pipeline label and only
whitespace between them form one span (`Jean Morel`, `12 rue des Lilas`). Offsets count
code points, as everywhere in the pipeline.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

THRESHOLD = 0.5
"""The probability a token's best label must reach to count (FINDINGS 5 measured Rampart at
this threshold: precision 0.99, recall 0.68 on the third-party texts)."""

OUTSIDE = "O"


@dataclass(frozen=True, slots=True)
class Token:
    """One WordPiece token of the text: its id and its [start, end) in code points."""

    id: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Window:
    """Tokens [start, end) of the text, read in one model call."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class TokenReading:
    """What the model said about one token: its best label and that label's probability."""

    label: str
    score: float

    def entity(self, threshold: float = THRESHOLD) -> str | None:
        """The entity type (`GIVEN_NAME`) when this is a hit, else None."""
        if self.label == OUTSIDE or self.score < threshold:
            return None
        return self.label.split("-", 1)[1] if self.label[:2] in ("B-", "I-") else self.label


@dataclass(frozen=True, slots=True)
class Word:
    """A word's core: [start, end) in code points, punctuation trimmed."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class WordHit:
    """A word under a label (the pipeline's), with the entity and score that decided it."""

    start: int
    end: int
    label: str
    entity: str
    score: float


@dataclass(frozen=True, slots=True)
class SpanHit:
    """Neighbouring hit words of one label joined: what becomes a detection."""

    start: int
    end: int
    label: str
    entities: tuple[str, ...]
    """The entity of each word, in order (a span of cities alone is no address)."""


def plan_windows(
    word_ids: Sequence[int | None], window_tokens: int, overlap_tokens: int
) -> list[Window]:
    """Cover every token with windows of at most `window_tokens`, neighbours sharing about
    `overlap_tokens`; a window after the first starts at the beginning of a tokenizer word
    where it can, so it never opens on a `##` continuation."""
    if not 0 <= overlap_tokens < window_tokens:
        raise ValueError("overlap must be at least 0 and smaller than the window")
    count = len(word_ids)
    windows: list[Window] = []
    start = 0
    while start < count:
        end = min(start + window_tokens, count)
        windows.append(Window(start, end))
        if end == count:
            break
        next_start = end - overlap_tokens
        while next_start - 1 > start and word_ids[next_start] == word_ids[next_start - 1]:
            next_start -= 1
        start = next_start
    return windows


def best_window(position: int, windows: Sequence[Window]) -> int:
    """The window (its number) that reads token `position` with the most context on its
    shorter side; the first such window on a tie."""
    best, best_margin = -1, -1
    for number, window in enumerate(windows):
        if not window.start <= position < window.end:
            continue
        margin = min(position - window.start, window.end - 1 - position)
        if margin > best_margin:
            best, best_margin = number, margin
    if best < 0:
        raise ValueError(f"token {position} lies in no window")
    return best


def softmax_best(logits: Sequence[float]) -> tuple[int, float]:
    """The best label id and its softmax probability (first on a tie)."""
    top = max(logits)
    total = sum(math.exp(value - top) for value in logits)
    best = max(range(len(logits)), key=lambda i: (logits[i], -i))
    return best, 1.0 / total


def words_of(text: str) -> list[Word]:
    """Every word core of `text`, in order (a run of punctuation alone is no word)."""
    words: list[Word] = []
    position, length = 0, len(text)
    while position < length:
        if text[position].isspace():
            position += 1
            continue
        start = position
        while position < length and not text[position].isspace():
            position += 1
        core_start, core_end = start, position
        while core_start < core_end and _is_punctuation(text[core_start]):
            core_start += 1
        while core_end > core_start and _is_punctuation(text[core_end - 1]):
            core_end -= 1
        if core_start < core_end:
            words.append(Word(core_start, core_end))
    return words


def _is_punctuation(character: str) -> bool:
    return unicodedata.category(character).startswith("P")


def word_hits(
    text: str,
    tokens: Sequence[Token],
    readings: Sequence[TokenReading],
    to_label: Callable[[str], str | None],
    threshold: float = THRESHOLD,
) -> list[WordHit]:
    """Each word that a hit token overlaps, under the pipeline label of its most probable
    hit (`to_label` maps an entity to the pipeline's label, None to drop it)."""
    words = words_of(text)
    best: dict[int, WordHit] = {}
    word_number = 0
    for token, reading in zip(tokens, readings, strict=True):
        entity = reading.entity(threshold)
        if entity is None or token.end <= token.start:
            continue
        label = to_label(entity)
        if label is None:
            continue
        while word_number < len(words) and words[word_number].end <= token.start:
            word_number += 1
        number = word_number
        while number < len(words) and words[number].start < token.end:
            word = words[number]
            held = best.get(number)
            if held is None or reading.score > held.score:
                best[number] = WordHit(word.start, word.end, label, entity, reading.score)
            number += 1
    return [best[number] for number in sorted(best)]


def join_hits(
    text: str, hits: Sequence[WordHit], comma_joins: frozenset[str] = frozenset()
) -> list[SpanHit]:
    """Neighbouring word hits of one label with only whitespace between them, as spans;
    for a label in `comma_joins` also across one comma (`12 rue des Lilas, 69003 Lyon`)."""
    spans: list[SpanHit] = []
    for hit in hits:
        if spans:
            last = spans[-1]
            between = text[last.end : hit.start]
            joins = between.isspace() or (
                last.label in comma_joins and between.strip() == "," and between[0] == ","
            )
            if last.label == hit.label and joins:
                spans[-1] = SpanHit(last.start, hit.end, last.label, (*last.entities, hit.entity))
                continue
        spans.append(SpanHit(hit.start, hit.end, hit.label, (hit.entity,)))
    return spans
