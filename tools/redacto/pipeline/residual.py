"""Validate's residual check: the words of each round's output that no reader explains.

The rules, the NER tier and the model share blind spots, so their second reading of the
output (`second_opinion`) misses what they missed at detect. The residual check
(`redacto.lexicon`, docs/lexicon.md) reads the same masked output with the document's
language's dictionary and the category's keep rules: every readable word must be a
dictionary word or kept for a stated reason. The rest is *unexplained*: a run whose output
holds any never ends PASS (`ReviewReason.UNEXPLAINED_WORDS`, the words listed in the
report), and under `strict` (`--strict`) each becomes a detection (source `lexicon`) that
fails the round, so the next round redacts it.

Text mode reads `MaskedText` (each redacted span `…`); image mode reads the page's lines
(`PageText`) with each redacted element `…`, and a word names the element it lies in.
"""

from __future__ import annotations

from collections.abc import Sequence

from redacto.document import Category, Detection, Document, Mode, Source, Span
from redacto.lexicon import Kind, WordDecision, language_of, residual_words, unexplained, words
from redacto.pipeline.page_text import PageText
from redacto.pipeline.redact import ImageRedaction, TextRedaction
from redacto.pipeline.second_opinion import MaskedText, masked_elements
from redacto.report import UnexplainedWord

LABELS = {Kind.EMAIL: "EMAIL", Kind.URL: "ID", Kind.DOMAIN: "ID", Kind.DIGITS: "ID"}
"""The label a word redacted under `strict` gets (placeholders are built from it); a word
of letters is redacted as a NAME."""


def document_language(document: Document, given: str | None = None) -> str:
    """The language the check reads `document` in: `given`, else the one whose dictionary
    knows the most of its words (`redacto.lexicon.language_of`)."""
    if given is not None:
        return given
    return language_of(words(document.plain_text()))


def hidden_by(redaction: ImageRedaction | TextRedaction) -> list[Span] | list[int]:
    """What an output hides: the replaced spans (text mode), the redacted indices (image)."""
    if isinstance(redaction, TextRedaction):
        return [replacement.span for replacement in redaction.replacements]
    return list(redaction.shown)


def unexplained_words(
    document: Document,
    redacted: Sequence[Span] | Sequence[int],
    category: Category,
    language: str,
) -> list[UnexplainedWord]:
    """The words of this output no reader could explain, in reading order (`redacted`: the
    replaced spans in text mode, the redacted element indices in image mode)."""
    if document.mode is Mode.TEXT:
        spans = [s for s in redacted if isinstance(s, Span)]
        masked = MaskedText.of(document.text, spans)
        found = []
        for decision in unexplained(residual_words(masked.text, category, language)):
            span = masked.original_span(decision.word.start, decision.word.end)
            if span is not None:
                value = document.text[span.start : span.end]
                found.append(_word(decision, value, span=span))
        return found
    indices = [i for i in redacted if isinstance(i, int)]
    page = PageText.of(masked_elements(document, indices).elements).joined
    hidden = set(indices)
    found = []
    for decision in unexplained(residual_words(page.text, category, language)):
        for index in page.indices_between(decision.word.start, decision.word.end):
            if index in hidden:
                continue
            element = document.elements[index]
            found.append(
                _word(decision, element.text, index=index, box=element.box, page=element.page)
            )
    return found


def _word(decision: WordDecision, value: str, **where: object) -> UnexplainedWord:
    assert decision.kind is not None
    return UnexplainedWord.model_validate({"value": value, "kind": decision.kind.value, **where})


def as_detections(words_found: Sequence[UnexplainedWord], round_number: int) -> list[Detection]:
    """The words as detections to redact (`strict`), one per word (image mode: per element)."""
    detections = []
    for word in words_found:
        label = LABELS.get(Kind(word.kind), "NAME")
        detections.append(
            Detection(
                label=label,
                source=Source.LEXICON,
                round=round_number,
                index=word.index,
                value=word.value,
                span=word.span,
            )
        )
    return detections
