"""Redact one input file: check it, read it (OCR, `--elements` JSON or text), run the
pipeline, write the outputs. The `redact` command and the evaluation both call this.

Bad input raises `BadInputError` before anything is written. Outputs are written through
temporary files and renamed into place; the input file is only ever read. An ERROR run
writes `report.json` and no redacted file (stale ones from an earlier run are removed, so
nothing in the folder claims a redaction that did not happen).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError

from redacto.document import Box, Category, Document, Element, Mode, Status
from redacto.engines import Engine, EngineError
from redacto.pipeline import OnEvent, PipelineOptions, PipelineResult, run_pipeline
from redacto.prompts import PromptLibrary
from redacto.report import ModelInfo, RunReport

if TYPE_CHECKING:
    from redacto.imaging import LoadedImage

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp"})
TEXT_SUFFIXES = frozenset({".txt", ".md"})
REDACTED_IMAGE = "redacted.png"
REDACTED_TEXT = "redacted.txt"
REPORT = "report.json"

EXIT_CODES = {Status.PASS: 0, Status.NEEDS_REVIEW: 10, Status.ERROR: 1}
EXIT_BAD_INPUT = 2


class BadInputError(ValueError):
    """The input cannot be redacted as given (exit 2); nothing has been written."""


class _ElementInput(BaseModel):
    """One entry of an `--elements` file: a word and its box in image pixels."""

    model_config = ConfigDict(extra="forbid")

    text: str
    box: tuple[FiniteFloat, FiniteFloat, FiniteFloat, FiniteFloat]
    page: int = Field(default=0, ge=0)


@dataclass(frozen=True)
class PreparedInput:
    """A checked input, read into a document; `image` is set for photos."""

    path: Path
    document: Document
    image: LoadedImage | None = None
    ocr_name: str | None = None


@dataclass(frozen=True)
class RedactOutcome:
    """What one file's run produced: its report, the files written and the exit code."""

    report: RunReport
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.report.status]


def input_mode(path: Path) -> Mode:
    """Image or text, from the file name; anything else is bad input."""
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return Mode.IMAGE
    if suffix in TEXT_SUFFIXES:
        return Mode.TEXT
    known = ", ".join(sorted(IMAGE_SUFFIXES | TEXT_SUFFIXES))
    raise BadInputError(f"{path}: unsupported file type {suffix or '(none)'}; use one of {known}")


def check_input(path: Path, out_dir: Path, elements_path: Path | None = None) -> Mode:
    """Cheap checks before any slow work: the file exists, its type, where outputs go."""
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    mode = input_mode(path)
    if elements_path is not None:
        if mode is not Mode.IMAGE:
            raise BadInputError("--elements gives word boxes of an image; the input is text")
        if not elements_path.is_file():
            raise BadInputError(f"{elements_path}: no such file")
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInputError(f"{out_dir}: exists and is not a folder")
    resolved = path.resolve()
    for name in (REDACTED_IMAGE, REDACTED_TEXT, REPORT):
        if (out_dir / name).resolve() == resolved:
            raise BadInputError(f"{path}: the output would overwrite the input; choose --out")
    return mode


def prepare_input(
    path: Path,
    *,
    ocr: str = "ppocr",
    elements_path: Path | None = None,
) -> PreparedInput:
    """Read the input into a document: OCR or `--elements` for images, UTF-8 for text.

    Raises `BadInputError` for unreadable input, `EngineError` when OCR itself fails.
    """
    mode = input_mode(path)
    if mode is Mode.TEXT:
        return PreparedInput(path=path, document=Document.from_text(_read_text(path)))
    from redacto.imaging import BadImageError, load_input_image

    try:
        loaded = load_input_image(path)
    except BadImageError as error:
        raise BadInputError(f"{path}: {error}") from error
    size = loaded.size
    if elements_path is not None:
        elements = read_elements_file(elements_path, size)
        return PreparedInput(path, Document.from_elements(elements, size), loaded, None)
    from redacto.ocr import open_ocr

    engine = open_ocr(ocr)
    elements = engine.read(loaded.image)
    return PreparedInput(path, Document.from_elements(elements, size), loaded, engine.name)


def _read_text(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BadInputError(f"{path}: not UTF-8 text ({error.reason})") from error
    except OSError as error:
        raise BadInputError(f"{path}: cannot read ({error.strerror})") from error
    if not text.strip():
        raise BadInputError(f"{path}: the file is empty")
    return text


def read_elements_file(path: Path, image_size: tuple[int, int]) -> list[Element]:
    """Parse `[{"text", "box": [x0, y0, x1, y1]}, …]` in reading order; boxes must fit."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInputError(f"{path}: not a JSON file ({error})") from error
    if not isinstance(raw, list):
        raise BadInputError(f"{path}: expected a JSON list of {{text, box}} objects")
    width, height = image_size
    elements: list[Element] = []
    for index, item in enumerate(raw):
        try:
            entry = _ElementInput.model_validate(item)
            box = Box(x0=entry.box[0], y0=entry.box[1], x1=entry.box[2], y1=entry.box[3])
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"])
            raise BadInputError(f"{path}: element {index}: {where}: {problem['msg']}") from error
        if box.x0 < 0 or box.y0 < 0 or box.x1 > width or box.y1 > height:
            raise BadInputError(f"{path}: element {index}: box lies outside the image")
        elements.append(Element(index=index, text=entry.text, box=box, page=entry.page))
    return elements


def redact_prepared(
    prepared: PreparedInput,
    engine: Engine,
    prompts: PromptLibrary,
    out_dir: Path,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> RedactOutcome:
    """Run the pipeline on a prepared input and write its outputs into `out_dir`."""
    try:
        result = run_pipeline(
            prepared.document, engine, prompts, options=options, on_event=on_event
        )
    except Exception as error:
        result = PipelineResult(report=error_report(prepared.document.mode, engine, error))
    result.report.ocr = prepared.ocr_name
    return write_outputs(result, prepared, out_dir)


def redact_file(
    path: Path,
    engine: Engine,
    prompts: PromptLibrary,
    out_dir: Path,
    *,
    ocr: str = "ppocr",
    elements_path: Path | None = None,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> RedactOutcome:
    """Check, read, redact and write one file. `BadInputError` means nothing was written."""
    check_input(path, out_dir, elements_path)
    try:
        prepared = prepare_input(path, ocr=ocr, elements_path=elements_path)
    except EngineError as error:
        mode = input_mode(path)
        report = error_report(mode, engine, error)
        report.ocr = ocr
        return write_outputs(PipelineResult(report=report), None, out_dir)
    return redact_prepared(prepared, engine, prompts, out_dir, options=options, on_event=on_event)


def error_report(mode: Mode, engine: Engine, error: BaseException) -> RunReport:
    """The report of a run that could not finish: status ERROR, nothing claimed."""
    identity = engine.identity
    return RunReport(
        status=Status.ERROR,
        mode=mode.value,
        category=Category.GENERAL,
        model=ModelInfo(uri=identity.uri, name=identity.name, sha256=identity.sha256),
        error=f"{type(error).__name__}: {error}",
    )


def write_outputs(
    result: PipelineResult, prepared: PreparedInput | None, out_dir: Path
) -> RedactOutcome:
    """Write the redacted file(s) and report.json; ERROR writes only the report."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if result.report.status is Status.ERROR or result.redacted_text is None or prepared is None:
        for stale in (REDACTED_IMAGE, REDACTED_TEXT):
            (out_dir / stale).unlink(missing_ok=True)
    else:
        if prepared.image is not None:
            from redacto.imaging import burn_boxes, save_clean_png

            burned = burn_boxes(prepared.image.image, list(result.boxes))
            target = out_dir / REDACTED_IMAGE
            save_clean_png(burned, target, source=prepared.path)  # atomic, no metadata
            written.append(target)
        else:
            (out_dir / REDACTED_IMAGE).unlink(missing_ok=True)
        target = out_dir / REDACTED_TEXT
        text = result.redacted_text
        _atomic(target, lambda temporary: temporary.write_text(text, encoding="utf-8"))
        written.append(target)
    report_path = out_dir / REPORT
    body = result.report.model_dump_json(indent=2) + "\n"
    _atomic(report_path, lambda temporary: temporary.write_text(body, encoding="utf-8"))
    written.append(report_path)
    return RedactOutcome(report=result.report, written=tuple(written))


def _atomic(target: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file beside `target`, then rename it into place."""
    handle, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.stem}-", suffix=target.suffix
    )
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
