"""The older file API, kept thin for `redacto proofread`, the one face that still reads an
input as a `PreparedInput`: every name here delegates to `redacto.inputs` (`read_input` →
`redact` → `write`), so there is one path from input to output. New code uses
`redacto.inputs`; docs/inputs.md lists what is left to move.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from redacto.inputs import (
    BadInputError,
    ModelChoice,
    ReadOptions,
    check_input,
    input_info,
    read_input,
    resolve_model_uri,
)
from redacto.inputs.legacy import PreparedInput

__all__ = [
    "BadInputError",
    "ModelChoice",
    "PreparedInput",
    "check_input",
    "input_info",
    "prepare_input",
    "resolve_model_uri",
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
