"""Options several commands take alike, declared once so their help cannot drift."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from redacto.document import Category


class OcrChoice(StrEnum):
    PPOCR = "ppocr"
    TESSERACT = "tesseract"


ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="Model name, .litertlm path or engine URI (litertlm:, scripted:, …). "
        "Default: the embedded default model.",
    ),
]
OcrOption = Annotated[
    OcrChoice, typer.Option("--ocr", help="OCR engine for photos and scanned PDF pages.")
]
NoRulesOption = Annotated[
    bool, typer.Option("--no-rules", help="Skip the checksum-validated rules.")
]
CategoryOption = Annotated[
    Category | None,
    typer.Option(
        "--category",
        help="What the document is, when you know: skips the classify step.",
        case_sensitive=False,
    ),
]
CheckOption = Annotated[
    bool, typer.Option("--check", help="Fail (exit 1) if the committed file is stale.")
]
"""The `--check` of the `… kotlin` generators: CI's staleness test."""
