"""The Python API: open a model once, redact texts, photos and PDFs, read a typed result.

    from redacto import Redactor

    with Redactor() as redactor:                    # the embedded default model, all detectors
        result = redactor.redact_text("Patient Jane Smith, MRN 4471829")
        if result.status is Status.PASS: ...        # else NEEDS_REVIEW or ERROR: see the reasons

`Redactor` runs what `redacto redact` runs (`redacto.inputs`: read, redact in memory), with
the model, OCR and NER tier kept open across calls; `RedactResult` is one run, in memory.
`redacto redact INPUT` and its batch's workers are thin layers over it. docs/api.md is the
reference.
"""

from redacto.document import DEFAULT_DETECTORS, Category, Detector, Status
from redacto.inputs import BadInputError
from redacto.redactor._redactor import FileOrBytes, Redactor, RedactorClosedError
from redacto.redactor._result import RedactResult

__all__ = [
    "DEFAULT_DETECTORS",
    "BadInputError",
    "Category",
    "Detector",
    "FileOrBytes",
    "RedactResult",
    "Redactor",
    "RedactorClosedError",
    "Status",
]
