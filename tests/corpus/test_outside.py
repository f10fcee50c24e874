"""The outside suite: a generator apart from the corpus's, split so training never sees a
dev text, template or value."""

from __future__ import annotations

from collections import Counter

import pytest

from redacto.corpus import CorpusDocument, load_suite
from redacto.corpus.outside import generate_outside_suite, outside_templates
from redacto.corpus.templates import all_templates


@pytest.fixture(scope="module")
def outside() -> list[CorpusDocument]:
    return load_suite("outside")


def test_splits_share_no_template_and_no_value(outside) -> None:
    by_split: dict[str, set[str]] = {"train": set(), "test": set()}
    templates: dict[str, set[str]] = {"train": set(), "test": set()}
    for document in outside:
        templates[document.split].add(document.template)
        by_split[document.split].update(document.span_text(s) for s in document.pii)
    assert not templates["train"] & templates["test"]
    assert not by_split["train"] & by_split["test"]


def test_its_templates_are_not_the_corpus_templates() -> None:
    corpus = {t.name for t in all_templates()}
    assert corpus.isdisjoint(t.name for t in outside_templates())


def test_dev_set_is_international_short_and_partly_empty(outside) -> None:
    dev = [d for d in outside if d.split == "test"]
    assert len(dev) >= 100
    assert all(len(d.text.split()) <= 80 for d in dev)
    empty = sum(1 for d in dev if not d.pii)
    assert 0.1 <= empty / len(dev) <= 0.35
    labels = Counter(s.label for d in dev for s in d.pii)
    assert {"NAME", "ADDRESS", "PHONE", "DATE", "EMAIL", "ACCOUNT", "SSN"} <= set(labels)
    texts = " ".join(d.text for d in dev)
    assert "Coucou" in texts and "Bonjour" in texts, "French texts"
    names = [d.span_text(s) for d in dev for s in d.pii if s.label == "NAME"]
    assert sum(not name.isascii() for name in names) >= 10


@pytest.mark.slow
def test_generation_is_deterministic_and_seeded() -> None:
    first = generate_outside_suite("probe", seed=1, train=4, test=4)
    assert first == generate_outside_suite("probe", seed=1, train=4, test=4)
    assert [d.text for d in first] != [d.text for d in generate_outside_suite("probe", 2, 4, 4)]
