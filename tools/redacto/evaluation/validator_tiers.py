"""Validate's second opinion on the validator bench's cases: the rules and the NER tier.

The pipeline's validate step also has the run's rules and NER tier read the output, its
redacted values masked (`pipeline.second_opinion`), and a round passes only when they find
nothing either. Here the same reading is done on each bench case's output — the text the
validate prompt shows, its placeholders as the redacted spans — so the bench can report the
LLM alone, the tiers alone, and both (`VerdictResult.tiers_found`).

Text mode shows exactly the pipeline's masked text (the redacted text with each placeholder
masked). The page read as text is shown as its lines, one placeholder per hidden run, where
the pipeline's second opinion reads the page with one mask per element (the NER tier its
lines, the rules its words joined by spaces): the same words, masks counted otherwise
(docs/evaluation.md says so).
"""

from __future__ import annotations

from functools import cache

from redacto.document import PLACEHOLDER_PATTERN, Category, Detection, Document, Source, Span
from redacto.pipeline.second_opinion import SecondOpinion, read_text_output
from redacto.prompts import PromptLibrary

DOCUMENT_OPEN, DOCUMENT_CLOSE = "<document>\n", "\n</document>"


def shown_output(user: str) -> str:
    """The output a validate call shows: its user message's `<document>` block."""
    start = user.index(DOCUMENT_OPEN) + len(DOCUMENT_OPEN)
    return user[start : user.rindex(DOCUMENT_CLOSE)]


@cache
def _prompts() -> PromptLibrary:
    return PromptLibrary.load()


def _rules(document: Document, category: Category) -> list[Detection]:
    from redacto.rules import find_rule_detections

    return find_rule_detections(document, category)


def _ner(document: Document, category: Category) -> list[Detection]:
    from redacto.ner import find_ner_detections

    return find_ner_detections(document, category, _prompts().category_labels(category))


TIERS = SecondOpinion(((Source.VALIDATE_RULES, _rules), (Source.VALIDATE_NER, _ner)))
"""Both deterministic tiers, as a run with `--detectors rules,ner,model` has them."""


def tier_hits(output: str, category: Category) -> list[Detection]:
    """What the rules and the NER tier find readable in `output` (a validate call's shown
    text), its placeholders masked as the pipeline masks them."""
    placeholders = [
        Span(start=m.start(), end=m.end()) for m in PLACEHOLDER_PATTERN.finditer(output)
    ]
    return read_text_output(output, placeholders, category, TIERS, 1)
