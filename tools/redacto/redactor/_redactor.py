"""`Redactor`: the model, OCR and NER opened once, and any number of inputs redacted."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Self

from redacto.document import DEFAULT_DETECTORS, Category, Detector
from redacto.engines import Engine, ModelIdentity
from redacto.inputs import (
    BadInputError,
    ImageInput,
    InputFile,
    PdfInput,
    ReadOptions,
    TextInput,
    failed_run,
    input_info,
    input_kind,
    read_input,
    run_input,
)
from redacto.inputs.base import bytes_info
from redacto.models import ModelChoice, chosen_identity, open_model
from redacto.pipeline import OnEvent, PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.redactor._ocr import SharedOcr
from redacto.redactor._result import RedactResult
from redacto.report import InputInfo

if TYPE_CHECKING:
    from redacto.inputs.base import OnPage
    from redacto.ocr import OcrEngine

FileOrBytes = bytes | str | os.PathLike[str]
"""A photo or PDF: its bytes, or the path of its file."""


class RedactorClosedError(RuntimeError):
    """The `Redactor` was closed; open a new one."""


class Redactor:
    """Redact texts, photos and PDFs with one model, one OCR engine and one NER tier.

    `model`: a manifest name, a `.litertlm` path or an engine URI (`litertlm:PATH`,
    `scripted:FILE`, …) as `redacto redact --model` takes, or an open `Engine` (left open:
    its opener closes it). None is the embedded default, `redacto-270m`. `detectors`: the
    tiers that read the page, any of `rules`, `ner`, `model` (default: all three, as the
    CLI). `ocr`: the OCR engine for photos and scanned pages (`ppocr`, `tesseract`, or an
    open `OcrEngine`). `category`: what the documents are, when known (classify is
    skipped). `strict`: redact every word no reader could explain. `language`: the
    residual check's dictionary (`en`, `fr`; default: guessed per document). `text_layer`:
    whether a redacted PDF keeps its remaining words searchable.

    The model is opened at the first call that needs it and kept open; OCR at the first
    page to read; the NER tier now, so a missing NER model fails here
    (`NerUnavailableError`), before any input. Use it as a context manager, or call
    `close()`: the model it opened is closed then. One call at a time: a `Redactor` is not
    for several threads at once.

    Every call fails closed as `redacto redact` does: input that cannot be redacted as
    given raises `BadInputError` (a `ValueError`); anything else, a model that cannot open
    included, is a result whose status is `ERROR`, and a run nobody could vouch for is
    `NEEDS_REVIEW`, never `PASS`. Inputs are only read, and nothing is written to disk.
    """

    def __init__(
        self,
        model: ModelChoice = None,
        *,
        detectors: Iterable[Detector | str] | str | None = None,
        ocr: str | OcrEngine = "ppocr",
        category: Category | str | None = None,
        strict: bool = False,
        language: str | None = None,
        text_layer: bool = True,
    ) -> None:
        options = PipelineOptions(
            detectors=_detectors(detectors),
            category=_category(category),
            strict=strict,
            language=_language(language),
        )
        self._start(model, options, ocr, text_layer)

    def _start(
        self,
        model: ModelChoice,
        options: PipelineOptions,
        ocr: str | OcrEngine,
        text_layer: bool,
    ) -> None:
        """What both constructors share: hold the choices, load the NER tier if it runs."""
        self.options = options
        """The pipeline's options for every call (the model's manifest still applies)."""
        self.ocr = SharedOcr(ocr)
        """The OCR engine every photo and scanned page is read with (opened once)."""
        self.text_layer = text_layer
        self._model = model
        self._engine: Engine | None = model if isinstance(model, Engine) else None
        self._owns_engine = not isinstance(model, Engine)
        self._prompts: PromptLibrary | None = None
        self._closed = False
        if Detector.NER in self.options.detectors:
            from redacto.ner import ner_session

            ner_session()  # raises NerUnavailableError; loaded once per process

    @classmethod
    def with_options(
        cls,
        model: ModelChoice,
        options: PipelineOptions,
        *,
        ocr: str | OcrEngine = "ppocr",
        text_layer: bool = True,
    ) -> Self:
        """A `Redactor` that runs with `options` as they are, every knob included (`rules`,
        chunk size, budget, …): for a caller that holds a whole `PipelineOptions`, as a
        batch does. Raises as the constructor does."""
        redactor = cls.__new__(cls)
        redactor._start(model, options, ocr, text_layer)
        return redactor

    def open(self) -> None:
        """Load the prompts and open the model now, not at the first call, for a caller
        that must fail before any input (a batch worker at its start). Raises
        `PromptError` or `EngineError` where a call would give an ERROR result."""
        if self._closed:
            raise RedactorClosedError("this Redactor is closed")
        self._prompts = self._prompts or PromptLibrary.load()
        self._open_engine()

    @property
    def engine(self) -> Engine | None:
        """The open model, or None before the first call that needed it."""
        return self._engine

    def redact_text(
        self, text: str, *, name: str = "text.txt", on_event: OnEvent | None = None
    ) -> RedactResult:
        """Redact a text held in memory, as `redacto redact` redacts a `.txt` file holding
        it: the result's `text` has placeholders (`[NAME_1]`) and the text's own line
        endings. `name` is what the report calls it (`.txt` or `.md`). Raises
        `BadInputError` for an empty text."""
        if not isinstance(text, str):
            raise TypeError(f"redact_text takes a str, not {type(text).__name__}")
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise BadInputError(f"the text cannot be encoded as UTF-8 ({error.reason})") from None
        return self._bytes(TextInput, data, name, on_event)

    def redact_image(
        self, photo: FileOrBytes, *, name: str = "photo.png", on_event: OnEvent | None = None
    ) -> RedactResult:
        """Redact a photo (PNG, JPEG incl. phone MPO, WebP), given as bytes or a path: read
        by OCR, the identifiers' boxes burned into a new PNG (`image`), no metadata kept.
        `name` is what the report calls a photo given as bytes (its format is read from the
        bytes, whatever the name says)."""
        return self._source(ImageInput, photo, name, on_event)

    def redact_pdf(
        self, pdf: FileOrBytes, *, name: str = "document.pdf", on_event: OnEvent | None = None
    ) -> RedactResult:
        """Redact a PDF, given as bytes or a path: its pages' words read (text layer and
        OCR), the identifiers burned and their text removed; `pdf` is checked after it is
        made (no hidden value can be extracted from it, else the run is ERROR). `name` is
        what the report calls a PDF given as bytes."""
        return self._source(PdfInput, pdf, name, on_event)

    def redact_bytes(
        self, data: bytes, name: str | os.PathLike[str], *, on_event: OnEvent | None = None
    ) -> RedactResult:
        """Redact an input held in memory as its kind, by `name`'s suffix (a photo, a PDF or
        a text): as `redact` redacts a file called `name` that holds `data`, the report
        naming it by `name` (a batch's input sent to another machine, an upload). Raises
        `BadInputError` for an unknown suffix or unreadable content."""
        path = Path(name)
        return self._bytes(input_kind(path), bytes(data), str(path), on_event)

    def redact(
        self,
        path: str | os.PathLike[str],
        *,
        elements: Path | None = None,
        on_event: OnEvent | None = None,
        on_page: OnPage | None = None,
    ) -> RedactResult:
        """Redact the file at `path` as its kind, by suffix: a photo, a PDF or a text.

        `elements`: a JSON file of a photo's words and boxes, read instead of OCR (as
        `--elements`). `on_page` follows a PDF's pages as they are read. Raises
        `BadInputError` for a missing file, an unknown suffix or unreadable content.
        """
        source = _existing(path)
        kind = input_kind(source)
        if elements is not None and not kind.takes_elements:
            raise BadInputError(f"elements give word boxes of a photo; the input is {kind.noun}")
        read = self._read_options(elements, on_page)
        return self._run(source, lambda: read_input(source, read), on_event)

    def close(self) -> None:
        """Close the model this opened (not one it was given); later calls raise
        `RedactorClosedError`. Safe to call more than once."""
        self._closed = True
        engine, self._engine = self._engine, None
        if engine is not None and self._owns_engine:
            engine.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _source(
        self, kind: type[InputFile], source: FileOrBytes, name: str, on_event: OnEvent | None
    ) -> RedactResult:
        if isinstance(source, bytes | bytearray | memoryview):
            return self._bytes(kind, bytes(source), name, on_event)
        if not isinstance(source, str | os.PathLike):
            raise TypeError(f"expected bytes or a path, not {type(source).__name__}")
        path = _existing(source)
        if input_kind(path) is not kind:
            raise BadInputError(f"{path}: not {kind.noun}; redact(path) takes any kind")
        read = self._read_options()
        return self._run(path, lambda: kind.read(path, read), on_event)

    def _bytes(
        self, kind: type[InputFile], data: bytes, name: str, on_event: OnEvent | None
    ) -> RedactResult:
        path = Path(name)
        if input_kind(path) is not kind:
            raise BadInputError(f"{name}: the name of {kind.noun} ends {_suffixes(kind)}")
        read = self._read_options()
        return self._run(path, lambda: kind.from_bytes(data, path, read), on_event, data)

    def _run(
        self,
        name: Path,
        read_source: Callable[[], InputFile],
        on_event: OnEvent | None,
        data: bytes | None = None,
    ) -> RedactResult:
        """The run `redacto redact` makes (`redacto.inputs.run_input`), on what is open."""
        if self._closed:
            raise RedactorClosedError("this Redactor is closed")

        def info() -> InputInfo:
            return bytes_info(name, data) if data is not None else input_info(name)

        try:
            prompts = self._prompts = self._prompts or PromptLibrary.load()
        except PromptError as error:
            return RedactResult.of(failed_run(name, info, self._identity(), error), name)
        ran = run_input(
            name,
            read_source,
            info,
            # A run that fails before the model is used still names the open model in full.
            self._engine if self._engine is not None else self._model,
            prompts=prompts,
            options=self.options,
            on_event=on_event,
            open_model=lambda: nullcontext(self._open_engine()),
        )
        return RedactResult.of(ran, name)

    def _identity(self) -> ModelIdentity:
        return self._engine.identity if self._engine is not None else chosen_identity(self._model)

    def _open_engine(self) -> Engine:
        if self._engine is None:
            self._engine = open_model(self._model if isinstance(self._model, str) else None)
        return self._engine

    def _read_options(
        self, elements: Path | None = None, on_page: OnPage | None = None
    ) -> ReadOptions:
        return ReadOptions(self.ocr, elements, on_page, text_layer=self.text_layer)


def _existing(path: str | os.PathLike[str]) -> Path:
    source = Path(path)
    if not source.is_file():
        raise BadInputError(f"{source}: no such file")
    return source


def _suffixes(kind: type[InputFile]) -> str:
    return " or ".join(sorted(kind.suffixes))


def _detectors(detectors: Iterable[Detector | str] | str | None) -> frozenset[Detector]:
    if detectors is None:
        return DEFAULT_DETECTORS
    if isinstance(detectors, str):
        return Detector.parse_list(detectors)
    named = [d if isinstance(d, Detector) else d.strip().lower() for d in detectors]
    return Detector.parse_list(",".join(named)) if named else frozenset()


def _category(category: Category | str | None) -> Category | None:
    if category is None or isinstance(category, Category):
        return category
    for known in Category:
        if category.casefold() in (known.value.casefold(), known.name.casefold()):
            return known
    raise ValueError(f"unknown category {category!r}; choose from {', '.join(Category)}")


def _language(language: str | None) -> str | None:
    from redacto.lexicon import LANGUAGES

    if language is None or language in LANGUAGES:
        return language
    raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
