"""The older file API, kept thin for the faces that still call it (`redacto serve`,
`redacto proofread`, the review session): every function here delegates to
`redacto.inputs` (`read_input` → `redact` → `write`), so there is one path from input to
output. New code uses `redacto.inputs`; docs/inputs.md lists what is left to move.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from redacto.engines import Engine
from redacto.inputs import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    OUTPUTS,
    REDACTED_IMAGE,
    REDACTED_PDF,
    REDACTED_TEXT,
    REPORT,
    BadInputError,
    ImageInput,
    ModelChoice,
    PdfInput,
    ReadOptions,
    RedactOutcome,
    TextInput,
    check_input,
    finish,
    input_info,
    input_mode,
    named_model,
    read_elements_file,
    read_input,
    redact,
    redact_path,
    resolve_model_uri,
    write,
)
from redacto.inputs.legacy import PreparedInput
from redacto.pipeline import OnEvent, PipelineOptions, PipelineResult
from redacto.prompts import PromptLibrary

IMAGE_SUFFIXES = ImageInput.suffixes
TEXT_SUFFIXES = TextInput.suffixes
PDF_SUFFIXES = PdfInput.suffixes

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "IMAGE_SUFFIXES",
    "OUTPUTS",
    "PDF_SUFFIXES",
    "REDACTED_IMAGE",
    "REDACTED_PDF",
    "REDACTED_TEXT",
    "REPORT",
    "TEXT_SUFFIXES",
    "BadInputError",
    "ModelChoice",
    "PreparedInput",
    "RedactOutcome",
    "check_input",
    "input_info",
    "input_mode",
    "named_model",
    "prepare_input",
    "read_elements_file",
    "redact_file",
    "redact_prepared",
    "resolve_model_uri",
    "write_outputs",
]


def prepare_input(
    path: Path,
    *,
    ocr: str = "ppocr",
    elements_path: Path | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> PreparedInput:
    """`read_input`, as the older `PreparedInput` view."""
    return read_input(path, ReadOptions(ocr, elements_path, on_page)).prepared()


def redact_prepared(
    prepared: PreparedInput,
    engine: Engine,
    prompts: PromptLibrary,
    out_dir: Path,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> RedactOutcome:
    """`redact` then `write`, for an input read by `prepare_input`."""
    redaction = redact(prepared.source, engine, prompts, options=options, on_event=on_event)
    return write(redaction, out_dir)


def write_outputs(result: PipelineResult, prepared: PreparedInput, out_dir: Path) -> RedactOutcome:
    """Write a pipeline result on `prepared` (the review's approval): `finish` then `write`.

    Its text and spans are in the document's `\\n` text; `write` puts a text's endings back.
    """
    return write(finish(prepared.source, result), out_dir)


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
    on_page: Callable[[int, int], None] | None = None,
    on_prepared: Callable[[PreparedInput], None] | None = None,
) -> RedactOutcome:
    """`redact_path` with the older arguments (`on_prepared` sees the `PreparedInput` view)."""
    return redact_path(
        path,
        out_dir,
        engine,
        prompts=prompts,
        read=ReadOptions(ocr, elements_path, on_page),
        options=options,
        on_event=on_event,
        on_input=None if on_prepared is None else lambda source: on_prepared(source.prepared()),
    )
