"""Elements joined into one text, with where each element starts.

Three parts of the pipeline search text that is really a run of OCR words: the rules match
identifiers across neighbouring words of a page (`redacto.rules`), the NER tier reads each
page as its lines (`redacto.ner`), and image mode's text reading finds the model's values in
the page's lines (`redacto.pipeline.page_text`). All join the words into one string and map
a character range back to the words it touches; this is that shared type, with the one rule
for where a line starts, kept below all three so that none reaches into another.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from redacto.document import Element


def starts_line(previous: Element, element: Element) -> bool:
    """Does `element` begin a new line after `previous` (its neighbour in reading order)?

    It does when it sits left of the word before it (the reading order went back to the
    left margin, or on to the next line of a column), when its vertical centre is outside the
    previous word's height, or when the page changes. Words without boxes continue the line.
    """
    if element.page != previous.page:
        return True
    if previous.box is None or element.box is None:
        return False
    centre = (element.box.y0 + element.box.y1) / 2
    return element.box.x0 < previous.box.x0 or not previous.box.y0 <= centre <= previous.box.y1


@dataclass(frozen=True, slots=True)
class JoinedElements:
    """Elements joined into one text (by spaces, or by spaces and line breaks), with where
    each element starts."""

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


LineBreaks = Callable[[Element, Element], bool]
"""Whether the text breaks the line between two neighbouring elements (in reading order)."""


def join_elements(elements: Sequence[Element], breaks: LineBreaks | None = None) -> JoinedElements:
    """`elements` joined into one text: by spaces, and by a line break wherever `breaks`
    says so (`starts_line`: the page's printed lines)."""
    pieces: list[str] = []
    starts: list[int] = []
    offset = 0
    for position, element in enumerate(elements):
        if position:
            new_line = breaks is not None and breaks(elements[position - 1], element)
            pieces.append("\n" if new_line else " ")
            offset += 1
        starts.append(offset)
        pieces.append(element.text)
        offset += len(element.text)
    return JoinedElements("".join(pieces), tuple(elements), tuple(starts))


def unwrapped_line_breaks(page: Sequence[Element]) -> LineBreaks:
    """The line breaks of the text a page was typeset from: a printed line ends a line of
    that text only where the next word would have fitted on it.

    A line that ends because its next word did not fit (that word's width would pass the
    page's right edge, the rightmost box on the page) wrapped: the text it was typeset from
    goes on with a space ("… case opened by Det." / "Juan Cannon, badge 2868" is one line
    of the report). A line that ends short of that (a heading, a list item, a form field)
    ends there. Words without boxes continue the line.
    """
    right = max((e.box.x1 for e in page if e.box is not None), default=0.0)

    def breaks(previous: Element, element: Element) -> bool:
        if not starts_line(previous, element):
            return False
        if previous.box is None or element.box is None:
            return True
        return previous.box.x1 + (element.box.x1 - element.box.x0) <= right

    return breaks


def join_by_page(
    elements: Sequence[Element], *, unwrap_lines: bool = False
) -> list[JoinedElements]:
    """One joined text (`join_elements`) per run of consecutive elements on the same page.

    Identifiers are matched across neighbouring words but never across a page break. Words
    are joined by spaces; with `unwrap_lines`, by a line break where the text the page was
    typeset from breaks its line (`unwrapped_line_breaks`), so that a reader which speaks of
    "the same line" sees those lines, not one line per page nor a line cut by the page's
    width.
    """
    pages: list[list[Element]] = []
    for element in elements:
        if pages and pages[-1][-1].page == element.page:
            pages[-1].append(element)
        else:
            pages.append([element])
    return [
        join_elements(page, unwrapped_line_breaks(page) if unwrap_lines else None) for page in pages
    ]
