"""Load `prompts/` into typed, statically rendered prompt variants.

A prompt file is Markdown: YAML front-matter, then a Jinja2 body with two sections marked
`<!-- system -->` and `<!-- user -->`. At load time the body is rendered once per mode with
everything static (labels, category rules, few-shot examples, mode). The pipeline's runtime
values stay in the text as plain `{{name}}` placeholders that `PromptTemplate.render`
substitutes in one pass, so the Kotlin app, which holds the very same strings, can
substitute them the very same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import jinja2
import yaml
from pydantic import Field, ValidationError, field_validator

from redacto.document import Category, Frozen, Mode, Step
from redacto.prompts.examples import ExampleSet, load_examples

OutputFormat = Literal[
    "category_lines",
    "index_label",
    "label_text",
    "redacted_text",
    "verdict_index_label",
    "verdict_label_text",
]

# The only runtime variables the pipeline fills in, per (step, mode). Image-mode redaction
# is deterministic, so it has no prompt.
PIPELINE_VARIABLES: dict[tuple[Step, Mode], tuple[str, ...]] = {
    (Step.CLASSIFY, Mode.IMAGE): ("document",),
    (Step.CLASSIFY, Mode.TEXT): ("document",),
    (Step.DETECT, Mode.IMAGE): ("elements",),
    (Step.DETECT, Mode.TEXT): ("document",),
    (Step.REDACT, Mode.TEXT): ("document", "detections"),
    (Step.VALIDATE, Mode.IMAGE): ("elements",),
    (Step.VALIDATE, Mode.TEXT): ("document",),
}

# What each parser expects from each (step, mode).
OUTPUT_FORMATS: dict[tuple[Step, Mode], OutputFormat] = {
    (Step.CLASSIFY, Mode.IMAGE): "category_lines",
    (Step.CLASSIFY, Mode.TEXT): "category_lines",
    (Step.DETECT, Mode.IMAGE): "index_label",
    (Step.DETECT, Mode.TEXT): "label_text",
    (Step.REDACT, Mode.TEXT): "redacted_text",
    (Step.VALIDATE, Mode.IMAGE): "verdict_index_label",
    (Step.VALIDATE, Mode.TEXT): "verdict_label_text",
}

SYSTEM_MARKER = "<!-- system -->"
USER_MARKER = "<!-- user -->"
PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")
LABEL_NAME = re.compile(r"^[A-Z]+$")


class PromptError(ValueError):
    """A prompt file, the label vocabulary or the category rules are malformed."""


def default_prompts_dir() -> Path:
    """The shipped prompts: the wheel's copy, or the checkout's `prompts/` (`resources`)."""
    from redacto.host.resources import shipped_dir

    return shipped_dir("prompts")


class Label(Frozen):
    """One entry of the vocabulary: its name, full definition and the prompt hint."""

    name: str
    definition: str
    hint: str


class LabelVocabulary:
    """The label names every prompt, parser and scorer shares (`prompts/labels.yaml`)."""

    def __init__(self, labels: tuple[Label, ...]) -> None:
        self._labels = {label.name: label for label in labels}
        self.names: tuple[str, ...] = tuple(label.name for label in labels)

    def __contains__(self, name: object) -> bool:
        return name in self._labels

    def __iter__(self):
        return iter(self._labels.values())

    def definition(self, name: str) -> str:
        """The full meaning of a label; KeyError names the unknown label."""
        return self._get(name).definition

    def hint(self, name: str) -> str:
        """The few words a prompt shows for a label."""
        return self._get(name).hint

    def _get(self, name: str) -> Label:
        try:
            return self._labels[name]
        except KeyError:
            raise KeyError(f"unknown label {name!r}; known: {', '.join(self.names)}") from None


class CategoryRules(Frozen):
    """What one category redacts and preserves (`prompts/categories.yaml`)."""

    category: Category
    slug: str = Field(pattern=r"^[a-z_]+$")
    kind: str
    describes: str
    labels: tuple[str, ...] = Field(min_length=1)
    redact: tuple[str, ...] = Field(min_length=1)
    preserve: tuple[str, ...] = Field(min_length=1)


class FrontMatter(Frozen):
    """The header every prompt file carries."""

    name: str = Field(pattern=r"^[a-z_]+(\.[a-z_]+)?$")
    step: Step
    category: Category | None = None
    version: str = Field(pattern=r"^\d+(\.\d+)*$")
    description: str
    modes: tuple[Mode, ...] = Field(min_length=1)
    output_format: dict[Mode, OutputFormat]
    labels: tuple[str, ...]
    examples: str | None = None

    @field_validator("version", mode="before")
    @classmethod
    def _version_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int | float) else value


@dataclass(frozen=True)
class PromptTemplate:
    """One prompt variant, statically rendered; runtime variables remain as `{{name}}`."""

    name: str
    version: str
    step: Step
    category: Category | None
    mode: Mode
    output_format: OutputFormat
    labels: tuple[str, ...]
    system: str
    user: str
    variables: tuple[str, ...]
    source: Path

    def render(self, **runtime: str) -> tuple[str, str]:
        """Return (system, user) with every `{{name}}` replaced by its runtime value.

        Substitution is a single left-to-right pass over the template: a value is never
        scanned again, so a document that itself contains `{{detections}}` stays as it is.
        A missing or unexpected variable is a ValueError.
        """
        missing = sorted(set(self.variables) - set(runtime))
        unexpected = sorted(set(runtime) - set(self.variables))
        if missing or unexpected:
            raise ValueError(
                f"prompt {self.name} ({self.mode}) takes variables {list(self.variables)}; "
                f"missing {missing}, unexpected {unexpected}"
            )
        for key, value in runtime.items():
            if not isinstance(value, str):
                raise ValueError(f"variable {key!r} must be a str, got {type(value).__name__}")
        return substitute(self.system, runtime), substitute(self.user, runtime)


def substitute(template: str, values: dict[str, str]) -> str:
    """Replace `{{name}}` for each name in `values` in one pass; other text is untouched."""

    def replace(match: re.Match[str]) -> str:
        return values.get(match.group(1), match.group(0))

    return PLACEHOLDER.sub(replace, template)


class PromptLibrary:
    """Every prompt variant, the label vocabulary and the category rules, loaded once."""

    def __init__(
        self,
        root: Path,
        labels: LabelVocabulary,
        rules: dict[Category, CategoryRules],
        templates: dict[tuple[Step, Mode, Category | None], PromptTemplate],
    ) -> None:
        self.root = root
        self.labels = labels
        self.rules = rules
        self._templates = templates

    @classmethod
    def load(cls, root: Path | None = None) -> PromptLibrary:
        """Load and check everything under `root` (default: the repo's `prompts/`)."""
        root = (root or default_prompts_dir()).resolve()
        if not root.is_dir():
            raise PromptError(f"prompts folder not found: {root}")
        labels = _load_labels(root / "labels.yaml")
        rules = _load_categories(root / "categories.yaml", labels)
        loader = _Loader(root, labels, rules)
        templates: dict[tuple[Step, Mode, Category | None], PromptTemplate] = {}
        paths = [root / "classify.md", root / "redact.md"]
        for category_rules in rules.values():
            paths += [root / category_rules.slug / f"{step}.md" for step in ("detect", "validate")]
        for path in paths:
            for template in loader.load_file(path):
                key = (template.step, template.mode, template.category)
                if key in templates:
                    raise PromptError(f"{path}: a second prompt for {key}")
                templates[key] = template
        return cls(root, labels, rules, templates)

    def category_labels(self, category: Category) -> tuple[str, ...]:
        """The labels a category's detector and validator may emit."""
        return self.rules[category].labels

    def prompt(self, step: Step, mode: Mode, category: Category | None = None) -> PromptTemplate:
        """The variant for a step and mode; detect and validate also need the category.

        Classify and redact are universal: the category is ignored. Redact exists only in
        text mode (image-mode redaction is deterministic).
        """
        if step in (Step.CLASSIFY, Step.REDACT):
            category = None
        elif category is None:
            raise ValueError(f"the {step} prompt needs a category")
        try:
            return self._templates[(step, mode, category)]
        except KeyError:
            raise ValueError(f"no {step} prompt for mode {mode}") from None

    def templates(self) -> tuple[PromptTemplate, ...]:
        """All variants in a stable order: by step, category order, then mode."""
        step_order = list(Step)
        category_order = [None, *Category]
        mode_order = list(Mode)
        return tuple(
            sorted(
                self._templates.values(),
                key=lambda t: (
                    step_order.index(t.step),
                    category_order.index(t.category),
                    mode_order.index(t.mode),
                ),
            )
        )

    def examples(self, category: Category) -> ExampleSet:
        """The few-shot examples kept beside a category's prompts."""
        return load_examples(self.root / self.rules[category].slug / "examples.yaml", self.labels)


def _read_yaml(path: Path) -> object:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PromptError(f"missing file: {path}") from None
    except yaml.YAMLError as error:
        raise PromptError(f"{path}: invalid YAML: {error}") from None


def _load_labels(path: Path) -> LabelVocabulary:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("labels"), dict):
        raise PromptError(f"{path}: expected a mapping 'labels: {{NAME: {{definition, hint}}}}'")
    labels = []
    for name, entry in data["labels"].items():
        if not LABEL_NAME.match(str(name)):
            raise PromptError(f"{path}: label {name!r} must be one upper-case word")
        try:
            labels.append(Label(name=name, **(entry or {})))
        except (TypeError, ValidationError) as error:
            raise PromptError(f"{path}: label {name}: {error}") from None
    return LabelVocabulary(tuple(labels))


def _load_categories(path: Path, labels: LabelVocabulary) -> dict[Category, CategoryRules]:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("categories"), dict):
        raise PromptError(f"{path}: expected a mapping 'categories: {{Medical: {{...}}}}'")
    rules: dict[Category, CategoryRules] = {}
    for name, entry in data["categories"].items():
        try:
            category_rules = CategoryRules(category=name, **(entry or {}))
        except (TypeError, ValidationError) as error:
            raise PromptError(f"{path}: category {name}: {error}") from None
        unknown = [label for label in category_rules.labels if label not in labels]
        if unknown:
            raise PromptError(f"{path}: category {name} uses unknown labels {unknown}")
        rules[category_rules.category] = category_rules
    missing = [category.value for category in Category if category not in rules]
    if missing:
        raise PromptError(f"{path}: categories without rules: {missing}")
    return rules


def split_front_matter(path: Path) -> tuple[dict, str]:
    """Split a prompt file into its YAML header and its Jinja body."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"\A---\n(.*?)\n---\n(.*)\Z", text, re.DOTALL)
    if not match:
        raise PromptError(f"{path}: must start with '---' YAML front-matter '---'")
    try:
        header = yaml.safe_load(match.group(1))
    except yaml.YAMLError as error:
        raise PromptError(f"{path}: invalid front-matter: {error}") from None
    if not isinstance(header, dict):
        raise PromptError(f"{path}: front-matter must be a mapping")
    return header, match.group(2)


class _Loader:
    """Renders prompt files against one vocabulary and set of category rules."""

    def __init__(
        self, root: Path, labels: LabelVocabulary, rules: dict[Category, CategoryRules]
    ) -> None:
        self.root = root
        self.labels = labels
        self.rules = rules
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(root),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
            autoescape=False,
        )

    def load_file(self, path: Path) -> list[PromptTemplate]:
        if not path.is_file():
            raise PromptError(f"missing prompt file: {path}")
        header, body = split_front_matter(path)
        try:
            meta = FrontMatter(**header)
        except ValidationError as error:
            raise PromptError(f"{path}: front-matter: {error}") from None
        self._check_meta(path, meta)
        examples = (
            load_examples(path.parent / meta.examples, self.labels) if meta.examples else None
        )
        try:
            template = self.env.from_string(body)
        except jinja2.TemplateSyntaxError as error:
            raise PromptError(f"{path}:{error.lineno}: {error.message}") from None
        return [self._render(path, meta, template, mode, examples) for mode in meta.modes]

    def _check_meta(self, path: Path, meta: FrontMatter) -> None:
        universal = meta.step in (Step.CLASSIFY, Step.REDACT)
        if universal and meta.category is not None:
            raise PromptError(f"{path}: the {meta.step} prompt is universal; drop 'category'")
        if not universal and meta.category is None:
            raise PromptError(f"{path}: a {meta.step} prompt needs a 'category'")
        if meta.category is not None and path.parent.name != self.rules[meta.category].slug:
            raise PromptError(f"{path}: category {meta.category} belongs in its own folder")
        for mode in meta.modes:
            expected = OUTPUT_FORMATS.get((meta.step, mode))
            if expected is None:
                raise PromptError(f"{path}: {meta.step} has no {mode}-mode prompt")
            if meta.output_format.get(mode) != expected:
                raise PromptError(
                    f"{path}: {meta.step} in {mode} mode must output {expected!r}, "
                    f"front-matter says {meta.output_format.get(mode)!r}"
                )
        if set(meta.output_format) != set(meta.modes):
            raise PromptError(f"{path}: output_format must name exactly the modes {meta.modes}")
        unknown = [label for label in meta.labels if label not in self.labels]
        if unknown:
            raise PromptError(f"{path}: unknown labels {unknown}")
        if meta.step is Step.CLASSIFY:
            expected_labels: tuple[str, ...] = ()
        elif meta.step is Step.REDACT:
            expected_labels = self.labels.names
        else:
            assert meta.category is not None
            expected_labels = self.rules[meta.category].labels
        if tuple(meta.labels) != expected_labels:
            raise PromptError(
                f"{path}: labels must be {list(expected_labels)} (see labels.yaml and "
                f"categories.yaml), front-matter says {list(meta.labels)}"
            )

    def _render(
        self,
        path: Path,
        meta: FrontMatter,
        template: jinja2.Template,
        mode: Mode,
        examples: ExampleSet | None,
    ) -> PromptTemplate:
        variables = PIPELINE_VARIABLES[(meta.step, mode)]
        context = {
            "step": meta.step.value,
            "mode": mode.value,
            "category": meta.category.value if meta.category else None,
            "rules": self.rules[meta.category] if meta.category else None,
            "categories": list(self.rules.values()),
            "labels": [self.labels._get(name) for name in meta.labels],
            "examples": examples.for_prompt(meta.step, mode) if examples else [],
            # Runtime values render as their own placeholder, to be filled in at run time.
            **{name: "{{" + name + "}}" for name in variables},
        }
        try:
            text = template.render(context)
        except jinja2.UndefinedError as error:
            raise PromptError(f"{path} ({mode} mode): {error.message}") from None
        system, user = _split_sections(path, text)
        used = {m.group(1) for m in PLACEHOLDER.finditer(system + user)}
        if used != set(variables):
            raise PromptError(
                f"{path} ({mode} mode): uses variables {sorted(used)}, the pipeline provides "
                f"{sorted(variables)}"
            )
        return PromptTemplate(
            name=meta.name,
            version=meta.version,
            step=meta.step,
            category=meta.category,
            mode=mode,
            output_format=meta.output_format[mode],
            labels=tuple(meta.labels),
            system=system,
            user=user,
            variables=variables,
            source=path,
        )


def _split_sections(path: Path, text: str) -> tuple[str, str]:
    if text.count(SYSTEM_MARKER) != 1 or text.count(USER_MARKER) != 1:
        raise PromptError(f"{path}: needs exactly one {SYSTEM_MARKER} and one {USER_MARKER}")
    before, _, rest = text.partition(SYSTEM_MARKER)
    system, _, user = rest.partition(USER_MARKER)
    if before.strip():
        raise PromptError(f"{path}: text before {SYSTEM_MARKER} would be lost")
    return _tidy(system), _tidy(user)


def _tidy(section: str) -> str:
    """Drop trailing spaces and runs of blank lines that Jinja control lines leave behind."""
    lines = [line.rstrip() for line in section.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
