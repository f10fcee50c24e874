"""The corpus contract: documents with gold PII and preserve spans, and their rendered pages.

The scorer (`redacto.eval`) reads these types; the generator and the renderer write them.
Offsets are character offsets into `CorpusDocument.text`, end exclusive.
"""

from __future__ import annotations

import itertools
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from redacto.document import Box, Category, Frozen

Split = Literal["train", "test", "hard"]

# How the renderer lays a page out. Lines holding tabs are always drawn as table rows;
# the layout adds the rest (column flow, field boxes, grid lines, a letterhead).
Layout = Literal["single", "two_column", "form", "table", "letterhead"]

# What a preserve span protects. A fixed list so a typo in a template fails a test.
PRESERVE_KINDS = frozenset(
    {
        "diagnosis",
        "medication",
        "vital",
        "lab",
        "body_location",
        "procedure",
        "institution",
        "year",
        "amount",
        "toll_free",
        "transaction_date",
        "property_spec",
        "legal_term",
        "court",
        "judge",
        "effective_date",
        "official",
        "officer",
        "badge",
        "suspect_description",
        "scene",
        "incident_date",
        "reporter",
        "organization",
        "publication_date",
        "equipment",
        "serial",
        "fault_code",
        "reading",
        "part",
        "technician",
        "visit_date",
    }
)


class GoldSpan(Frozen):
    """A PII span: `text[start:end]` must be redacted; `label` is from prompts/labels.yaml."""

    start: int = Field(ge=0)
    end: int = Field(gt=0)
    label: str


class PreserveSpan(Frozen):
    """Text that must stay readable (a diagnosis, a dollar amount, an officer's name…)."""

    start: int = Field(ge=0)
    end: int = Field(gt=0)
    kind: str


class CorpusDocument(Frozen):
    """One labelled document. Gold spans are exact by construction and never overlap."""

    id: str
    category: Category
    document_type: str
    split: Split
    template: str
    layout: Layout = "single"
    text: str
    pii: tuple[GoldSpan, ...]
    preserve: tuple[PreserveSpan, ...]

    @model_validator(mode="after")
    def _spans_consistent(self) -> CorpusDocument:
        spans = [(s.start, s.end) for s in self.pii] + [(s.start, s.end) for s in self.preserve]
        for start, end in spans:
            if not start < end <= len(self.text):
                raise ValueError(f"{self.id}: span {start}:{end} outside the text")
            if self.text[start:end] != self.text[start:end].strip():
                raise ValueError(f"{self.id}: span {start}:{end} starts or ends with space")
        ordered = sorted(spans)
        for (_, first_end), (second_start, _) in itertools.pairwise(ordered):
            if second_start < first_end:
                raise ValueError(f"{self.id}: gold spans overlap at {second_start}")
        return self

    def span_text(self, span: GoldSpan | PreserveSpan) -> str:
        """The characters a span covers."""
        return self.text[span.start : span.end]


class GoldWord(Frozen):
    """One rendered word: its characters in the text and its box on the final image."""

    index: int = Field(ge=0)
    text: str
    box: Box
    start: int = Field(ge=0)
    end: int = Field(gt=0)


class PageInput(StrEnum):
    """What form a page reaches the pipeline in, in image mode."""

    IMAGE = "image"
    """The phone photo (JPEG) itself."""
    PDF_TEXT = "pdf-text"
    """A born-digital PDF: the flat page's words as real text, at their gold boxes."""
    PDF_SCAN = "pdf-scan"
    """A scanned PDF: the photo as the page's only content, no text layer."""


class RenderedPage(BaseModel):
    """A document drawn and degraded like a phone photo, with every word's gold box.

    For a PDF input (`pdf_path` set) the gold boxes are in pixels of that PDF's page read
    at `redacto.pdf.PDF_DPI`, and `image_path` is a picture of the same page.
    """

    model_config = ConfigDict(extra="forbid")

    image_path: Path
    width: int
    height: int
    words: tuple[GoldWord, ...]
    pdf_path: Path | None = None
