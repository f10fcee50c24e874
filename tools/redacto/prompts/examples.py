"""Few-shot examples, kept as YAML data beside the prompts and rendered into them.

One file holds a section per step (`classify`, `detect`, `redact`, `validate`). Each
example is written once, as plain text; the image-mode form (indexed words, `INDEX:LABEL`
answers) is derived from it, so both modes teach the same judgement. Examples marked
`in_prompt: true` are rendered into the prompt; the others document hard cases for
people and for the eval. Loading checks that every labelled value really occurs in the
text, so an example can never teach the model to "correct" what it copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from pydantic import Field, ValidationError, field_validator

from redacto.document import PLACEHOLDER_PATTERN, Category, Frozen, Mode, Step

if TYPE_CHECKING:
    from redacto.prompts.library import LabelVocabulary

_EDGE_PUNCTUATION = ".,;:!?()\"'"


class Item(Frozen):
    """One labelled value, written in YAML as a one-key mapping `{NAME: Lisa}`."""

    label: str
    value: str


def _items(value: object) -> object:
    if not isinstance(value, list):
        return value
    parsed = []
    for entry in value:
        if isinstance(entry, dict) and len(entry) == 1:
            ((label, text),) = entry.items()
            parsed.append({"label": label, "value": str(text)})
        else:
            parsed.append(entry)
    return parsed


class _Example(Frozen):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    text: str = Field(min_length=1)
    why: str = ""
    in_prompt: bool = False
    modes: tuple[Mode, ...] = (Mode.IMAGE, Mode.TEXT)


class ClassifyExample(_Example):
    """A document opening and the category it belongs to."""

    document_type: str
    category: Category


class DetectExample(_Example):
    """A snippet and every identifier in it (empty: nothing to redact)."""

    items: tuple[Item, ...] = ()
    _split = field_validator("items", mode="before")(_items)


class RedactExample(_Example):
    """The original text, the detection list and the expected redacted text."""

    detections: tuple[Item, ...]
    output: str
    modes: tuple[Mode, ...] = (Mode.TEXT,)
    _split = field_validator("detections", mode="before")(_items)


class ValidateExample(_Example):
    """A redacted snippet and the identifiers still readable in it (empty: PASS)."""

    missed: tuple[Item, ...] = ()
    _split = field_validator("missed", mode="before")(_items)


@dataclass(frozen=True)
class RenderedExample:
    """An example as the prompt shows it: the input and the expected answer."""

    id: str
    input: str
    output: str
    why: str
    detections: str = ""


class ExampleSet(Frozen):
    """All examples of one file, one section per step."""

    classify: tuple[ClassifyExample, ...] = ()
    detect: tuple[DetectExample, ...] = ()
    redact: tuple[RedactExample, ...] = ()
    # `validate` would shadow a pydantic method; the YAML key stays `validate`.
    validate_: tuple[ValidateExample, ...] = Field(default=(), alias="validate")

    def section(self, step: Step) -> tuple[_Example, ...]:
        """The examples of one step."""
        return self.validate_ if step is Step.VALIDATE else getattr(self, step.value)

    def for_prompt(self, step: Step, mode: Mode) -> list[RenderedExample]:
        """The `in_prompt` examples of a step, rendered for a mode."""
        chosen = [e for e in self.section(step) if e.in_prompt and mode in e.modes]
        return [_render(step, mode, example) for example in chosen]


def load_examples(path: Path, labels: LabelVocabulary) -> ExampleSet:
    """Read and check one examples file; any inconsistency is a ValueError naming it."""
    from redacto.prompts.library import PromptError

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        examples = ExampleSet(**data)
    except FileNotFoundError:
        raise PromptError(f"missing examples file: {path}") from None
    except (yaml.YAMLError, TypeError, ValidationError) as error:
        raise PromptError(f"{path}: {error}") from None
    try:
        _check(examples, labels)
    except ValueError as error:
        raise PromptError(f"{path}: {error}") from None
    return examples


def _check(examples: ExampleSet, labels: LabelVocabulary) -> None:
    ids = [e.id for step in Step for e in examples.section(step)]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"duplicate example ids {sorted(duplicates)}")
    for example in examples.detect:
        _check_items(example.id, example.text, example.items, labels)
    for judged in examples.validate_:
        _check_items(judged.id, judged.text, judged.missed, labels)
        for match in PLACEHOLDER_PATTERN.finditer(judged.text):
            if match.group(1) not in labels:
                raise ValueError(f"{judged.id}: unknown placeholder {match.group(0)}")
    for rewrite in examples.redact:
        # Detection values may differ from the text (OCR noise, the detector's own
        # "corrections"): coping with that is the redact step's job, so no verbatim check.
        for item in rewrite.detections:
            if item.label not in labels:
                raise ValueError(f"{rewrite.id}: unknown label {item.label}")
            if not PLACEHOLDER_PATTERN.search(rewrite.output) or item.value in rewrite.output:
                raise ValueError(f"{rewrite.id}: output still shows {item.label} value")


def _check_items(
    example_id: str, text: str, items: tuple[Item, ...], labels: LabelVocabulary
) -> None:
    claimed: set[int] = set()
    for item in items:
        if item.label not in labels:
            raise ValueError(f"{example_id}: unknown label {item.label}")
        if item.value not in text:
            raise ValueError(f"{example_id}: {item.label} value is not in the text verbatim")
        claimed |= set(_word_indices(example_id, text.split(), item.value, claimed))


def _normalize(word: str) -> str:
    return word.strip(_EDGE_PUNCTUATION)


def _word_indices(example_id: str, words: list[str], value: str, claimed: set[int]) -> list[int]:
    """The indices of the words that make up `value`, as OCR would split the text."""
    wanted = [_normalize(w) for w in value.split()]
    normalized = [_normalize(w) for w in words]
    for start in range(len(words) - len(wanted) + 1):
        span = list(range(start, start + len(wanted)))
        if normalized[start : start + len(wanted)] == wanted and not claimed & set(span):
            return span
    raise ValueError(f"{example_id}: value does not line up with whole words of the text")


def _indexed(words: list[str]) -> str:
    return " ".join(f"[{index}] {word}" for index, word in enumerate(words))


def _items_answer(mode: Mode, text: str, items: tuple[Item, ...]) -> list[str]:
    if mode is Mode.TEXT:
        return [f"{item.label}: {item.value}" for item in items]
    words = text.split()
    claimed: set[int] = set()
    lines: list[tuple[int, str]] = []
    for item in items:
        span = _word_indices("", words, item.value, claimed)
        claimed |= set(span)
        lines += [(index, item.label) for index in span]
    return [f"{index}:{label}" for index, label in sorted(lines)]


def _render(step: Step, mode: Mode, example: _Example) -> RenderedExample:
    # Classify reads plain document text in both modes; only detect and validate see indices.
    indexed = mode is Mode.IMAGE and step in (Step.DETECT, Step.VALIDATE)
    shown = _indexed(example.text.split()) if indexed else example.text
    if isinstance(example, ClassifyExample):
        output = f"DOCUMENT_TYPE: {example.document_type}\nCATEGORY: {example.category.value}"
    elif isinstance(example, DetectExample):
        output = "\n".join(_items_answer(mode, example.text, example.items)) or "NONE"
    elif isinstance(example, ValidateExample):
        missed = _items_answer(mode, example.text, example.missed)
        output = "\n".join(["FAIL", *missed]) if missed else "PASS"
    elif isinstance(example, RedactExample):
        detections = "\n".join(f"{item.label}: {item.value}" for item in example.detections)
        return RenderedExample(example.id, example.text, example.output, example.why, detections)
    else:  # pragma: no cover - the ExampleSet sections are exhaustive
        raise TypeError(type(example).__name__)
    return RenderedExample(id=example.id, input=shown, output=output, why=example.why)
