"""A PDF redacted by the rules tier alone, and what its output still shows.

The faint- and tiny-type tests ask the same question of a page the model is blind to: after
the rules have boxed every value, is any of it left in `redacted.txt`, in `redacted.pdf`'s
text layer, or in its pixels?
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from redacto.document import Detector, Element, ImageReading, Status
from redacto.inputs import ReadOptions, redact_path
from redacto.ocr import OcrEngine
from redacto.pdf import render_page
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

BLIND = {"classify": ["CATEGORY: Medical"], "detect": ["NONE"], "validate": ["PASS"]}
"""A model that names nothing and passes the page: only the rules tier can find a value."""


class NoOcr(OcrEngine):
    """An OCR that reads nothing, so a page's words come from its own text only."""

    name = "none"

    def read(self, image: Image.Image) -> list[Element]:
        return []


@dataclass(frozen=True)
class RulesOnlyOutput:
    """What the first page of a rules-only redaction shows, in each of its three forms."""

    redacted_text: str
    layer: str
    burned: np.ndarray
    """The output page rendered, grey levels."""


def redact_with_rules_only(source: Path, out: Path) -> RulesOnlyOutput:
    """Redacts `source` into `out` with the rules tier and a blind model."""
    outcome = redact_path(
        source,
        out,
        trusting(BLIND),
        prompts=PromptLibrary.load(),
        read=ReadOptions(ocr=NoOcr()),
        options=PipelineOptions(
            image_reading=ImageReading.TEXT, detectors=frozenset({Detector.RULES})
        ),
    )
    assert outcome.report.status is not Status.ERROR, outcome.report.error
    written = {p.name: p for p in outcome.written}
    pdf = pdfium.PdfDocument(str(written["redacted.pdf"]))
    try:
        layer = pdf[0].get_textpage().get_text_range()
        burned = np.asarray(render_page(pdf[0]).convert("L"))
    finally:
        pdf.close()
    return RulesOnlyOutput(written["redacted.txt"].read_text(), layer, burned)
