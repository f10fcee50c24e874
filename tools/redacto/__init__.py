"""Redacto: offline document redaction with a small on-device model.

From Python, open a `Redactor` once and redact texts, photos and PDFs with it
(`redacto.redactor`, docs/api.md):

    from redacto import Redactor, Status

    with Redactor() as redactor:
        result = redactor.redact_image("scan.jpg")
        if result.status is Status.PASS:
            open("scan-redacted.png", "wb").write(result.image)

The pipeline (classify → detect → redact → validate, up to 3 rounds) lives in
`redacto.pipeline`; engines in `redacto.engines`; prompts in `redacto.prompts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redacto.redactor import (
        BadInputError,
        Category,
        Detector,
        Redactor,
        RedactorClosedError,
        RedactResult,
        Status,
    )

__version__ = "0.1.0"

__all__ = [
    "BadInputError",
    "Category",
    "Detector",
    "RedactResult",
    "Redactor",
    "RedactorClosedError",
    "Status",
    "__version__",
]


def __getattr__(name: str) -> Any:
    # Loaded on first use: importing any `redacto.*` module runs this file first, and the
    # front door pulls in the whole pipeline, which a module low in the layers must not.
    if name in __all__:
        import redacto.redactor

        return getattr(redacto.redactor, name)
    raise AttributeError(f"module 'redacto' has no attribute {name!r}")
