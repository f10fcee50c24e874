"""Validate's second opinion: the rules and the NER tier read the redacted output again.

The LLM validator said PASS on two thirds of leaky outputs on the validator bench, so its PASS alone
vouches for nothing. The deterministic tiers of the run (`PipelineOptions.detectors`) read
the output as well, every round, whatever the LLM said: any value they find still readable
fails the round, and the next round redacts it like an item the LLM validator named.

What they read is the output with every redacted value **masked**: each placeholder (text
mode: each replaced span; image mode: each redacted element) becomes the neutral word
`MASK`, an ellipsis. A placeholder left as it is would be read as text (`[NAME_1]` is the
word `NAME`, and Rampart read the phone beside one as an address); a blank, or `___`, made
Rampart lose the surname after a hidden given name (`___ Moreau`), the very leak this is
for. An ellipsis is punctuation, so never a value itself (words are trimmed of it), and
Rampart still reads `… Moreau` as a name (docs/pipeline-validate.md, "The second opinion").
A hit is kept only where it is readable: the parts of it outside a mask, mapped back to
the original text, trimmed of spaces and punctuation (text mode), or the elements not
redacted yet (image mode).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from redacto.document import Category, Detection, Document, Element, Mode, Source, Span

MASK = "…"
"""What every redacted value reads as to the second opinion (why an ellipsis: above)."""

OutputReader = Callable[[Document, Category], list[Detection]]
"""One tier run on a document: the rules' or the NER tier's detections under a category."""


@dataclass(frozen=True)
class SecondOpinion:
    """The tiers that read the output again, each with the source its hits get
    (`validate-rules`, `validate-ner`); empty when the run has neither tier."""

    readers: tuple[tuple[Source, OutputReader], ...] = ()


@dataclass(frozen=True)
class MaskedText:
    """The original text with each redacted span replaced by `MASK`, and where each kept
    run of original characters sits in it (masked start, original start, length)."""

    text: str
    kept: tuple[tuple[int, int, int], ...]

    @classmethod
    def of(cls, original: str, redacted: Sequence[Span]) -> MaskedText:
        """Mask the disjoint `redacted` spans of `original` (any order)."""
        parts: list[str] = []
        kept: list[tuple[int, int, int]] = []
        position = length = 0
        for span in sorted(redacted, key=lambda s: s.start):
            if span.start > position:
                kept.append((length, position, span.start - position))
                parts.append(original[position : span.start])
                length += span.start - position
            parts.append(MASK)
            length += len(MASK)
            position = max(position, span.end)
        if position < len(original):
            kept.append((length, position, len(original) - position))
            parts.append(original[position:])
        return cls("".join(parts), tuple(kept))

    def original_span(self, start: int, end: int) -> Span | None:
        """Where the masked range [start, end) stands in the original, when it lies inside
        one kept run (no mask in it); None otherwise."""
        for masked_start, original_start, length in self.kept:
            if masked_start <= start and end <= masked_start + length:
                offset = original_start - masked_start
                return Span(start=start + offset, end=end + offset)
        return None

    def readable(self, start: int, end: int, original: str) -> list[Span]:
        """The parts of the masked range [start, end) outside every mask, as spans of the
        original, trimmed of whitespace and punctuation; parts with no letter or digit go."""
        spans = []
        for masked_start, original_start, length in self.kept:
            lo, hi = max(start, masked_start), min(end, masked_start + length)
            if lo >= hi:
                continue
            span = _trimmed(
                original, original_start + lo - masked_start, original_start + hi - masked_start
            )
            if span is not None:
                spans.append(span)
        return spans


def _trimmed(text: str, start: int, end: int) -> Span | None:
    def edge(char: str) -> bool:
        return char.isspace() or unicodedata.category(char).startswith("P")

    while start < end and edge(text[start]):
        start += 1
    while end > start and edge(text[end - 1]):
        end -= 1
    if not any(char.isalnum() for char in text[start:end]):
        return None
    return Span(start=start, end=end)


def masked_elements(document: Document, redacted: Sequence[int]) -> Document:
    """The page with every redacted element's text replaced by `MASK` (same index, box, page)."""
    hidden = set(redacted)
    return Document.from_elements(
        [
            Element(index=e.index, text=MASK, box=e.box, page=e.page) if e.index in hidden else e
            for e in document.elements
        ],
        document.image_size,
    )


def read_text_output(
    original: str,
    redacted: Sequence[Span],
    category: Category,
    opinion: SecondOpinion,
    round_number: int,
) -> list[Detection]:
    """Text mode: what each tier finds readable in the masked output, as detections of the
    original text (value and span), in tier order then reading order."""
    masked = MaskedText.of(original, redacted)
    shown = Document.from_text(masked.text)
    found: list[Detection] = []
    for source, reader in opinion.readers:
        for hit in reader(shown, category):
            assert hit.span is not None, "a text-mode tier gives spans"
            for span in masked.readable(hit.span.start, hit.span.end, original):
                found.append(
                    Detection(
                        label=hit.label,
                        source=source,
                        round=round_number,
                        value=original[span.start : span.end],
                        span=span,
                    )
                )
    return found


def read_page_output(
    document: Document,
    redacted: Sequence[int],
    category: Category,
    opinion: SecondOpinion,
    round_number: int,
) -> list[Detection]:
    """Image mode: the elements each tier finds in the masked page that are not redacted
    yet, one detection per element, in tier order then index order."""
    shown = masked_elements(document, redacted)
    hidden = set(redacted)
    found: list[Detection] = []
    for source, reader in opinion.readers:
        hits = [h for h in reader(shown, category) if h.index is not None and h.index not in hidden]
        # A hit's readable words are its value, so a page read as text shows one placeholder
        # for them (`page_text.redacted_lines` groups by value), not one per word.
        words: dict[str | None, list[str]] = {}
        for hit in hits:
            assert hit.index is not None
            words.setdefault(hit.value, []).append(document.elements[hit.index].text)
        for hit in hits:
            found.append(
                Detection(
                    label=hit.label,
                    source=source,
                    round=round_number,
                    index=hit.index,
                    value=" ".join(words[hit.value]),
                )
            )
    return found


def read_output(
    document: Document,
    redacted: Sequence[Span] | Sequence[int],
    category: Category,
    opinion: SecondOpinion,
    round_number: int,
) -> list[Detection]:
    """What the second opinion finds readable in this round's output (`redacted`: the
    replaced spans in text mode, the redacted element indices in image mode)."""
    if not opinion.readers:
        return []
    if document.mode is Mode.TEXT:
        spans = [s for s in redacted if isinstance(s, Span)]
        return read_text_output(document.text, spans, category, opinion, round_number)
    indices = [i for i in redacted if isinstance(i, int)]
    return read_page_output(document, indices, category, opinion, round_number)
