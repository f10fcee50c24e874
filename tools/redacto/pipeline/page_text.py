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

The validator of a page read as text sees the redaction as text mode's validator sees a
redacted text: each run of redacted words of one value on one line is one placeholder, numbered
per distinct value (`redacted_lines`), not one placeholder per word.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from redacto.document import Detection, Element
from redacto.joined_elements import JoinedElements
from redacto.pipeline.locator import Locator
from redacto.pipeline.placeholders import PlaceholderBook, value_key


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
    def locator(self) -> Locator:
        """The locator over the page's text."""
        return Locator(self.text)

    def locate(self, value: str) -> tuple[int, ...]:
        """The indices of every element the locator places `value` on; empty: not located."""
        located = self.locator.locate(value)
        if located is None:
            return ()
        indices = {
            index
            for span in located.spans
            for index in self.joined.indices_between(span.start, span.end)
        }
        return tuple(sorted(indices))


def redacted_page(
    elements: Sequence[Element], detections: Sequence[Detection], shown: Collection[int]
) -> str:
    """What the validator of a page read as text sees after a redaction: the page text with
    each detection hidden whose element the redaction shows as a placeholder (`shown`)."""
    hidden = {d.index: d for d in detections if d.index is not None and d.index in shown}
    return redacted_lines(elements, hidden)


def redacted_lines(elements: Sequence[Element], hidden: Mapping[int, Detection]) -> str:
    """The page text of `elements` with the `hidden` ones (index → its detection) redacted.

    Consecutive hidden words of one detected value (same label and value) on one line become
    one placeholder, numbered by the words it hides (the same words, the same placeholder),
    so `Name: Jane Smith` reads `Name: [NAME_1]`, as text mode's redaction would show it.
    """
    book = PlaceholderBook()
    pieces: list[str] = []
    run: list[str] = []
    run_of: tuple[str, str] | None = None

    def close_run() -> None:
        if run and run_of is not None:
            pieces.append(book.assign(run_of[0], " ".join(run)))
            run.clear()

    for position, element in enumerate(elements):
        new_line = position > 0 and starts_line(elements[position - 1], element)
        detection = hidden.get(element.index)
        group = None if detection is None else (detection.label, value_key(detection.value or ""))
        if group is not None and run and group == run_of and not new_line:
            run.append(element.text)
            continue
        close_run()
        if position:
            pieces.append("\n" if new_line else " ")
        if group is None:
            pieces.append(element.text)
        else:
            run_of = group
            run.append(element.text)
    close_run()
    return "".join(pieces)
