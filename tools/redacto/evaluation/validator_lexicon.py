"""The residual check on the validator bench's outputs: the words no reader could explain.

Validate's fourth reader (`redacto.lexicon`, docs/lexicon.md) keeps a page from PASS while
any word it leaves readable is unexplained. Here it reads each bench case's output — the
text the validate prompt shows, each placeholder masked as the pipeline masks a redacted
value (`…`) — so the bench can report the lexicon alone, with the rules and NER, and with
the LLM and the rules and NER (`VerdictResult.lexicon_words`).

The language is detected per output, as the pipeline does where no language is given.
"""

from __future__ import annotations

from redacto.document import PLACEHOLDER_PATTERN, Category
from redacto.lexicon import MASK, residual_words, unexplained


def masked(output: str) -> str:
    """`output` with each placeholder written as the mask a redacted value reads as."""
    return PLACEHOLDER_PATTERN.sub(MASK, output)


def lexicon_words(output: str, category: Category, language: str | None = None) -> list[str]:
    """The words of `output` (a validate call's shown text, placeholders and all) that no
    dictionary word or stated reason explains, in order: PASS for the lexicon is none."""
    decisions = residual_words(masked(output), category, language)
    return [decision.word.text for decision in unexplained(decisions)]
