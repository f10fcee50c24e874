"""Redact one input file: check it, read it (OCR, `--elements` JSON or text), run the
pipeline, write the outputs. `redact_file` is the library's one way in: the `redact` command,
the evaluation and the review page all call it.

Bad input raises `BadInputError` before anything is written; `check_input` runs first and
also checks that the output folder can be written, so that is never found after minutes of
model time. Outputs are written through temporary files and renamed into place; the input
file is only ever read. An ERROR run, however early (a model that cannot be opened, OCR that
cannot start), writes `report.json` and no redacted file (stale ones from an earlier run are
removed, so nothing in the folder claims a redaction that did not happen). Every report
names the input it belongs to (file name and sha256). A text file keeps its own bytes
outside the replaced values, line endings included (`line_endings`). A PDF is read page by
page into one image-mode document and comes out as `redacted.pdf`, rebuilt from burned page
images and verified after writing; a failed check turns the run into ERROR (`redacto.pdf`,
docs/pdf.md).
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

from redacto.document import Box, Detection, Document, Element, Mode, Span, Status
from redacto.engines import Engine, EngineError, ModelIdentity, open_engine
from redacto.line_endings import LineEndings
from redacto.pipeline import OnEvent, PipelineOptions, PipelineResult, run_pipeline
from redacto.prompts import PromptError, PromptLibrary
from redacto.report import InputInfo, RunReport, error_report

if TYPE_CHECKING:
    from redacto.imaging import LoadedImage
    from redacto.pdf import PdfInput
    from redacto.pdf.read import OnPage

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp"})
TEXT_SUFFIXES = frozenset({".txt", ".md"})
PDF_SUFFIXES = frozenset({".pdf"})
REDACTED_IMAGE = "redacted.png"
REDACTED_PDF = "redacted.pdf"
REDACTED_TEXT = "redacted.txt"
REPORT = "report.json"
OUTPUTS = (REDACTED_IMAGE, REDACTED_PDF, REDACTED_TEXT, REPORT)

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
    """A checked input, read into a document; `image` is set for photos, `pdf` for PDFs,
    `line_endings` for text (the file's own endings, put back into the redacted text)."""

    path: Path
    document: Document
    image: LoadedImage | None = None
    ocr_name: str | None = None
    line_endings: LineEndings | None = None
    pdf: PdfInput | None = None


@dataclass(frozen=True)
class RedactOutcome:
    """What one file's run produced: its report, the files written and the exit code."""

    report: RunReport
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.report.status]


def is_pdf(path: Path) -> bool:
    """A PDF input, by its file name (read as an image-mode document, page by page)."""
    return path.suffix.lower() in PDF_SUFFIXES


def input_mode(path: Path) -> Mode:
    """Image (photos and PDFs) or text, from the file name; anything else is bad input."""
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES or suffix in PDF_SUFFIXES:
        return Mode.IMAGE
    if suffix in TEXT_SUFFIXES:
        return Mode.TEXT
    known = ", ".join(sorted(IMAGE_SUFFIXES | TEXT_SUFFIXES | PDF_SUFFIXES))
    raise BadInputError(f"{path}: unsupported file type {suffix or '(none)'}; use one of {known}")


def check_input(path: Path, out_dir: Path, elements_path: Path | None = None) -> Mode:
    """Cheap checks before any slow work: the file exists, its type, where outputs go."""
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    mode = input_mode(path)
    if elements_path is not None:
        if mode is not Mode.IMAGE or is_pdf(path):
            kind = "a PDF" if is_pdf(path) else "text"
            raise BadInputError(f"--elements gives word boxes of a photo; the input is {kind}")
        if not elements_path.is_file():
            raise BadInputError(f"{elements_path}: no such file")
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInputError(f"{out_dir}: exists and is not a folder")
    for name in OUTPUTS:
        if _same_file(out_dir / name, path):
            raise BadInputError(
                f"{out_dir / name} is the input itself (the same file or a link to it): "
                "the output would overwrite the input; choose another --out, or remove it"
            )
    _check_writable(out_dir)
    return mode


def _same_file(candidate: Path, path: Path) -> bool:
    """The same file, by path, symbolic link or hard link."""
    try:
        return os.path.samefile(candidate, path)
    except OSError:
        return False


def _check_writable(out_dir: Path) -> None:
    """The output folder, or the nearest folder that would hold it, takes a new file.

    A temporary file is made and removed at once: permission bits do not say enough (root
    ignores them, a read-only mount does not show in them).
    """
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise BadInputError(f"{out_dir}: cannot be created, {existing} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        raise BadInputError(
            f"{out_dir}: cannot write there ({error.strerror or type(error).__name__})"
        ) from error


def input_info(path: Path) -> InputInfo:
    """The input's file name and the sha256 of its bytes, for its report."""
    from redacto.model_record import sha256_of

    try:
        return InputInfo(name=path.name, sha256=sha256_of(path))
    except OSError as error:
        raise BadInputError(f"{path}: cannot read ({error.strerror})") from error


def prepare_input(
    path: Path,
    *,
    ocr: str = "ppocr",
    elements_path: Path | None = None,
    on_page: OnPage | None = None,
) -> PreparedInput:
    """Read the input into a document: OCR or `--elements` for images, UTF-8 for text, the
    text layer or OCR per page for PDFs (`on_page` follows the pages read).

    Raises `BadInputError` for unreadable input, `EngineError` when OCR itself fails.
    """
    mode = input_mode(path)
    if is_pdf(path):
        from redacto.pdf import BadPdfError, read_pdf

        try:
            pdf = read_pdf(path, ocr=ocr, on_page=on_page)
        except BadPdfError as error:
            raise BadInputError(str(error)) from error
        return PreparedInput(path, pdf.document, ocr_name=pdf.ocr_name, pdf=pdf)
    if mode is Mode.TEXT:
        endings = LineEndings.of(_read_text(path))
        document = Document.from_text(endings.normalized)
        return PreparedInput(path=path, document=document, line_endings=endings)
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
    """The file decoded as UTF-8 with its line endings as written (no newline translation)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            text = handle.read()
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
    """Run the pipeline on a prepared input and write its outputs into `out_dir`.

    Outputs that cannot be written end the run as ERROR (a report, nothing claimed); only
    when not even that report can be written does the `OSError` reach the caller.
    """
    from redacto.imaging import BadImageError

    try:
        result = run_pipeline(
            prepared.document, engine, prompts, options=options, on_event=on_event
        )
    except Exception as error:
        result = PipelineResult(report=error_report(prepared.document.mode, engine.identity, error))
    result.report.ocr = prepared.ocr_name
    if prepared.line_endings is not None:
        _spans_into_original(result.report, prepared.line_endings)
    try:
        return write_outputs(result, prepared, out_dir)
    except (OSError, BadImageError) as error:
        return write_error(
            prepared.path,
            out_dir,
            engine.identity,
            error,
            ocr=prepared.ocr_name,
            doing="cannot write the outputs",
        )


def _spans_into_original(report: RunReport, endings: LineEndings) -> None:
    """Report spans point into the user's text, not the `\n`-only text the pipeline read."""
    if not endings.changed:
        return

    def mapped(detections: list[Detection]) -> list[Detection]:
        return [
            detection
            if detection.span is None
            else detection.model_copy(
                update={
                    "span": Span(
                        start=endings.original_offset(detection.span.start),
                        end=endings.original_offset(detection.span.end),
                    )
                }
            )
            for detection in detections
        ]

    report.detections = mapped(report.detections)
    report.not_located = mapped(report.not_located)


ModelChoice = Engine | str | None
"""An open engine (the caller keeps it open and closes it), or a model name, `.litertlm`
path or engine URI that `redact_file` resolves, opens and closes itself (None: the embedded
default, `redacto.models.DEFAULT_MODEL`)."""


def redact_file(
    path: Path,
    engine: ModelChoice,
    prompts: PromptLibrary | None,
    out_dir: Path,
    *,
    ocr: str = "ppocr",
    elements_path: Path | None = None,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
    on_page: OnPage | None = None,
    on_prepared: Callable[[PreparedInput], None] | None = None,
) -> RedactOutcome:
    """Check, read, redact and write one file: the library's one way in, for the CLI, the
    evaluation and the review page alike.

    `engine` is an open engine or the model to open (`ModelChoice`); `prompts` None loads
    the shipped prompts. The model's manifest settings are applied inside the pipeline
    (`redacto.pipeline.policy`), whatever `options` ask. `on_page` follows a PDF's pages as
    they are read, `on_prepared` sees the input once it is read (words and boxes, before any
    model time, so a screen can show the page while the steps run: `redacto serve`), and
    `on_event` the steps as they run.

    Raises `BadInputError` when the input cannot be redacted as given: nothing was written.
    Every other failure (a model that cannot be found or opened, prompts that do not load,
    OCR that fails, outputs that cannot be written) is an ERROR outcome whose report.json is
    written and whose stale redacted files are removed; an `OSError` escapes only when not
    even that report can be written.
    """
    check_input(path, out_dir, elements_path)  # the output folder too, before model time
    identity = engine.identity if isinstance(engine, Engine) else named_model(engine)
    try:
        target = engine if isinstance(engine, Engine) else resolve_model_uri(engine)
        if isinstance(target, str):
            identity = named_model(target)
        library = prompts if prompts is not None else PromptLibrary.load()
        prepared = prepare_input(path, ocr=ocr, elements_path=elements_path, on_page=on_page)
    except (EngineError, PromptError) as error:
        return write_error(path, out_dir, identity, error)
    if on_prepared is not None:
        on_prepared(prepared)
    if isinstance(target, Engine):
        return redact_prepared(
            prepared, target, library, out_dir, options=options, on_event=on_event
        )
    try:
        opened = open_engine(target)
    except EngineError as error:
        return write_error(path, out_dir, identity, error, doing="cannot open the model")
    with opened:
        return redact_prepared(
            prepared, opened, library, out_dir, options=options, on_event=on_event
        )


def resolve_model_uri(model: str | None) -> str:
    """The engine URI a model name, `.litertlm` path or URI stands for (None: the default).

    Raises `EngineError` naming the command that builds a model that is not built yet.
    """
    from redacto.models import DEFAULT_MODEL, ModelError, resolve_model

    try:
        return resolve_model(model or DEFAULT_MODEL)
    except ModelError as error:
        raise EngineError(str(error)) from error


def named_model(model: str | None) -> ModelIdentity:
    """Who would have answered, for the report of a run that ended before a model was open."""
    from redacto.models import DEFAULT_MODEL

    uri = model or DEFAULT_MODEL
    return ModelIdentity(uri=uri, name=Path(uri.partition(":")[2] or uri).name)


def write_error(
    path: Path,
    out_dir: Path,
    identity: ModelIdentity,
    error: BaseException,
    *,
    ocr: str | None = None,
    doing: str | None = None,
) -> RedactOutcome:
    """Record a run that failed before it could redact (exit 1): an ERROR report naming the
    input, and no redacted file, so an earlier run's outputs cannot pass for this one's."""
    report = error_report(input_mode(path), identity, error, doing=doing)
    report.input = input_info(path)
    report.ocr = ocr
    return write_outputs(PipelineResult(report=report), None, out_dir)


def write_outputs(
    result: PipelineResult, prepared: PreparedInput | None, out_dir: Path
) -> RedactOutcome:
    """Write the redacted file(s) and report.json; ERROR writes only the report."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if prepared is not None and result.report.input is None:
        result.report.input = input_info(prepared.path)
    written: list[Path] = []
    if prepared is not None and prepared.pdf is not None:
        _write_pdf(result, prepared.pdf, out_dir)
    if result.report.status is Status.ERROR or result.redacted_text is None or prepared is None:
        for stale in (REDACTED_IMAGE, REDACTED_PDF, REDACTED_TEXT):
            (out_dir / stale).unlink(missing_ok=True)
    else:
        if prepared.pdf is not None:
            written.append(out_dir / REDACTED_PDF)
        else:
            (out_dir / REDACTED_PDF).unlink(missing_ok=True)
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
        if prepared.line_endings is not None:
            text = prepared.line_endings.restore(text)
        _atomic(target, lambda temporary: temporary.write_text(text, encoding="utf-8", newline=""))
        written.append(target)
    report_path = out_dir / REPORT
    body = result.report.model_dump_json(indent=2) + "\n"
    _atomic(report_path, lambda temporary: temporary.write_text(body, encoding="utf-8"))
    written.append(report_path)
    return RedactOutcome(report=result.report, written=tuple(written))


def _write_pdf(result: PipelineResult, pdf: PdfInput, out_dir: Path) -> None:
    """Write and verify `redacted.pdf` for a run that redacted; its pages go in the report.

    A failed check turns the run into ERROR (nothing claimed); an ERROR run only records
    its pages.
    """
    from redacto.pdf import PdfVerificationError
    from redacto.pdf.output import boxes_by_page, pdf_report, redacted_values, write_verified_pdf

    report = result.report
    if report.status is Status.ERROR or result.redacted_text is None:
        report.pdf = pdf_report(pdf, None)
        return
    try:
        per_page = boxes_by_page(pdf, report.detections, result.boxes)
        report.pdf = pdf_report(pdf, per_page)
        values = redacted_values(pdf, [*report.detections, *report.not_located])
        write_verified_pdf(pdf, per_page, values, out_dir / REDACTED_PDF)
    except PdfVerificationError as error:
        report.status = Status.ERROR
        report.error = f"the redacted PDF failed its check after writing: {error}"
        if report.pdf is None:
            report.pdf = pdf_report(pdf, None)
        return
    report.pdf.verified = True


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
