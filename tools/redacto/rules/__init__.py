"""The rule safety net: checksum-validated recognizers whose hits join the model's.

A small model misses things; a missed account number is a leak. Identifiers with structure
(emails, phones, cards, IBANs, SSNs, dates, record numbers next to their names, IPs,
personal URLs) are found deterministically here, on the same elements and indices the model
sees. The pipeline adds these detections to the model's — by index in image mode — and never
uses them to remove one.

    detections = find_rule_detections(document, Category.FINANCIAL)

Recognizers are data (`recognizers.yaml`), each category's selection and preserve rules too
(`categories.yaml`); `docs/rules.md` gives the reasons. Labels come from
`prompts/labels.yaml`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType

from redacto.document import Category, Detection, Document, Frozen, Mode, Source, Span
from redacto.rules.catalog import (
    CategoryRuleSet,
    PreserveRule,
    Recognizer,
    RulesConfigError,
    load_catalog,
)
from redacto.rules.matching import TextMatch, scan_text
from redacto.rules.validators import VALIDATORS
from redacto.text.joined_elements import join_by_page

__all__ = [
    "CATEGORY_RULES",
    "RECOGNIZERS",
    "VALIDATORS",
    "CategoryRuleSet",
    "PreserveRule",
    "Recognizer",
    "RuleMatch",
    "RulesConfigError",
    "find_rule_detections",
    "find_rule_matches",
    "preserved_spans",
    "recognizers_for",
]

_CATALOG = load_catalog()

RECOGNIZERS: Mapping[str, Recognizer] = MappingProxyType(_CATALOG.recognizers)
"""Every recognizer by name, in priority order (the order of `recognizers.yaml`)."""

CATEGORY_RULES: Mapping[Category, CategoryRuleSet] = MappingProxyType(_CATALOG.categories)
"""Each category's recognizers (priority order) and preserve rules."""


class RuleMatch(Frozen):
    """One rule hit with the recognizer that made it, for reports and per-recognizer eval.

    Image mode: `indices` names every element the match touches, `span` is None.
    Text mode: `span` is the range in `document.text`, `indices` is empty.
    """

    recognizer: str
    pattern: str
    label: str
    value: str
    span: Span | None = None
    indices: tuple[int, ...] = ()


_BY_CATEGORY: Mapping[Category, tuple[Recognizer, ...]] = MappingProxyType(
    {
        category: tuple(RECOGNIZERS[name] for name in rule_set.recognizers)
        for category, rule_set in CATEGORY_RULES.items()
    }
)


def recognizers_for(category: Category) -> tuple[Recognizer, ...]:
    """The recognizers `category` runs, in priority order."""
    return _BY_CATEGORY[Category(category)]


def find_rule_matches(
    document: Document, category: Category, *, recognizers: Collection[str] | None = None
) -> list[RuleMatch]:
    """Every rule hit in `document` for `category`, in document order.

    `recognizers` narrows the run to those names (the eval uses it to measure one
    recognizer at a time); names the category does not run are ignored, unknown names
    raise KeyError.
    """
    rule_set = CATEGORY_RULES[Category(category)]
    selected = recognizers_for(rule_set.category)
    if recognizers is not None:
        unknown = sorted(set(recognizers) - set(RECOGNIZERS))
        if unknown:
            raise KeyError(f"unknown recognizers {unknown}; known: {', '.join(RECOGNIZERS)}")
        selected = tuple(r for r in selected if r.name in recognizers)
    if document.mode is Mode.TEXT:
        return [
            _rule_match(match, document.text, span=Span(start=match.start, end=match.end))
            for match in scan_text(document.text, selected, rule_set.preserve)
        ]
    found = []
    for page in join_by_page(document.elements):
        for match in scan_text(page.text, selected, rule_set.preserve):
            indices = page.indices_between(match.start, match.end)
            found.append(_rule_match(match, page.text, indices=indices))
    return found


def preserved_spans(text: str, category: Category) -> list[Span]:
    """Where in `text` a rule match stands that `category`'s preserve rules keep readable
    (a toll-free number in a Financial page, an officer's badge, a publication date): what
    no tier may redact there (`redacto.pipeline.kept_readable`)."""
    rule_set = CATEGORY_RULES[Category(category)]
    if not rule_set.preserve:
        return []
    matches = scan_text(text, recognizers_for(rule_set.category), rule_set.preserve, preserved=True)
    return [Span(start=match.start, end=match.end) for match in matches]


def _rule_match(
    match: TextMatch, text: str, span: Span | None = None, indices: tuple[int, ...] = ()
) -> RuleMatch:
    return RuleMatch(
        recognizer=match.recognizer,
        pattern=match.pattern,
        label=match.label,
        value=text[match.start : match.end],
        span=span,
        indices=indices,
    )


def find_rule_detections(document: Document, category: Category) -> list[Detection]:
    """The rule safety net's detections for `document` under `category`'s rules.

    Image mode: one Detection per element index a match touches (`index` set, `value` the
    whole match's text), ordered by index; an element touched by two matches keeps the
    first match's label. Text mode: one Detection per match with `span` and `value`,
    ordered by span. All carry `source=rule` and `round=1`.
    """
    matches = find_rule_matches(document, category)
    if document.mode is Mode.TEXT:
        return [
            Detection(label=m.label, source=Source.RULE, round=1, value=m.value, span=m.span)
            for m in matches
        ]
    by_index: dict[int, Detection] = {}
    for match in matches:
        for index in match.indices:
            by_index.setdefault(
                index,
                Detection(
                    label=match.label, source=Source.RULE, round=1, index=index, value=match.value
                ),
            )
    return [by_index[index] for index in sorted(by_index)]
