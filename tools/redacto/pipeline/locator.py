"""Find where a detected value sits in the original text, despite OCR noise.

The model reports values as it read them ("inquire@blucurrent.mail"); the text holds what
OCR read ("inquire@blucurrent. mail"). The locator tries four levels, strictest first, and
stops at the first that finds something:

1. exact — the value verbatim, on word boundaries (every normalized occurrence is then
   added as well, so "JANE SMITH" goes with "Jane Smith");
2. normalized — the same letters and digits ignoring case, quotes, punctuation and
   whitespace, on word boundaries, every occurrence; then, for a value with a digit, the
   same with the letter O read as the digit 0 on both sides (OCR's commonest slip in
   numbers, "MRN 44O7O29"), every occurrence;
3. unique occurrence — one approximate occurrence (edit distance up to a third of the
   length, one for mostly-digit values; values of 4+ letters/digits); two or more
   candidates are ambiguous and rejected;
4. substring — the longest common run of at least 5 letters/digits (and at least half the
   value; all of it for mostly-digit values), widened to its whole whitespace-delimited
   token ("MRN4471829", "inquire@blucurrent."), every occurrence;
5. words — each word of the value made of `MIN_WORD_LENGTH` or more letters (no digits),
   on word boundaries, every occurrence: a near miss the model named around a real name
   ("Mrs. Lisa" for "Mrs. Marlowe … daughter Lisa") still hides the name.

Anything else is "not located" (`None`). `near` then tells a near miss — a word of the
value is in the text, or approximate occurrences are too many to choose from — which could
be a real value the text spells otherwise (the caller fails closed on it), from a value with
no trace in the text at all, which is the model's invention and cannot leak.

A proofreading mistake (`redacto proofread`) is placed by `locate_mistake` with four
strategies of its own over the same texts, strictest first, each accepted only when it
finds exactly one place in the document (a mistake is one place; two candidates are never
guessed between):

1. context — the error verbatim, on word boundaries, right after its `context_before`
   verbatim (whitespace between them free);
2. context, normalised — the same in the skeleton: case, typographic quotes, punctuation and
   whitespace ignored (`l'entreprise` for `l’entreprise`, `d'une` for `d’ une`);
3. error once — the error alone, verbatim or normalised, on word boundaries (a two-column
   page whose context the model took from the other column);
4. joined substring — the error's skeleton, 5 letters/digits or more, inside the page's
   joined normalised words, word boundaries ignored (a stem of a word, or words OCR glued).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from redacto.document import Span

MIN_FUZZY_LENGTH = 4
MIN_SUBSTRING_LENGTH = 5
MAX_FUZZY_LENGTH = 64
MIN_WORD_LENGTH = 4
"""The words level places a value's words of this many letters or more (shorter ones are
titles and particles: "Dr", "Mrs", "van")."""
MIN_TRACE_LENGTH = 3
"""A word of a value this long (letters and digits) found in the text makes it a near miss."""


class LocateMethod(StrEnum):
    EXACT = "exact"
    NORMALIZED = "normalized"
    O_AS_ZERO = "o_as_zero"
    UNIQUE = "unique"
    SUBSTRING = "substring"
    WORDS = "words"
    CONTEXT = "context"
    CONTEXT_NORMALIZED = "context_normalized"
    ERROR_ONCE = "error_once"
    JOINED_SUBSTRING = "joined_substring"


MISTAKE_METHODS = (
    LocateMethod.CONTEXT,
    LocateMethod.CONTEXT_NORMALIZED,
    LocateMethod.ERROR_ONCE,
    LocateMethod.JOINED_SUBSTRING,
)
"""The strategies `locate_mistake` tries, in order."""


@dataclass(frozen=True)
class Located:
    """Where a value was found (spans sorted, non-overlapping) and by which level."""

    method: LocateMethod
    spans: tuple[Span, ...]


def is_numeric(target: str) -> bool:
    """Mostly digits: such values only tolerate one OCR slip and no partial overlap, since
    two different phone or account numbers often share long runs of digits."""
    return sum(ch.isdigit() for ch in target) * 2 >= len(target)


def fuzzy_budget(target: str) -> int:
    """Edits tolerated between a skeleton and its OCR'd occurrence."""
    if is_numeric(target):
        return 1
    return max(1, (len(target) + 1) // 3)


def skeleton(text: str) -> str:
    """Letters and digits only, case-folded: the form values are compared in."""
    return "".join(ch.casefold() for ch in text if ch.isalnum())


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions all cost 1)."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


class Locator:
    """Locates values in one text; build once per document, call `locate` per value."""

    def __init__(self, text: str) -> None:
        self.text = text
        chars: list[str] = []
        origin: list[int] = []
        for position, ch in enumerate(text):
            if ch.isalnum():
                for folded in ch.casefold():
                    chars.append(folded)
                    origin.append(position)
        self._skeleton = "".join(chars)
        self._zeroed = _o_as_zero(self._skeleton)
        self._origin = origin
        # Detect asks whether a value is in the text before placing it; a value found nowhere
        # runs every level, the fuzzy ones included, so each answer is kept for the text.
        self._located: dict[str, Located | None] = {}

    def locate(self, value: str) -> Located | None:
        """Find `value`'s spans, or None when it is not located."""
        value = value.strip()
        if value not in self._located:
            self._located[value] = self._locate(value)
        return self._located[value]

    def _locate(self, value: str) -> Located | None:
        if not value:
            return None
        exact = self._exact(value)
        target = skeleton(value)
        # Every normalized occurrence is redacted too: "JANE SMITH" is the same value.
        normalized = self._normalized(target) if target else ()
        if exact:
            return Located(LocateMethod.EXACT, _union(exact, normalized))
        if normalized:
            return Located(LocateMethod.NORMALIZED, normalized)
        if not target:
            return None
        if any(ch.isdigit() for ch in target):
            zeroed = self._normalized(_o_as_zero(target), self._zeroed)
            if zeroed:
                return Located(LocateMethod.O_AS_ZERO, zeroed)
        spans = self._unique(target)
        if spans:
            return Located(LocateMethod.UNIQUE, spans)
        spans = self._substring(target)
        if spans:
            return Located(LocateMethod.SUBSTRING, spans)
        spans = self._words(value)
        if spans:
            return Located(LocateMethod.WORDS, spans)
        return None

    def near(self, value: str) -> bool:
        """Is there a trace of `value` in the text, though `locate` placed it nowhere?

        A trace is one of its words (a run of letters and digits, `MIN_TRACE_LENGTH` or
        longer, case-folded) anywhere in the text's letters and digits, or an approximate
        occurrence of the whole value within the unique level's budget.
        """
        words = [skeleton(word) for word in _words_of(value)]
        if any(len(w) >= MIN_TRACE_LENGTH and self._skeleton_hits(w) for w in words):
            return True
        target = skeleton(value)
        if not MIN_FUZZY_LENGTH <= len(target) <= MAX_FUZZY_LENGTH:
            return False
        return bool(self._fuzzy_matches(target, fuzzy_budget(target)))

    def mistake_candidates(
        self, method: LocateMethod, error: str, context_before: str = ""
    ) -> tuple[Span, ...]:
        """Every place `method` (one of `MISTAKE_METHODS`) finds `error` in this text; the
        caller accepts a strategy only when all texts together give exactly one."""
        if method is LocateMethod.CONTEXT:
            return self._after_context(self._exact(error), context_before)
        target = skeleton(error)
        if method is LocateMethod.CONTEXT_NORMALIZED:
            if not target:
                return ()
            context = skeleton(context_before)
            spans = []
            for hit in self._skeleton_hits(context + target):
                first = hit + len(context)
                start, end = self._span_of(first, first + len(target) - 1)
                if self._on_boundaries(start, end):
                    spans.append(Span(start=start, end=end))
            return tuple(spans)
        if method is LocateMethod.ERROR_ONCE:
            exact = self._exact(error)
            if exact:
                return exact
            return self._normalized(target) if target else ()
        if method is LocateMethod.JOINED_SUBSTRING:
            if len(target) < MIN_SUBSTRING_LENGTH:
                return ()
            return tuple(
                Span(start=start, end=end)
                for start, end in (
                    self._span_of(hit, hit + len(target) - 1) for hit in self._skeleton_hits(target)
                )
            )
        raise ValueError(f"{method} is not a mistake-placing strategy")

    def _after_context(self, spans: tuple[Span, ...], context_before: str) -> tuple[Span, ...]:
        """The spans that follow `context_before` verbatim (whitespace between free)."""
        context = context_before.rstrip()
        if not context.strip():
            return spans
        return tuple(span for span in spans if self.text[: span.start].rstrip().endswith(context))

    # -- helpers ---------------------------------------------------------------------

    def _alnum_at(self, position: int) -> bool:
        return 0 <= position < len(self.text) and self.text[position].isalnum()

    def _on_boundaries(self, start: int, end: int) -> bool:
        """No letter or digit glued to either side of an alphanumeric edge of the match."""
        left_ok = not (self.text[start].isalnum() and self._alnum_at(start - 1))
        right_ok = not (self.text[end - 1].isalnum() and self._alnum_at(end))
        return left_ok and right_ok

    def _span_of(self, first: int, last: int) -> tuple[int, int]:
        """Original [start, end) of skeleton positions first..last inclusive."""
        return self._origin[first], self._origin[last] + 1

    def _widen(self, start: int, end: int) -> tuple[int, int]:
        while self._alnum_at(start - 1):
            start -= 1
        while self._alnum_at(end):
            end += 1
        return start, end

    def _widen_to_token(self, start: int, end: int) -> tuple[int, int]:
        """Widen to the whitespace-delimited token, minus its outer punctuation."""
        while start > 0 and not self.text[start - 1].isspace():
            start -= 1
        while end < len(self.text) and not self.text[end].isspace():
            end += 1
        while start < end and not self.text[start].isalnum():
            start += 1
        while end > start and not self.text[end - 1].isalnum():
            end -= 1
        return start, end

    def _skeleton_hits(self, target: str, skeleton_text: str | None = None) -> list[int]:
        text = self._skeleton if skeleton_text is None else skeleton_text
        hits, at = [], text.find(target)
        while at != -1:
            hits.append(at)
            at = text.find(target, at + 1)
        return hits

    # -- the four levels -------------------------------------------------------------

    def _exact(self, value: str) -> tuple[Span, ...]:
        spans: list[Span] = []
        at = self.text.find(value)
        while at != -1:
            end = at + len(value)
            if self._on_boundaries(at, end) and (not spans or at >= spans[-1].end):
                spans.append(Span(start=at, end=end))
            at = self.text.find(value, at + 1)
        return tuple(spans)

    def _normalized(self, target: str, skeleton_text: str | None = None) -> tuple[Span, ...]:
        spans: list[Span] = []
        for hit in self._skeleton_hits(target, skeleton_text):
            start, end = self._span_of(hit, hit + len(target) - 1)
            if self._on_boundaries(start, end) and (not spans or start >= spans[-1].end):
                spans.append(Span(start=start, end=end))
        return tuple(spans)

    def _unique(self, target: str) -> tuple[Span, ...]:
        length = len(target)
        if length < MIN_FUZZY_LENGTH or length > MAX_FUZZY_LENGTH:
            return ()
        budget = fuzzy_budget(target)
        candidates: dict[tuple[int, int], int] = {}
        for first, last, distance in self._fuzzy_matches(target, budget):
            start, end = self._widen(*self._span_of(first, last))
            if len(skeleton(self.text[start:end])) > length + budget:
                continue
            key = (start, end)
            candidates[key] = min(distance, candidates.get(key, distance))
        occurrences = _drop_overlaps(candidates)
        if len(occurrences) != 1:
            return ()
        start, end = occurrences[0]
        return (Span(start=start, end=end),)

    def _fuzzy_matches(self, target: str, budget: int) -> list[tuple[int, int, int]]:
        """(first, last, distance) skeleton windows within `budget` edits of `target`."""
        text = self._skeleton
        length = len(target)
        # Sellers: row[j] = fewest edits turning target into some text substring ending at j.
        ends: list[tuple[int, int]] = []
        costs = [0] * (len(text) + 1)
        previous_column = list(range(length + 1))
        for j, char in enumerate(text, 1):
            column = [0]
            for i in range(1, length + 1):
                column.append(
                    min(
                        previous_column[i] + 1,
                        column[i - 1] + 1,
                        previous_column[i - 1] + (target[i - 1] != char),
                    )
                )
            costs[j] = column[length]
            previous_column = column
        for j in range(1, len(text) + 1):
            cost = costs[j]
            if cost > budget:
                continue
            left = costs[j - 1] if j > 1 else budget + 1
            right = costs[j + 1] if j < len(text) else budget + 1
            if cost <= left and cost <= right:
                ends.append((j, cost))
        matches: list[tuple[int, int, int]] = []
        for end, _ in ends:
            best: tuple[int, int] | None = None
            for start in range(max(0, end - length - budget), max(0, end - length + budget) + 1):
                if start >= end:
                    break
                distance = edit_distance(target, text[start:end])
                if best is None or distance < best[1]:
                    best = (start, distance)
            if best is not None and best[1] <= budget:
                matches.append((best[0], end - 1, best[1]))
        return matches

    def _words(self, value: str) -> tuple[Span, ...]:
        pairs = {
            (span.start, span.end)
            for word in _words_of(value)
            if word.isalpha() and len(skeleton(word)) >= MIN_WORD_LENGTH
            for span in self._normalized(skeleton(word))
        }
        return tuple(Span(start=start, end=end) for start, end in _drop_overlaps(pairs))

    def _substring(self, target: str) -> tuple[Span, ...]:
        shortest = len(target) if is_numeric(target) else (len(target) + 1) // 2
        shortest = max(MIN_SUBSTRING_LENGTH, shortest)
        for size in range(len(target), shortest - 1, -1):
            for offset in range(len(target) - size + 1):
                hits = self._skeleton_hits(target[offset : offset + size])
                if hits:
                    widened = {
                        self._widen_to_token(*self._span_of(hit, hit + size - 1)) for hit in hits
                    }
                    return tuple(
                        Span(start=start, end=end) for start, end in _drop_overlaps(widened)
                    )
        return ()


def locate_mistake(
    locators: Sequence[Locator], error: str, context_before: str = ""
) -> tuple[int, Located] | None:
    """Place one proofreading mistake in a document of several texts (one per page): the
    position of the text it is on and where, by the first of `MISTAKE_METHODS` that finds
    exactly one place in all of them together; None when none does (the caller lists it
    as not located rather than draw it somewhere wrong)."""
    error = error.strip()
    if not error:
        return None
    for method in MISTAKE_METHODS:
        found = [
            (position, span)
            for position, locator in enumerate(locators)
            for span in locator.mistake_candidates(method, error, context_before)
        ]
        if len(found) == 1:
            position, span = found[0]
            return position, Located(method, (span,))
        if len(found) > 1:
            return None  # the stricter strategies were ambiguous: looser ones would be too
    return None


def _words_of(value: str) -> list[str]:
    """The runs of letters and digits in `value`, as written."""
    words: list[str] = []
    word: list[str] = []
    for ch in (*value, " "):
        if ch.isalnum():
            word.append(ch)
        elif word:
            words.append("".join(word))
            word = []
    return words


def _o_as_zero(skeleton_text: str) -> str:
    """A skeleton with every letter o read as the digit 0 (same length, same positions)."""
    return skeleton_text.replace("o", "0")


def _drop_overlaps(
    spans: dict[tuple[int, int], int] | set[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Merge overlapping (start, end) pairs into disjoint ranges, sorted by start."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _union(first: tuple[Span, ...], second: tuple[Span, ...]) -> tuple[Span, ...]:
    pairs = {(span.start, span.end) for span in (*first, *second)}
    return tuple(Span(start=start, end=end) for start, end in _drop_overlaps(pairs))
