"""Generate suites from the templates, deterministically from a seed.

Each category contributes `per_category` documents: about 60 % from its train templates and
40 % from its test templates, each with values from its split's half of the pools.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from redacto.corpus.markup import parse_markup
from redacto.corpus.schema import CorpusDocument
from redacto.corpus.templates import Template, templates_for
from redacto.corpus.values import Values
from redacto.document import Category

GENERATOR_VERSION = 3
TEST_FRACTION = 0.4


def category_slug(category: Category) -> str:
    """`Field Service` → `field_service`, as document ids and prompts/categories.yaml spell it."""
    return category.value.lower().replace(" ", "_")


def document_seed(seed: int, *parts: str | int) -> int:
    """A per-document seed that does not depend on generation order or Python's hash salt."""
    key = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def split_counts(per_category: int) -> tuple[int, int]:
    """(train, test) documents per category; a single document goes to test."""
    if per_category < 1:
        raise ValueError("per_category must be at least 1")
    test = max(1, round(per_category * TEST_FRACTION))
    return per_category - test, test


def build_document(template: Template, suite: str, seed: int, number: int) -> CorpusDocument:
    """One document from one template; its id names suite, category, split and number."""
    slug = category_slug(template.category)
    values = Values(document_seed(seed, suite, slug, template.split, number), template.split)
    text, pii, preserve = parse_markup(template.write(values))
    return CorpusDocument(
        id=f"{suite}-{slug}-{template.split}-{number:03d}",
        category=template.category,
        document_type=template.document_type,
        split=template.split,
        template=template.name,
        layout=template.layout,
        text=text,
        pii=pii,
        preserve=preserve,
    )


def generate_suite(name: str, seed: int, per_category: int) -> list[CorpusDocument]:
    """`per_category` documents for each of the 7 categories, split into train and test."""
    documents: list[CorpusDocument] = []
    train_count, test_count = split_counts(per_category)
    for category in Category:
        splits: tuple[tuple[Literal["train", "test"], int], ...] = (
            ("train", train_count),
            ("test", test_count),
        )
        for split, count in splits:
            templates = templates_for(category, split)
            if count and not templates:
                raise ValueError(f"{category.value} has no {split} templates")
            for number in range(count):
                template = templates[number % len(templates)]
                documents.append(build_document(template, name, seed, number))
    return documents
