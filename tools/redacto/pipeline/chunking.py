"""150-element chunks with global indices, and the element-list format the prompts show.

The phone's model is compiled with a 1,024-token KV cache; 150 OCR words plus a detect
prompt fit in it with room for the answer. Indices stay global across chunks, so a
model's `151:NAME` in the second chunk means element 151 of the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redacto.document import Document, Element, Mode

CHUNK_SIZE = 150


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive elements; `number` counts from 0."""

    number: int
    elements: tuple[Element, ...]

    @property
    def index_range(self) -> range:
        """The global indices this chunk may name; anything else is out of chunk."""
        if not self.elements:
            return range(0)
        return range(self.elements[0].index, self.elements[-1].index + 1)


def chunk_elements(elements: tuple[Element, ...], size: int = CHUNK_SIZE) -> list[Chunk]:
    """Split elements into chunks of at most `size`, keeping their global indices."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    return [
        Chunk(number=number, elements=elements[start : start + size])
        for number, start in enumerate(range(0, len(elements), size))
    ]


def format_elements(elements: tuple[Element, ...] | list[Element], shown: dict[int, str]) -> str:
    """The indexed list the prompts show: `[0] Patient`, one per line.

    `shown` replaces an element's text (the redacted list shows `[1] [NAME_1]`).
    """
    return "\n".join(
        f"[{element.index}] {shown.get(element.index, element.text)}" for element in elements
    )


_WORD = re.compile(r"\S+")


def classify_text(document: Document, size: int = CHUNK_SIZE) -> str:
    """The classifier's input: at most the first chunk's worth of the document.

    Image mode: the first `size` elements joined by spaces. Text mode: the text up to the
    end of its `size`-th whitespace-separated word, so both modes send a similar amount.
    """
    if document.mode is Mode.IMAGE:
        return " ".join(element.text for element in document.elements[:size])
    ends = [match.end() for match in _WORD.finditer(document.text)]
    if len(ends) <= size:
        return document.text
    return document.text[: ends[size - 1]]
