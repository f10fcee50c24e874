"""A page's OCR words read as plain text lines, and the way back from values to words.

Image mode's text reading (`ImageReading.TEXT`): detect and validate see the page as the
text-mode prompts see a document — words joined by spaces, one OCR line per line — and
answer `LABEL: value` lines. The locator finds each value in that text (every occurrence,
OCR noise tolerated, across words and lines) and the words it overlaps become the value's
element indices, so boxes stay exactly the OCR's own.

Lines come from the boxes, the same way in both languages and for the NER tier
(`redacto.text.joined_elements.starts_line`): a word starts a new line when it sits left of the
word before it, when its vertical centre is outside the previous word's height, or when the
page changes. Words without boxes continue the line.

The validator of a page read as text sees the redaction as text mode's validator sees a
redacted text: each run of redacted words of one value on one line is one placeholder, numbered
per distinct value (`redacted_lines`), not one placeholder per word.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from redacto.document import Detection, Element
from redacto.pipeline.locator import Locator
from redacto.pipeline.placeholders import PlaceholderBook, value_key
from redacto.text.joined_elements import JoinedElements, join_elements, starts_line


@dataclass(frozen=True)
class PageText:
    """Elements joined into lines of text, with where each element starts."""

    joined: JoinedElements

    @classmethod
    def of(cls, elements: Sequence[Element]) -> PageText:
        """The page text of `elements` (in reading order; redacted ones show placeholders)."""
        return cls(join_elements(elements, starts_line))

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
    for gap, text, label in element_runs(elements, hidden):
        pieces.append(gap)
        pieces.append(text if label is None else book.assign(label, text))
    return "".join(pieces)


def element_runs(
    elements: Sequence[Element], hidden: Mapping[int, Detection], page_break: str = "\n"
) -> Iterator[tuple[str, str, str | None]]:
    """The page text of `elements` in pieces: `(gap before, text, label)`.

    A run of consecutive `hidden` words of one detected value (same label and value) on one
    line is one piece, its words joined by spaces, with its label; every other word is a
    piece of its own with label None. The gap is "" before the first piece, `page_break`
    where the page changes, a line break where a line starts (`starts_line`), else a space.
    """
    run: list[str] = []
    run_of: tuple[str, str] | None = None
    gap = ""
    for position, element in enumerate(elements):
        previous = elements[position - 1] if position else None
        new_line = previous is not None and starts_line(previous, element)
        detection = hidden.get(element.index)
        group = None if detection is None else (detection.label, value_key(detection.value or ""))
        if group is not None and run and group == run_of and not new_line:
            run.append(element.text)
            continue
        if run and run_of is not None:
            yield gap, " ".join(run), run_of[0]
            run.clear()
        if previous is None:
            gap = ""
        elif element.page != previous.page:
            gap = page_break
        else:
            gap = "\n" if new_line else " "
        if group is None:
            yield gap, element.text, None
        else:
            run_of = group
            run.append(element.text)
    if run and run_of is not None:
        yield gap, " ".join(run), run_of[0]
