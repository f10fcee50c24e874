"""Options several commands take alike, declared once so their help cannot drift."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from redacto.document import DEFAULT_DETECTORS as DEFAULT_TIERS
from redacto.document import Category, Detector, detectors_text


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
UPSTREAM_CA_HELP = (
    "A PEM file of CA certificates (or the server's own self-signed one) to trust for an "
    "https:// upstream, besides the system's store and $SSL_CERT_FILE."
)
UpstreamCaOption = Annotated[
    Path | None, typer.Option("--upstream-ca", help=UPSTREAM_CA_HELP, dir_okay=False)
]
"""`redacto proxy` and `redacto proofread` (serve: `--proofread-upstream-ca`, the same help)."""


def ca_file(path: Path | None) -> str | None:
    """The `--upstream-ca` value as the upstream client takes it."""
    return str(path) if path is not None else None


OcrOption = Annotated[
    OcrChoice, typer.Option("--ocr", help="OCR engine for photos and scanned PDF pages.")
]
NoRulesOption = Annotated[
    bool, typer.Option("--no-rules", help="Skip the checksum-validated rules.")
]
DetectorsOption = Annotated[
    str,
    typer.Option(
        "--detectors",
        help="The tiers that read the page, any of rules,ner,model (comma-separated). "
        "Without model nothing is classified or validated: the run ends NEEDS_REVIEW.",
    ),
]
DEFAULT_DETECTORS = detectors_text(DEFAULT_TIERS)
"""`--detectors`' default: `redacto.document.DEFAULT_DETECTORS`, the Python API's too."""


def parse_detectors(text: str) -> frozenset[Detector]:
    """`--detectors`' value as a set, or a usage error naming the known tiers."""
    try:
        return Detector.parse_list(text)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--detectors") from None


def open_detectors(text: str, console: Console) -> frozenset[Detector]:
    """`--detectors`' tiers, with the NER model loaded now where they name it: a missing or
    changed model stops a long-running command (the review page, a proofread) before any
    work starts, and its load is paid once rather than by the first document."""
    detectors = parse_detectors(text)
    if Detector.NER in detectors:
        from redacto.ner import NerUnavailableError, ner_session

        try:
            ner_session()
        except NerUnavailableError as error:
            console.print(f"[red]error:[/red] {error}", highlight=False)
            raise typer.Exit(1) from None
    return detectors


RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="Run on Ray actors (the ray extra): 'local' starts Ray on this machine "
        "(loopback only), an address joins a cluster; --workers actors (default 2).",
    ),
]
"""`--ray` of `redact INPUT… --out` and `eval run`: the same runner (`redacto.batch.workers`)."""
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
"""The `--check` of the `… kotlin` generators (CI checks every generated file at once with
`python -m devtools.generated --check`)."""
StrictOption = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Redact every word no reader could explain (not a dictionary word of the "
        "document's language, nor kept by a rule of its category: docs/lexicon.md). Without "
        "it those words stay readable and the run ends NEEDS_REVIEW naming them.",
    ),
]
"""`--strict` of `redact` and `eval run`: `PipelineOptions.strict`."""
LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="en|fr",
        help="The document's language for the residual check's dictionary (default: the "
        "one whose dictionary knows most of its words).",
    ),
]
"""`--language` of `redact` and `eval run`: `PipelineOptions.language`."""


def parse_language(language: str | None) -> str | None:
    """`--language`'s value, or a usage error naming the known languages."""
    from redacto.lexicon import LANGUAGES

    if language is None or language in LANGUAGES:
        return language
    raise typer.BadParameter(f"known: {', '.join(LANGUAGES)}", param_hint="--language")
