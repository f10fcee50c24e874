"""150-element chunks with global indices, 150-word text chunks, and the list format.

One call must fit the model's KV cache with its prompt and answer (docs/models.md); 150
OCR words per call is the budget. Indices stay global across chunks, so a model's
`151:NAME` in the second chunk means element 151 of the page. Text mode spends the same
budget: at most 150 words per call, cut at line breaks where it can be.
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


@dataclass(frozen=True)
class TextChunk:
    """Characters `[start, end)` of a text; `number` counts from 0."""

    number: int
    start: int
    end: int

    def of(self, text: str) -> str:
        """This chunk's part of `text` (the text it was cut from)."""
        return text[self.start : self.end]

    def overlaps(self, start: int, end: int) -> bool:
        """Do characters `[start, end)` of the text share at least one with this chunk?"""
        return start < self.end and self.start < end


_WORD = re.compile(r"\S+")


def chunk_text(text: str, size: int = CHUNK_SIZE) -> list[TextChunk]:
    """Cut a text into consecutive chunks of at most `size` whitespace-separated words.

    The chunks cover the text exactly (joined, they are the text). A chunk ends after the
    last line break that keeps it within `size` words, so lines stay whole; a line longer than
    `size` words is cut after its `size`-th word, and the whitespace after that word starts
    the next chunk. A text of at most `size` words (an empty one too) is one chunk.
    """
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    words = [(match.start(), match.end()) for match in _WORD.finditer(text)]
    chunks: list[TextChunk] = []
    start, first_word = 0, 0
    while len(words) - first_word > size:
        first_end = words[first_word][1]
        next_start = words[first_word + size][0]
        line_break = text.rfind("\n", first_end, next_start)
        end = line_break + 1 if line_break != -1 else words[first_word + size - 1][1]
        chunks.append(TextChunk(len(chunks), start, end))
        start = end
        while first_word < len(words) and words[first_word][0] < end:
            first_word += 1
    chunks.append(TextChunk(len(chunks), start, len(text)))
    return chunks


def format_elements(elements: tuple[Element, ...] | list[Element], shown: dict[int, str]) -> str:
    """The indexed list the prompts show: `[0] Patient`, one per line.

    `shown` replaces an element's text (the redacted list shows `[1] [NAME_1]`).
    """
    return "\n".join(
        f"[{element.index}] {shown.get(element.index, element.text)}" for element in elements
    )


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
