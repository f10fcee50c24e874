"""Document templates: one module per category, each template writes gold-marked text.

A template is a function from `Values` to markup (see `redacto.corpus.markup`). Each one
belongs to exactly one split, so `train` and `test` never share a template; its layout
tells the renderer how to draw the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from redacto.corpus.schema import Layout
from redacto.corpus.values import Values
from redacto.document import Category

Writer = Callable[[Values], str]


@dataclass(frozen=True)
class Template:
    """A document type of one category, drawn in one layout, used by one split."""

    name: str
    category: Category
    document_type: str
    layout: Layout
    split: Literal["train", "test"]
    write: Writer


_REGISTRY: list[Template] = []


def template(
    name: str,
    category: Category,
    document_type: str,
    layout: Layout,
    split: Literal["train", "test"],
) -> Callable[[Writer], Writer]:
    """Register a writer as a template (the decorator every category module uses)."""

    def register(write: Writer) -> Writer:
        if any(existing.name == name for existing in _REGISTRY):
            raise ValueError(f"template {name!r} registered twice")
        _REGISTRY.append(Template(name, category, document_type, layout, split, write))
        return write

    return register


def all_templates() -> tuple[Template, ...]:
    """Every template, in registration order (stable: it feeds the seeded generator)."""
    from redacto.corpus.templates import (  # noqa: F401  (importing registers them)
        field_service,
        financial,
        general,
        journalism,
        legal,
        medical,
        tactical,
    )

    return tuple(_REGISTRY)


def templates_for(category: Category, split: Literal["train", "test"]) -> list[Template]:
    """The templates one category offers one split."""
    return [t for t in all_templates() if t.category is category and t.split == split]
