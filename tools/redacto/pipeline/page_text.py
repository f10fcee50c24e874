"""A page's OCR words read as plain text lines, and the way back from values to words.

Image mode's text reading (`ImageReading.TEXT`): detect and validate see the page as the
text-mode prompts see a document — words joined by spaces, one OCR line per line — and
answer `LABEL: value` lines. The locator finds each value in that text (every occurrence,
OCR noise tolerated, across words and lines) and the words it overlaps become the value's
element indices, so boxes stay exactly the OCR's own.

Lines come from the boxes, the same way in both languages: a word starts a new line when it
sits left of the word before it (the reading order went back to the left margin, or on to
the next line of a column), when its vertical centre is outside the previous word's height,
or when the page changes. Words without boxes continue the line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from redacto.document import Element
from redacto.pipeline.locator import Locator
from redacto.rules.matching import JoinedElements


def starts_line(previous: Element, element: Element) -> bool:
    """Does `element` begin a new line after `previous` (its neighbour in reading order)?"""
    if element.page != previous.page:
        return True
    if previous.box is None or element.box is None:
        return False
    centre = (element.box.y0 + element.box.y1) / 2
    return element.box.x0 < previous.box.x0 or not previous.box.y0 <= centre <= previous.box.y1


@dataclass(frozen=True)
class PageText:
    """Elements joined into lines of text, with where each element starts."""

    joined: JoinedElements

    @classmethod
    def of(cls, elements: Sequence[Element]) -> PageText:
        """The page text of `elements` (in reading order; redacted ones show placeholders)."""
        pieces: list[str] = []
        starts: list[int] = []
        offset = 0
        for position, element in enumerate(elements):
            if position:
                pieces.append("\n" if starts_line(elements[position - 1], element) else " ")
                offset += 1
            starts.append(offset)
            pieces.append(element.text)
            offset += len(element.text)
        return cls(JoinedElements("".join(pieces), tuple(elements), tuple(starts)))

    @property
    def text(self) -> str:
        return self.joined.text

    @cached_property
    def _locator(self) -> Locator:
        return Locator(self.text)

    def locate(self, value: str) -> tuple[int, ...]:
        """The indices of every element the locator places `value` on; empty: not located."""
        located = self._locator.locate(value)
        if located is None:
            return ()
        indices = {
            index
            for span in located.spans
            for index in self.joined.indices_between(span.start, span.end)
        }
        return tuple(sorted(indices))
