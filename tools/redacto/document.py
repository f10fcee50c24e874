"""The values that flow through the pipeline: elements, detections, traces.

Every step reads and writes these typed values; nothing crosses a module boundary as a
loose dict. They mirror the Kotlin data classes in `android/core` field for field.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, model_validator


class Category(StrEnum):
    """The seven redaction categories; each has its own detect and validate prompts."""

    MEDICAL = "Medical"
    FINANCIAL = "Financial"
    LEGAL = "Legal"
    TACTICAL = "Tactical"
    JOURNALISM = "Journalism"
    FIELD_SERVICE = "Field Service"
    GENERAL = "General"


class Mode(StrEnum):
    """Image mode works on indexed OCR elements; text mode on plain text spans."""

    IMAGE = "image"
    TEXT = "text"


class ImageReading(StrEnum):
    """How detect and validate read an image-mode page (a model-manifest choice).

    `indexed`: the elements as `[i] word` lines, answered with `INDEX:LABEL`. `text`: the
    page as plain text lines (`page_text.PageText`), answered with `LABEL: value` and mapped
    back onto the elements by the locator. Boxes are the elements' either way.
    """

    INDEXED = "indexed"
    TEXT = "text"


class ConstrainedDecoding(StrEnum):
    """Which `LABEL: value` calls decode under a pattern built from the page (a
    model-manifest choice, `pipeline.constraint`): none, detect's, or detect's and
    validate's. Only for an engine that can constrain decoding (LiteRT-LM)."""

    OFF = "off"
    DETECT = "detect"
    DETECT_VALIDATE = "detect+validate"

    def covers(self, step: Step) -> bool:
        """Whether calls of `step` are constrained under this setting."""
        if step is Step.DETECT:
            return self is not ConstrainedDecoding.OFF
        return step is Step.VALIDATE and self is ConstrainedDecoding.DETECT_VALIDATE


class ValidatorVerdict(StrEnum):
    """How validate's verdict is read (a model-manifest choice, `pipeline.validate`).

    `answer`: the first line of the validator's free reply. `scored`: PASS only when
    log P(`PASS`) − log P(`FAIL`) as the reply's start reaches the manifest's `pass_margin`
    (the engine must score: LiteRT-LM on the workstation); otherwise the free reply is still
    generated for the missed items, and the verdict is FAIL.
    """

    ANSWER = "answer"
    SCORED = "scored"


class Step(StrEnum):
    """The four LLM-driven steps. Engines and traces are keyed by these names."""

    CLASSIFY = "classify"
    DETECT = "detect"
    REDACT = "redact"
    VALIDATE = "validate"


class Source(StrEnum):
    """Who found a detection: a checksum rule, the NER tier (`redacto.ner`), the detector,
    the validator, the rules or the NER tier reading the redacted output again (validate's
    second opinion, `pipeline.second_opinion`), the residual check under `--strict` (a word
    no reader could explain, `redacto.lexicon`), or a person reviewing the run (`redacto
    serve`)."""

    RULE = "rule"
    NER = "ner"
    DETECT = "detect"
    VALIDATE = "validate"
    VALIDATE_RULES = "validate-rules"
    VALIDATE_NER = "validate-ner"
    LEXICON = "lexicon"
    REVIEWER = "reviewer"


class Detector(StrEnum):
    """The three kinds of reader a run can use (`PipelineOptions.detectors`): the checksum
    rules, the NER token classifier, the LLM (classify, detect, validate). Their hits are
    unioned by word, never subtracted (DESIGN.md, "Three detectors, one answer")."""

    RULES = "rules"
    NER = "ner"
    MODEL = "model"

    @classmethod
    def parse_list(cls, text: str) -> frozenset[Detector]:
        """`rules,ner,model` (any subset, any order) as a set; unknown names raise
        ValueError naming the known ones."""
        names = [name.strip().lower() for name in text.split(",") if name.strip()]
        known = ", ".join(detector.value for detector in cls)
        unknown = [name for name in names if name not in {d.value for d in cls}]
        if unknown or not names:
            raise ValueError(f"unknown detectors {unknown or [text]}; choose from {known}")
        return frozenset(cls(name) for name in names)


ALL_DETECTORS = frozenset(Detector)

DEFAULT_DETECTORS = ALL_DETECTORS
"""The tiers a run reads with unless told otherwise, one choice for every face: the
Python API (`redacto.Redactor`), `redacto redact`, `eval run`, `serve` and `proofread`."""

LIBRARY_DETECTORS = frozenset({Detector.RULES, Detector.MODEL})
"""The pipeline core's own default (`PipelineOptions`, and Kotlin's `Detector.LIBRARY`
alike): a caller of `run_pipeline` that names no tiers loads no NER model, and the shared
vectors and the core's tests pin rules + model. Every face reads with `DEFAULT_DETECTORS`
(docs/ner.md, docs/api.md)."""


def detectors_text(detectors: frozenset[Detector]) -> str:
    """`rules,ner,model` in the fixed order, for run names and reports."""
    return ",".join(detector.value for detector in Detector if detector in detectors)


class Status(StrEnum):
    """Outcome of one run. A run that could not be verified is never PASS."""

    PASS = "PASS"
    NEEDS_REVIEW = "NEEDS_REVIEW"
    ERROR = "ERROR"


class Frozen(BaseModel):
    """The one strict base for typed values: immutable, and unknown fields are an error
    (a misspelt key in a manifest, a report or a suite file fails loudly)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Box(Frozen):
    """An axis-aligned rectangle in pixels of the original image (x1, y1 exclusive).

    Coordinates are finite: a NaN or infinite corner cannot be drawn, so it is refused here.
    """

    x0: FiniteFloat
    y0: FiniteFloat
    x1: FiniteFloat
    y1: FiniteFloat

    @model_validator(mode="after")
    def _ordered(self) -> Box:
        if self.x1 < self.x0 or self.y1 < self.y0:
            raise ValueError(f"box corners out of order: {self}")
        return self

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return self.width * self.height

    def as_list(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]


class Element(Frozen):
    """One word of the document: its global reading-order index, text and (for images) box."""

    index: int = Field(ge=0)
    text: str
    box: Box | None = None
    page: int = 0


class Document(Frozen):
    """What the pipeline redacts: indexed elements (image mode) or plain text (text mode)."""

    mode: Mode
    elements: tuple[Element, ...] = ()
    text: str = ""
    image_size: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Document:
        for position, element in enumerate(self.elements):
            if element.index != position:
                raise ValueError("element indices must be 0..n-1 in reading order")
        return self

    @classmethod
    def from_text(cls, text: str) -> Document:
        return cls(mode=Mode.TEXT, text=text)

    @classmethod
    def from_elements(
        cls, elements: list[Element], image_size: tuple[int, int] | None = None
    ) -> Document:
        return cls(mode=Mode.IMAGE, elements=tuple(elements), image_size=image_size)

    def plain_text(self) -> str:
        """The document as one string: the text itself, or the elements joined by spaces."""
        if self.mode is Mode.TEXT:
            return self.text
        return " ".join(element.text for element in self.elements)


PLACEHOLDER_PATTERN = re.compile(r"\[([A-Z][A-Z0-9]*)_(\d+)\]")
"""`[NAME_1]`, what a redacted value becomes in text: the one grammar for placeholders (the
redact step writes and reads them, prompt examples are checked against it). Labels are
single upper-case words (prompts/labels.yaml), so this is exact."""


class Span(Frozen):
    """A character range [start, end) in a text-mode document."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)


class Detection(Frozen):
    """One identifier found: by element index (image mode) or by value/span (text mode)."""

    label: str
    source: Source
    round: int = Field(ge=1)
    index: int | None = None
    value: str | None = None
    span: Span | None = None
