"""Our pipeline as a system under test: corpus document in, scorer's `Prediction` out.

Image mode scores the boxes the pipeline actually drew. Text mode scores the redacted
text it actually returned: the output is aligned word by word with the original, and
every original word that did not survive unchanged counts as hidden. So a redaction the
LLM rewrite dropped, or a sentence it mangled, is scored as it would reach the user —
not as the detections say it should have been.
"""

from __future__ import annotations

import difflib
import json
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from redacto.corpus.schema import CorpusDocument, RenderedPage
from redacto.document import ConstrainedDecoding, Document, Element, Mode, Source, Step
from redacto.engines import open_engine
from redacto.evaluation.inputs import PageReader
from redacto.evaluation.prediction import NamedItem, PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.results import OcrChoice
from redacto.pipeline import ImageReading, PipelineOptions, PipelineResult
from redacto.pipeline.policy import options_for_model
from redacto.pipeline.state import MAX_ROUNDS
from redacto.prompts import PromptLibrary
from redacto.redact_file import REDACTED_TEXT, redact_file
from redacto.resources import portable

_WORD = re.compile(r"\S+")


class PipelineSystem:
    """`redact_file` with one engine (opened once) and the shipped prompts."""

    def __init__(
        self,
        engine_uri: str,
        ocr: OcrChoice = "gold",
        rules: bool = True,
        gold_category: bool = False,
        image_reading: ImageReading | None = None,
        max_rounds: int = MAX_ROUNDS,
        constrained_decoding: ConstrainedDecoding | None = None,
    ) -> None:
        """`image_reading` and `constrained_decoding` None: the model manifest's choice
        (run_pipeline applies every manifest setting itself; `--image-reading` and
        `--constrained-decoding` in the eval choose another)."""
        self.engine = open_engine(engine_uri)
        self.prompts = PromptLibrary.load()
        self.reader = PageReader(ocr)
        self.options = PipelineOptions(
            rules=rules,
            image_reading=image_reading,
            max_rounds=max_rounds,
            constrained_decoding=constrained_decoding,
        )
        self.gold_category = gold_category
        identity = self.engine.identity
        # What run_pipeline will apply from the model's manifest, said in the run's identity.
        applied = options_for_model(self.options, identity)
        sha = f" sha256 {identity.sha256[:12]}" if identity.sha256 else ""
        given = "; gold category given" if gold_category else ""
        untrusted = "" if applied.trust_validator_pass else "; validator PASS not trusted"
        no_redact_call = "" if applied.model_redact else "; text redact call off"
        image_reading = applied.image_reading or ImageReading.INDEXED
        rounds = "" if max_rounds == MAX_ROUNDS else f"; at most {max_rounds} round(s)"
        constrained = applied.constrained_decoding or ConstrainedDecoding.OFF
        if not self.engine.supports_constraints:
            constrained = ConstrainedDecoding.OFF
        if constrained is not ConstrainedDecoding.OFF:
            rounds += f"; constrained decoding: {constrained.value}"
        self.identity = (
            f"{identity.name}{sha} ({portable(engine_uri)}); rules {'on' if rules else 'off'}; "
            f"image read as {image_reading.value}{given}{untrusted}{no_redact_call}{rounds}"
        )

    def predict(
        self, document: CorpusDocument, mode: Mode, page: RenderedPage | None
    ) -> Prediction:
        """Redact the document the way a user's file is redacted (`redact_file`: the same
        entry point as the CLI) and score what it wrote. OCR is included in the time.

        The file given is the rendered page (its words handed over as an `--elements`
        file, so every system reads the same words) or the text written to a `.txt`; the
        outputs go to a scratch folder that is removed afterwards.
        """
        started = time.perf_counter()
        options = self.options
        if self.gold_category:
            options = replace(options, category=document.category)
        with tempfile.TemporaryDirectory(prefix="redacto-eval-") as scratch:
            folder = Path(scratch)
            elements_path: Path | None = None
            if mode is Mode.TEXT:
                source = Document.from_text(document.text)
                input_path = folder / "document.txt"
                input_path.write_text(document.text, encoding="utf-8", newline="")
            else:
                if page is None:
                    raise ValueError("image mode needs the rendered page")
                elements = self.reader.read(page)
                source = Document.from_elements(elements, (page.width, page.height))
                input_path = page.image_path
                elements_path = folder / "elements.json"
                _write_elements(elements, elements_path)
            out_dir = folder / "out"
            outcome = redact_file(
                input_path,
                self.engine,
                self.prompts,
                out_dir,
                elements_path=elements_path,
                options=options,
            )
            written = out_dir / REDACTED_TEXT
            redacted = None
            if written in outcome.written:
                with written.open(encoding="utf-8", newline="") as handle:
                    redacted = handle.read()
        result = PipelineResult(
            report=outcome.report, redacted_text=redacted, boxes=tuple(outcome.report.boxes)
        )
        wall_ms = (time.perf_counter() - started) * 1000
        return prediction_from_result(document.text, source, result, wall_ms)

    def close(self) -> None:
        self.engine.close()


def _write_elements(elements: list[Element], path: Path) -> None:
    """The words as an `--elements` file (`redact_file.read_elements_file` reads it)."""
    entries = []
    for element in elements:
        if element.box is None:
            raise ValueError(f"word {element.index} of the page has no box")
        box = element.box
        entries.append(
            {"text": element.text, "box": [box.x0, box.y0, box.x1, box.y1], "page": element.page}
        )
    path.write_text(json.dumps(entries), encoding="utf-8")


def prediction_from_result(
    original_text: str, source: Document, result: PipelineResult, wall_ms: float
) -> Prediction:
    """The scorer's view of a pipeline run (also used by tests on hand-built results)."""
    report = result.report
    text_mode = source.mode is Mode.TEXT
    hidden = hidden_spans(original_text, result.redacted_text) if text_mode else []
    return Prediction(
        mode=source.mode,
        spans=_labelled(original_text, hidden, result) if text_mode else (),
        boxes=() if text_mode else _drawn_boxes(source, result),
        # A given category is not the model's answer: classification is not scored then.
        category=None if report.category_given else report.category,
        status=report.status,
        validator_verdict=report.validator_verdict,
        rounds=report.rounds,
        review_reasons=tuple(report.review_reasons),
        steps=tuple(report.steps),
        parse_errors=len(report.parse_errors),
        named=tuple(
            NamedItem(
                step=MODEL_SOURCES[d.source],
                round=d.round,
                label=d.label,
                value=d.value,
                index=d.index,
            )
            for d in report.detections
            if d.source in MODEL_SOURCES
        ),
        rejected=tuple(report.parse_errors),
        wall_ms=wall_ms,
        error=report.error,
    )


MODEL_SOURCES = {Source.DETECT: Step.DETECT, Source.VALIDATE: Step.VALIDATE}
"""Detections the model named, by the step that named them."""


def hidden_spans(original: str, redacted: str | None) -> list[tuple[int, int]]:
    """Character ranges of `original` whose words do not survive unchanged in `redacted`.

    No output at all (an ERROR run) hides nothing: the user got nothing redacted.
    """
    if redacted is None:
        return []
    words = list(_WORD.finditer(original))
    matcher = difflib.SequenceMatcher(
        a=[w.group() for w in words], b=_WORD.findall(redacted), autojunk=False
    )
    kept = [False] * len(words)
    for block in matcher.get_matching_blocks():
        for position in range(block.a, block.a + block.size):
            kept[position] = True
    spans: list[tuple[int, int]] = []
    for word, survived in zip(words, kept, strict=True):
        if survived:
            continue
        if spans and not original[spans[-1][1] : word.start()].strip():
            spans[-1] = (spans[-1][0], word.end())
        else:
            spans.append((word.start(), word.end()))
    return spans


def _labelled(
    original: str, spans: list[tuple[int, int]], result: PipelineResult
) -> tuple[PredictedSpan, ...]:
    """Attach the label of the detection whose span (or value) matches a hidden range."""
    detections = result.report.detections
    labelled = []
    for start, end in spans:
        hidden = original[start:end]
        label = next(
            (
                d.label
                for d in detections
                if (d.span is not None and d.span.start < end and start < d.span.end)
                or (d.span is None and d.value and (d.value in hidden or hidden in d.value))
            ),
            None,
        )
        labelled.append(PredictedSpan(start=start, end=end, label=label))
    return tuple(labelled)


def _drawn_boxes(source: Document, result: PipelineResult) -> tuple[PredictedBox, ...]:
    """The boxes the pipeline drew, labelled from the detections that produced them."""
    labels = {d.index: d.label for d in result.report.detections if d.index is not None}
    by_box = {
        source.elements[index].box: label
        for index, label in labels.items()
        if index < len(source.elements) and source.elements[index].box is not None
    }
    return tuple(PredictedBox(box=box, label=by_box.get(box)) for box in result.boxes)
