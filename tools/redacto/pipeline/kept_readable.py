"""What a category keeps readable whoever names it: the model's items meet the preserve
rules the rules and the NER tier already follow.

The model reads its category's preserve list in its prompts and still names a judge after
`Hon.`, a firm, or a bank's toll-free line (docs/ner.md, "The model held to the preserve
rules"). Three readings of the page, each one a tier already makes, overrule it:

- a rule match a preserve rule keeps (`redacto.rules.preserved_spans`: a toll-free number in
  a Financial page, an officer's badge, a publication date), for any label;
- a company's name (`redacto.ner.labels.names_an_organisation`: `Lee-Lopez Field
  Services`, `Martín y Ojeda S.A.`), for a NAME;
- a name under a title the category preserves (`redacto.ner.labels.titled`: `Hon.`,
  `Det.`, `Council Member`), for a NAME. Only a capitalised title opening the name or right
  before it (over at most two of its words) counts, not the NER tier's wider role window:
  the model read the context already.

An item is kept readable only when every place the locator puts it is; a value it cannot
place stays (and fails closed as not located).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from redacto.document import Category, Document, Mode, Span
from redacto.ner.labels import names_an_organisation, titled
from redacto.pipeline.locator import Locator
from redacto.pipeline.page_text import PageText
from redacto.pipeline.parsing import IndexItem, TextItem
from redacto.rules import preserved_spans


@dataclass(frozen=True)
class KeptReadable:
    """One document's text (a page: its lines) as the category's preserve rules read it."""

    text: str
    category: Category
    element_spans: dict[int, Span]
    """Image mode: each element's place in `text`, for an `INDEX:LABEL` item."""

    @classmethod
    def of(cls, document: Document, category: Category) -> KeptReadable:
        """The document's text, or a page's text lines as detect and validate read them."""
        if document.mode is Mode.TEXT:
            return cls(document.text, Category(category), {})
        joined = PageText.of(document.elements).joined
        spans = {
            element.index: Span(start=start, end=start + len(element.text))
            for element, start in zip(joined.elements, joined.starts, strict=True)
        }
        return cls(joined.text, Category(category), spans)

    @cached_property
    def _locator(self) -> Locator:
        return Locator(self.text)

    @cached_property
    def _preserved(self) -> list[Span]:
        return preserved_spans(self.text, self.category)

    def keeps(self, item: IndexItem | TextItem) -> bool:
        """Whether every place `item` names is one the category keeps readable."""
        if isinstance(item, IndexItem):
            span = self.element_spans.get(item.index)
            spans: Sequence[Span] = () if span is None else (span,)
        else:
            located = self._locator.locate(item.value)
            spans = () if located is None else located.spans
        return bool(spans) and all(self._keeps_at(item.label, span) for span in spans)

    def _keeps_at(self, label: str, span: Span) -> bool:
        start, end = _trimmed(self.text, span)
        if start >= end:
            return False
        if any(kept.start <= start and end <= kept.end for kept in self._preserved):
            return True
        return label == "NAME" and (
            names_an_organisation(self.text, start, end)
            or titled(self.text, start, end, self.category)
        )


def _trimmed(text: str, span: Span) -> tuple[int, int]:
    """The span without the punctuation around it (`1-833-216-3880.` is the number)."""
    start, end = span.start, span.end
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    return start, end
