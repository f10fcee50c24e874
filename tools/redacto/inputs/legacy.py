"""`PreparedInput`: the older either/or view of a read input, kept for the faces that still
read it (`redacto serve`'s page images and view, `redacto proofread`). New code takes the
input itself (`InputFile`: `ImageInput`, `PdfInput`, `TextInput`); docs/inputs.md lists
what is left to move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from redacto.document import Document

if TYPE_CHECKING:
    from redacto.imaging import LoadedImage
    from redacto.inputs.base import InputFile
    from redacto.line_endings import LineEndings
    from redacto.pdf import PdfPages


@dataclass(frozen=True)
class PreparedInput:
    """A read input as one record: `image` is set for photos, `pdf` for PDFs, `line_endings`
    for text; `source` is the input it was made from (`InputFile.prepared`)."""

    path: Path
    document: Document
    image: LoadedImage | None = None
    ocr_name: str | None = None
    line_endings: LineEndings | None = None
    pdf: PdfPages | None = None
    source: InputFile = field(kw_only=True, compare=False, repr=False)
