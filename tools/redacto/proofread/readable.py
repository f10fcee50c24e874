"""What the text sent leaves readable: the residual check on the masked text.

Hiding the detected values is as good as the detector; the words it missed leave with the
text. The pipeline's fourth reader (`redacto.lexicon`, docs/lexicon.md) says which words
no reader could explain — not a word of the document's language's dictionary, nor kept
readable by a rule of its category — and `mistakes.json` lists those of the text the
proofreader reads (`unexplained`), so the mask report says what it left readable.

The check reads the document's text as it is *before* the placeholders are written, with
every hidden run (a detected value, or another occurrence of one the vault knows) masked
as the pipeline masks an output (`…`, `pipeline.second_opinion.MaskedText`). A placeholder
itself is never read: `[NAME_1]` would be the word `NAME_1`, a word with a digit, and every
hidden value would come back as unexplained. Under `strict` each word found is hidden too,
behind a placeholder like a detected value (`LABELS`: the pipeline's `--strict` labels),
so the proofreader never reads it and its corrections come back restored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from redacto.document import Category, Span
from redacto.lexicon import Kind, residual_words, unexplained
from redacto.pipeline.residual import LABELS
from redacto.pipeline.second_opinion import MaskedText
from redacto.proofread.place import BoxPoints

CONTEXT_WORDS = 4
"""Words of the line before an unexplained word, to place it (as Hunspell's mistakes)."""


class ReadableWord(BaseModel):
    """A word of the text the proofreader reads that no reader could explain, as
    `mistakes.json` lists it (`unexplained`): the word, what it looks like, whether
    `--strict` hid it, and where it is on the document (as a mistake is placed)."""

    model_config = ConfigDict(frozen=True)

    value: str
    kind: str
    """What it looks like: a `redacto.lexicon.Kind` value (`capitalised`, `digits`, …)."""
    hidden: bool = False
    """`--strict` hid it behind a placeholder before anything was sent."""
    located: bool = False
    page: int | None = None
    """1-based; None when not located."""
    boxes: list[BoxPoints] = []
    """In PDF points from the page's top-left corner (none for a text file)."""


@dataclass(frozen=True)
class FoundWord:
    """An unexplained word of the text before masking: where it stands, what it looks
    like, and the words before it on its line (to place it on the document)."""

    start: int
    end: int
    kind: Kind
    value: str
    context_before: str

    @property
    def label(self) -> str:
        """The placeholder's label when `strict` hides it."""
        return LABELS.get(self.kind, "NAME")


@dataclass(frozen=True)
class ResidualCheck:
    """The residual check of one document: its category (the pipeline's), its language,
    and whether the words it finds are hidden (`strict`)."""

    category: Category
    language: str
    strict: bool = False

    def unexplained(self, text: str, hidden: Sequence[tuple[int, int]]) -> list[FoundWord]:
        """The words of `text` outside the disjoint `hidden` ranges that no reader could
        explain, in reading order."""
        masked = MaskedText.of(text, [Span(start=start, end=end) for start, end in hidden])
        found = []
        decisions = residual_words(masked.text, self.category, self.language)
        for decision in unexplained(decisions):
            span = masked.original_span(decision.word.start, decision.word.end)
            if span is None or decision.kind is None:
                continue
            line_start = text.rfind("\n", 0, span.start) + 1
            before = " ".join(text[line_start : span.start].split()[-CONTEXT_WORDS:])
            value = text[span.start : span.end]
            found.append(FoundWord(span.start, span.end, decision.kind, value, before))
        return found
