"""Run recognizers over a text, or over OCR elements joined into one text per page.

An identifier OCR split over several words ("(555)", "123-4567") is matched on the words
joined with single spaces; a character→element map then names every element the match
touches. Overlapping matches are resolved longest first, then by recognizer priority, so
each character — and in image mode each element — carries one label.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from redacto.document import Element
from redacto.rules.catalog import Pattern, PreserveRule, Recognizer

_WORD = re.compile(r"[A-Za-z0-9]+", re.ASCII)
# A match never needs more text before it than this to find its context words.
_CONTEXT_LOOKBACK_CHARS = 200


@dataclass(frozen=True, slots=True)
class TextMatch:
    """A verified identifier at [start, end) of the text that was searched."""

    recognizer: str
    label: str
    pattern: str
    start: int
    end: int
    priority: int


def _has_context(text: str, start: int, recognizer: Recognizer) -> bool:
    """Whether a context phrase is among the `window` words that end before `start`."""
    assert recognizer.context is not None
    before = text[max(0, start - _CONTEXT_LOOKBACK_CHARS) : start]
    words = [word.lower() for word in _WORD.findall(before)][-recognizer.context.window :]
    for phrase in recognizer.context_phrases:
        size = len(phrase)
        for position in range(len(words) - size + 1):
            if tuple(words[position : position + size]) == phrase:
                return True
    return False


def _pattern_matches(
    text: str, recognizer: Recognizer, pattern: Pattern, priority: int
) -> Iterable[TextMatch]:
    """Every verified match of one pattern. After a rejected candidate the search resumes
    one character later, so a valid identifier inside a rejected candidate is still found.
    """
    position = 0
    while position <= len(text):
        found = pattern.regex.search(text, position)
        if found is None:
            return
        start, end = found.span()
        accepted = found.group(0)
        if pattern.validator is not None:
            accepted = pattern.validator(accepted)
        if accepted and not (pattern.needs_context and not _has_context(text, start, recognizer)):
            end = start + len(accepted)
            yield TextMatch(recognizer.name, recognizer.label, pattern.name, start, end, priority)
            position = end
        else:
            position = start + 1


def _resolve_overlaps(matches: list[TextMatch]) -> list[TextMatch]:
    """Keep the longest of overlapping matches (ties: recognizer priority, then position)."""
    kept: list[TextMatch] = []
    taken: list[tuple[int, int]] = []
    ranked = sorted(matches, key=lambda m: (-(m.end - m.start), m.priority, m.start))
    for match in ranked:
        if all(match.end <= start or match.start >= end for start, end in taken):
            kept.append(match)
            taken.append((match.start, match.end))
    return sorted(kept, key=lambda m: (m.start, m.end))


def scan_text(
    text: str, recognizers: Sequence[Recognizer], preserve: Sequence[PreserveRule] = ()
) -> list[TextMatch]:
    """All non-overlapping verified matches in `text`, in order, minus the preserved ones.

    `recognizers` are in priority order; their position is the tie-breaker between
    matches of equal length.
    """
    found = [
        match
        for priority, recognizer in enumerate(recognizers)
        for pattern in recognizer.patterns
        for match in _pattern_matches(text, recognizer, pattern, priority)
    ]
    # Preserved matches are dropped only after overlaps are resolved, so a kept toll-free
    # number still shadows a weaker reading of the same digits (an account number, say).
    return [
        match
        for match in _resolve_overlaps(found)
        if not any(rule.keeps(match.recognizer, text[match.start : match.end]) for rule in preserve)
    ]


@dataclass(frozen=True, slots=True)
class JoinedElements:
    """Elements of one page joined with single spaces, with where each element starts."""

    text: str
    elements: tuple[Element, ...]
    starts: tuple[int, ...]

    def indices_between(self, start: int, end: int) -> tuple[int, ...]:
        """Indices of the non-empty elements that overlap the character range [start, end)."""
        position = max(0, bisect.bisect_right(self.starts, start) - 1)
        indices = []
        while position < len(self.elements) and self.starts[position] < end:
            element = self.elements[position]
            element_end = self.starts[position] + len(element.text)
            if element.text and element_end > start:
                indices.append(element.index)
            position += 1
        return tuple(indices)


def join_by_page(elements: Sequence[Element]) -> list[JoinedElements]:
    """One joined text per run of consecutive elements on the same page.

    Identifiers are matched across neighbouring words but never across a page break.
    """
    pages: list[list[Element]] = []
    for element in elements:
        if pages and pages[-1][-1].page == element.page:
            pages[-1].append(element)
        else:
            pages.append([element])
    joined = []
    for page in pages:
        starts, offset = [], 0
        for element in page:
            starts.append(offset)
            offset += len(element.text) + 1
        text = " ".join(element.text for element in page)
        joined.append(JoinedElements(text, tuple(page), tuple(starts)))
    return joined
