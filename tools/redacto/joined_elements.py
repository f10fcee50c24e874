"""Elements joined into one text, with where each element starts.

Two parts of the pipeline search text that is really a run of OCR words: the rules match
identifiers across neighbouring words of a page (`redacto.rules`), and image mode's text
reading finds the model's values in the page's lines (`redacto.pipeline.page_text`). Both
join the words into one string and map a character range back to the words it touches;
this is that shared type, kept below both so that neither reaches into the other.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from redacto.document import Element


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
