"""Load the recognizers and the per-category rule sets from their YAML files.

Everything is checked at load time — unknown validators, labels outside
`prompts/labels.yaml`, unknown recognizers or categories, patterns that do not compile — so
a bad edit fails on import with a message that names the file and the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import Field, PositiveInt, ValidationError, model_validator

from redacto.document import Category, Frozen
from redacto.host.resources import shipped_dir
from redacto.rules.lookbehind_shift import shift_lookbehinds
from redacto.rules.validators import LIST_VALIDATORS, VALIDATORS, Validator

RULES_DIR = Path(__file__).resolve().parent
RECOGNIZERS_FILE = RULES_DIR / "recognizers.yaml"
CATEGORIES_FILE = RULES_DIR / "categories.yaml"

# ASCII semantics match java.util.regex's defaults, so both languages read patterns alike.
REGEX_FLAGS = re.ASCII


class RulesConfigError(ValueError):
    """A rules YAML file, or the label vocabulary it refers to, is malformed."""


class ContextSpec(Frozen):
    """Phrases that must appear among the `window` words before a match."""

    words: tuple[str, ...] = Field(min_length=1)
    window: int = Field(default=4, ge=1, le=20)


def context_phrases(context: ContextSpec | None) -> tuple[tuple[str, ...], ...]:
    """`context`'s words split into lower-case word runs, ready to be compared with a
    text's words (`CONTEXT_WORD`)."""
    return tuple(tuple(phrase.lower().split()) for phrase in context.words) if context else ()


_Character = Annotated[str, Field(min_length=1, max_length=1)]
_Needle = Annotated[str, Field(min_length=1)]


class PrefilterSpec(Frozen):
    """What every match of a pattern needs of the text it is searched in, proved from the
    regex by `devtools/generated/rule_prefilter.py` and written beside it; `prefilter` reads it.

    The text as searched (OCR's O read as zero) holds `digits` ASCII digits, and for each
    character of `counts` that many of it, within some `width` characters in a row (`width`
    None: anywhere); one needle of each `one_of` group: a one-character needle exactly, a
    longer one case-insensitively; and one run of each `word_starts` group, case-insensitively,
    where no ASCII letter or digit precedes it.
    """

    width: int | None = Field(default=None, ge=1)
    digits: int = Field(default=0, ge=0)
    counts: dict[_Character, PositiveInt] = Field(default_factory=dict)
    one_of: tuple[tuple[_Needle, ...], ...] = ()
    word_starts: tuple[tuple[_Needle, ...], ...] = ()


class PatternSpec(Frozen):
    """One regular expression of a recognizer, as written in the YAML."""

    name: str
    regex: str
    validator: str | None = None
    needs_context: bool = False
    prefilter: PrefilterSpec | None = None


class RecognizerSpec(Frozen):
    label: str
    description: str
    validator: str | None = None
    needs_context: bool = False
    context: ContextSpec | None = None
    patterns: tuple[PatternSpec, ...] = ()
    patterns_from: str | None = None
    lists: dict[str, tuple[str, ...]] | None = None
    """Word lists its validator judges by (`LIST_VALIDATORS`), by name."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """A compiled pattern with its validator and whether it needs context words.

    `regex` is the pattern as written; `search` is the same regex with its leading
    lookbehinds moved behind its first character so that Python finds its matches faster
    (`lookbehind_shift`), and is what the scan runs. `prefilter` is what every match needs
    of a text (None: nothing known, the pattern always runs).
    """

    name: str
    regex: re.Pattern[str]
    validator_name: str | None
    needs_context: bool

    validator: Validator | None
    search: re.Pattern[str]
    prefilter: PrefilterSpec | None = None


CONTEXT_WORD = re.compile(r"[A-Za-z0-9]+", re.ASCII)
"""A word of a text as context phrases are compared with it (lower-cased): the context test
(`matching`) and the prefilter's check that a phrase is present (`prefilter`) must agree."""


@dataclass(frozen=True, slots=True)
class Recognizer:
    """A named detector of one kind of identifier: patterns, validators, context, label.

    `context_phrases` are the context words split into lower-case word runs, ready to be
    compared with the words before a match.
    """

    name: str
    label: str
    description: str
    patterns: tuple[Pattern, ...]
    context: ContextSpec | None
    context_phrases: tuple[tuple[str, ...], ...] = ()


class PreserveRule(Frozen):
    """Keeps a recognizer's match readable: when its digits fully match `digits` (a
    toll-free number), or when one of `context`'s phrases stands among the `window` words
    before it, read as a recognizer's context is (a publication date: "Run date 2026-06-05").
    A rule has exactly one of the two."""

    recognizer: str
    digits: str | None = None
    context: ContextSpec | None = None
    reason: str

    @model_validator(mode="after")
    def _one_test(self) -> PreserveRule:
        if (self.digits is None) == (self.context is None):
            raise ValueError("a preserve rule has exactly one of `digits` and `context`")
        return self

    @cached_property
    def context_phrases(self) -> tuple[tuple[str, ...], ...]:
        """The context words split into lower-case word runs, as a recognizer's are (split
        once: the matcher asks for them at every match the rule may keep)."""
        return context_phrases(self.context)

    def keeps_digits(self, recognizer: str, value: str) -> bool:
        """A `digits` rule of `recognizer` holds for `value` (a context rule never does)."""
        if recognizer != self.recognizer or self.digits is None:
            return False
        only_digits = re.sub(r"[^0-9]", "", value)
        return re.fullmatch(self.digits, only_digits, REGEX_FLAGS) is not None


class CategoryRuleSet(Frozen):
    """The recognizers a category runs (in priority order) and what it preserves."""

    category: Category
    recognizers: tuple[str, ...]
    preserve: tuple[PreserveRule, ...] = ()


@dataclass(frozen=True)
class RuleCatalog:
    """Every recognizer, by name in priority order, and every category's rule set."""

    recognizers: dict[str, Recognizer]
    categories: dict[Category, CategoryRuleSet]


def _read_yaml(path: Path, top_key: str) -> dict:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesConfigError(f"missing file: {path}") from None
    except yaml.YAMLError as error:
        raise RulesConfigError(f"{path}: invalid YAML: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get(top_key), dict):
        raise RulesConfigError(f"{path}: expected a mapping under '{top_key}:'")
    return data[top_key]


def load_label_names(path: Path | None = None) -> frozenset[str]:
    """The label vocabulary's names, from `prompts/labels.yaml` (the shipped one by default)."""
    if path is None:
        path = shipped_dir("prompts") / "labels.yaml"
    return frozenset(str(name) for name in _read_yaml(path, "labels"))


def _build_recognizer(
    name: str, spec: RecognizerSpec, specs: dict[str, RecognizerSpec], path: Path
) -> Recognizer:
    source = spec
    if spec.patterns_from is not None:
        if spec.patterns:
            raise RulesConfigError(f"{path}: {name}: give patterns or patterns_from, not both")
        named = specs.get(spec.patterns_from)
        if named is None or named.patterns_from is not None:
            raise RulesConfigError(f"{path}: {name}: patterns_from must name a plain recognizer")
        source = named
    if not source.patterns:
        raise RulesConfigError(f"{path}: {name}: no patterns")
    lists = spec.lists if spec.lists is not None else source.lists
    patterns = []
    for pattern in source.patterns:
        validator_name = pattern.validator or source.validator or spec.validator
        validator = _validator(validator_name, lists, f"{path}: {name}")
        needs_context = spec.needs_context or source.needs_context or pattern.needs_context
        if needs_context and spec.context is None:
            raise RulesConfigError(f"{path}: {name}: {pattern.name} needs context words")
        try:
            compiled = re.compile(pattern.regex, REGEX_FLAGS)
        except re.error as error:
            raise RulesConfigError(f"{path}: {name}.{pattern.name}: bad regex: {error}") from None
        patterns.append(
            Pattern(
                pattern.name,
                compiled,
                validator_name,
                needs_context,
                validator,
                shift_lookbehinds(compiled),
                pattern.prefilter,
            )
        )
    if spec.lists is not None and not any(p.validator_name in LIST_VALIDATORS for p in patterns):
        raise RulesConfigError(
            f"{path}: {name}: `lists:` given, but none of its validators reads word lists"
        )
    return Recognizer(
        name,
        spec.label,
        spec.description,
        tuple(patterns),
        spec.context,
        context_phrases(spec.context),
    )


def _validator(
    validator_name: str | None, lists: dict[str, tuple[str, ...]] | None, where: str
) -> Validator | None:
    """The named validator; one that judges by word lists is built from `lists`."""
    if validator_name is None:
        return None
    if validator_name in LIST_VALIDATORS:
        if lists is None:
            raise RulesConfigError(f"{where}: validator {validator_name!r} needs `lists:`")
        try:
            return LIST_VALIDATORS[validator_name](lists)
        except ValueError as error:
            raise RulesConfigError(f"{where}: lists: {error}") from None
    if validator_name not in VALIDATORS:
        raise RulesConfigError(f"{where}: unknown validator {validator_name!r}")
    return VALIDATORS[validator_name]


def load_recognizers(
    path: Path = RECOGNIZERS_FILE, labels: frozenset[str] | None = None
) -> dict[str, Recognizer]:
    """Every recognizer in `recognizers.yaml`, in file (priority) order."""
    labels = load_label_names() if labels is None else labels
    specs: dict[str, RecognizerSpec] = {}
    for name, entry in _read_yaml(path, "recognizers").items():
        try:
            specs[name] = RecognizerSpec(**(entry or {}))
        except (TypeError, ValidationError) as error:
            raise RulesConfigError(f"{path}: recognizer {name}: {error}") from None
        if specs[name].label not in labels:
            raise RulesConfigError(
                f"{path}: recognizer {name}: label {specs[name].label!r} is not in "
                f"prompts/labels.yaml ({', '.join(sorted(labels))})"
            )
    return {name: _build_recognizer(name, spec, specs, path) for name, spec in specs.items()}


def load_categories(
    recognizers: dict[str, Recognizer], path: Path = CATEGORIES_FILE
) -> dict[Category, CategoryRuleSet]:
    """Each category's rule set; its recognizers are put in priority order."""
    priority = {name: position for position, name in enumerate(recognizers)}
    rule_sets: dict[Category, CategoryRuleSet] = {}
    for name, entry in _read_yaml(path, "categories").items():
        try:
            rule_set = CategoryRuleSet(category=name, **(entry or {}))
        except (TypeError, ValidationError) as error:
            raise RulesConfigError(f"{path}: category {name}: {error}") from None
        named = set(rule_set.recognizers) | {rule.recognizer for rule in rule_set.preserve}
        unknown = sorted(named - set(recognizers))
        if unknown:
            raise RulesConfigError(f"{path}: category {name}: unknown recognizers {unknown}")
        for rule in rule_set.preserve:
            if rule.digits is None:
                continue
            try:
                re.compile(rule.digits, REGEX_FLAGS)
            except re.error as error:
                raise RulesConfigError(f"{path}: {name}: bad preserve regex: {error}") from None
        ordered = tuple(sorted(set(rule_set.recognizers), key=priority.__getitem__))
        rule_sets[rule_set.category] = rule_set.model_copy(update={"recognizers": ordered})
    missing = [category.value for category in Category if category not in rule_sets]
    if missing:
        raise RulesConfigError(f"{path}: categories without rules: {missing}")
    return rule_sets


def load_catalog() -> RuleCatalog:
    """The recognizers and category rule sets shipped with the package."""
    recognizers = load_recognizers()
    return RuleCatalog(recognizers=recognizers, categories=load_categories(recognizers))
