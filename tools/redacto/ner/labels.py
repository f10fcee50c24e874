"""Rampart's entity types as the pipeline's labels, per category (`labels.yaml` beside this).

A type becomes the first of its labels the document's category allows; a type none of whose
labels the category allows is dropped, as a model line naming a label outside the
category's list is. A type with a `recognizer` is kept readable where that recognizer's
preserve rules keep the value (`redacto.rules`: a toll-free number in a Financial page).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType

import yaml

from redacto.document import Category, Frozen
from redacto.text.not_identifiers import CURRENCIES

ENTITY_TYPES = (
    "GIVEN_NAME",
    "SURNAME",
    "EMAIL",
    "PHONE",
    "URL",
    "TAX_ID",
    "BANK_ACCOUNT",
    "ROUTING_NUMBER",
    "GOVERNMENT_ID",
    "PASSPORT",
    "DRIVERS_LICENSE",
    "BUILDING_NUMBER",
    "STREET_NAME",
    "SECONDARY_ADDRESS",
    "CITY",
    "STATE",
    "ZIP_CODE",
)
"""Rampart's entity types, in the order of its `config.json` (B-/I- pairs after `O`)."""

LONE_NOT_AN_ADDRESS = frozenset({"CITY", "STATE"})
"""A span made only of these is a city or region on its own, which prompts/labels.yaml
says is no ADDRESS: it is dropped."""


def is_amount(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a bare number written as an amount (`1687 EUR`, `€ 318`,
    `$196`): every category preserves amounts (prompts/categories.yaml), and Rampart read
    "under 1687 EUR" as a building number on the outside set's texts with nothing to find.
    A value that holds its currency (`£1568`) is `redacto.text.not_identifiers`' concern."""
    value = text[start:end]
    if not value or not all(c.isdigit() or c in ".,'\u00a0 " for c in value):
        return False
    after = text[end:].split(maxsplit=1)
    before = text[:start].split()
    next_word = after[0].strip(".,;:!?)").casefold() if after else ""
    previous = before[-1].casefold() if before else ""
    glued = text[start - 1 : start] if start else ""
    return next_word in CURRENCIES or previous in CURRENCIES or glued in CURRENCIES


class EntityMapping(Frozen):
    """One entity type's labels in order of preference, and the recognizer it is kept
    readable with."""

    labels: tuple[str, ...]
    recognizer: str | None = None


@cache
def _labels_yaml() -> dict:
    text = files("redacto.ner").joinpath("labels.yaml").read_text(encoding="utf-8")
    return dict(yaml.safe_load(text))


@cache
def field_words() -> frozenset[str]:
    """Words that name a field (`email`, `tél`): never a value (`labels.yaml`)."""
    return frozenset(word.casefold() for word in _labels_yaml()["field_words"])


@cache
def entity_mappings() -> Mapping[str, EntityMapping]:
    """Every entity type's mapping, read from `labels.yaml`."""
    raw = _labels_yaml()["entities"]
    mappings = {name: EntityMapping.model_validate(entry) for name, entry in raw.items()}
    if tuple(mappings) != ENTITY_TYPES:
        raise ValueError(f"labels.yaml must map exactly {ENTITY_TYPES}, in that order")
    return MappingProxyType(mappings)


def label_for(entity: str, allowed: Collection[str]) -> str | None:
    """The pipeline label `entity` takes in a category allowing `allowed`, or None."""
    mapping = entity_mappings().get(entity)
    if mapping is None:
        return None
    return next((label for label in mapping.labels if label in allowed), None)


ROLE_WINDOW = 3
"""Words before a span where its category's role words are looked for."""


def _per_category(key: str) -> Mapping[Category, frozenset[str]]:
    raw = _labels_yaml()[key]
    return MappingProxyType(
        {Category(name): frozenset(w.casefold() for w in words) for name, words in raw.items()}
    )


@cache
def preserve_roles() -> Mapping[Category, frozenset[str]]:
    """Each category's role words (`labels.yaml`): a span beside one is kept readable."""
    return _per_category("preserve_roles")


@cache
def identifier_roles() -> Mapping[Category, frozenset[str]]:
    """Each category's role words that keep only a number beside them (`badge`, `apn`)."""
    return _per_category("identifier_roles")


@cache
def held_identifier_roles() -> frozenset[str]:
    """Identifier roles whose number is a person's (`badge`): kept only beside a preserved
    role (`labels.yaml`)."""
    return frozenset(w.casefold() for w in _labels_yaml()["held_identifier_roles"])


@cache
def byline_openers() -> Mapping[Category, frozenset[str]]:
    """Words that open a byline (`By John Butler`), per category."""
    return _per_category("byline_openers")


@cache
def equipment_makes() -> Mapping[Category, frozenset[str]]:
    """Equipment makes kept readable before a model code (`Carrier 24ACC636`), per category."""
    return _per_category("equipment_makes")


def _bare(word: str) -> str:
    return word.strip(".,;:!?()[]\"'«»").casefold()


def _line_start(text: str, start: int) -> int:
    return text.rfind("\n", 0, start) + 1


def _line_after(text: str, end: int) -> str:
    line_end = text.find("\n", end)
    return text[end : len(text) if line_end < 0 else line_end]


def has_role(text: str, start: int, end: int, category: Category, label: str) -> bool:
    """Whether a role word the category preserves stands among the `ROLE_WINDOW` words before
    text[start:end] on its line, is the span's own first word (`Hon. Jaclyn Key`), or is
    among the `ROLE_WINDOW` words of an apposition after it (`Mary Cochran, Managing
    Editor`: the span or the text after it ends in a comma). A span that is no NAME also
    counts the category's identifier roles (`Case PD-25-60764`), a person's one (`badge`)
    only where a preserved role stands among the `ROLE_WINDOW` words before it (`Det. Juan
    Cannon, badge 2868`); a line that opens with a byline word and then the span is a
    byline (`By John Butler`). Image mode reads a page as its lines too
    (`ner.ner_detections`)."""
    category = Category(category)
    roles = preserve_roles().get(category, frozenset())
    line_before = text[_line_start(text, start) : start].split()
    if len(line_before) == 1 and _bare(line_before[0]) in byline_openers().get(category, ()):
        return True
    before = line_before[-ROLE_WINDOW:]
    own = text[start:end].split()[:1]
    after = _line_after(text, end)
    apposition = []
    if text[start:end].rstrip().endswith(",") or after.lstrip().startswith(","):
        apposition = after.lstrip().removeprefix(",").split()[:ROLE_WINDOW]
    near = [_bare(word) for word in [*before, *own, *apposition]]
    if any(word in roles for word in near):
        return True
    if label == "NAME":
        return False
    held = held_identifier_roles()
    unheld = identifier_roles().get(category, frozenset()) - held
    if any(word in unheld for word in near):
        return True
    # A person's identifier role (`badge`) counts where a preserved role stands among the
    # words just before it: "Det. Juan Cannon, badge 2868", not "Visitor Jo Roe badge 42".
    first = len(line_before) - len(before)
    return any(
        _bare(word) in held
        and any(_bare(w) in roles for w in line_before[max(0, first + i - ROLE_WINDOW) : first + i])
        for i, word in enumerate(before)
    )


TITLE_REACH = 3
"""Words before a name where its title may stand: `Council Member Anna Parker` reaches
`Parker`'s title over one given name."""

NAME_ENDS = (",", ";", ":", ".", "!", "?")
"""A word ending so closes the name before it (`Officer Smith, John Doe`)."""


def titled(text: str, start: int, end: int, category: Category) -> bool:
    """Whether text[start:end] is a name under a title its category preserves: a capitalised
    role word opening it or standing right before it, with at most the name's other
    capitalised words between (`Hon. Belinda Orozco`, `Council Member Anna Parker`, `Det.
    Tammy Young`, and `Orozco` alone there). A lower-case role is a description, not a title
    (`our new member Gilbert Torres`), and a punctuated word ends the name (`Officer Smith,
    John Doe`). Stricter than `has_role`, for the model's names
    (`redacto.pipeline.kept_readable`): the model read the context already, so only a title
    overrules it."""
    roles = preserve_roles().get(Category(category), frozenset())

    def is_title(word: str) -> bool:
        return word[:1].isupper() and _bare(word) in roles

    own = text[start:end].split()[:1]
    if own and is_title(own[0]):
        return True
    for word in reversed(text[_line_start(text, start) : start].split()[-TITLE_REACH:]):
        if is_title(word):
            return True
        if not word[:1].isupper() or word.endswith(NAME_ENDS):
            return False
    return False


_WORD = re.compile(r"\S+")
_MODEL_CODE = re.compile(r"(?=\S*\d)(?=\S*[^\W\d_])\w[\w/-]*")


def names_equipment(text: str, start: int, end: int, category: Category) -> bool:
    """Whether every word of text[start:end] is a listed make directly followed by a model
    code on its line, or that model code (`Carrier 24ACC636`, `Navien NPE-240A`)."""
    makes = equipment_makes().get(Category(category))
    if not makes:
        return False
    line_start = _line_start(text, start)
    line = text[line_start : end + len(_line_after(text, end))]
    words = [
        (line_start + m.start(), line_start + m.end(), m.group()) for m in _WORD.finditer(line)
    ]
    covered: list[tuple[int, int]] = []
    for (make_start, _, make), (_, code_end, code) in itertools.pairwise(words):
        if _bare(make) in makes and _MODEL_CODE.fullmatch(code.rstrip(".,;:")):
            covered.append((make_start, code_end))
    inside = [(a, b) for a, b, _ in words if a < end and start < b]
    return bool(inside) and all(
        any(c_start <= a and b <= c_end for c_start, c_end in covered) for a, b in inside
    )


ORGANISATION_WINDOW = 5
"""Words after a NAME span's first (its own included) where a company form may close it."""

SENTENCE_ENDS = (".", "!", "?", ";", ":")


@cache
def organisation_forms() -> frozenset[str]:
    """Company forms (`LLC`, `GmbH`, `Group`), as written (`labels.yaml`)."""
    return frozenset(_labels_yaml()["organisation_forms"])


@cache
def organisation_connectors() -> frozenset[str]:
    """Words that join the names of a company (`&`, `and`, `y`), as written."""
    return frozenset(_labels_yaml()["organisation_connectors"])


def names_an_organisation(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is part of a company's name: a company form closes it on its
    line within `ORGANISATION_WINDOW` words (`Garcia LLC`, `Smith, Lyons and Frederick
    Field Services`), with only capitalised words and connectors between and no sentence
    ending on the way (`Tell Maria. Security will open` keeps Maria a name)."""
    # One text, so the comma after "Smith" stays on its word ("Smith,"), not a word of its own.
    words = (text[start:end] + _line_after(text, end)).split()
    for previous, word in itertools.pairwise(words[: ORGANISATION_WINDOW + 1]):
        if previous.endswith(SENTENCE_ENDS):
            return False
        bare = word.rstrip(".,;:")
        if bare in organisation_forms():
            return True
        if bare not in organisation_connectors() and not bare[:1].isupper():
            return False
    return False


def preserved(entity: str, value: str, category: Category) -> bool:
    """Whether `category`'s preserve rules keep this value readable (as for a rule hit)."""
    mapping = entity_mappings().get(entity)
    if mapping is None or mapping.recognizer is None:
        return False
    from redacto.rules import CATEGORY_RULES

    rules = CATEGORY_RULES[Category(category)].preserve
    return any(rule.keeps_digits(mapping.recognizer, value) for rule in rules)
