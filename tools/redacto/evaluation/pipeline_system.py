"""Our pipeline as a system under test: corpus document in, scorer's `Prediction` out.

Image mode scores the boxes the pipeline actually drew. Text mode scores the redacted
text it actually returned: the output is aligned word by word with the original, and
every original word that did not survive unchanged counts as hidden. So a redaction the
LLM rewrite dropped, or a sentence it mangled, is scored as it would reach the user —
not as the detections say it should have been.
"""

from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass, replace

from redacto.corpus.schema import CorpusDocument, RenderedPage
from redacto.document import (
    LIBRARY_DETECTORS,
    ConstrainedDecoding,
    Detector,
    Document,
    Mode,
    Source,
    Step,
    detectors_text,
)
from redacto.evaluation.inputs import PageReader
from redacto.evaluation.prediction import NamedItem, PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.results import OcrChoice
from redacto.host.resources import portable
from redacto.inputs import ImageInput, InputFile, TextInput, redact
from redacto.models import open_model
from redacto.pipeline import ImageReading, PipelineOptions, PipelineResult
from redacto.pipeline.policy import options_for_model
from redacto.pipeline.state import MAX_ROUNDS
from redacto.prompts import PromptLibrary

_WORD = re.compile(r"\S+")


class PipelineSystem:
    """`redacto.inputs.redact` with one engine (opened once) and the shipped prompts."""

    def __init__(
        self,
        engine_uri: str,
        ocr: OcrChoice = "gold",
        rules: bool = True,
        gold_category: bool = False,
        image_reading: ImageReading | None = None,
        max_rounds: int = MAX_ROUNDS,
        constrained_decoding: ConstrainedDecoding | None = None,
        detectors: frozenset[Detector] = LIBRARY_DETECTORS,
        strict: bool = False,
    ) -> None:
        """`engine_uri`: what `redacto.models.open_model` opens. `image_reading` and
        `constrained_decoding` None: the model's own choice (run_pipeline applies every
        setting of its policy itself; `--image-reading` and `--constrained-decoding` in
        the eval choose another). `detectors`: the tiers that read the pages; without
        the model, the engine is opened but never called. `strict`: `--strict`, every
        word no reader could explain is redacted (`PipelineOptions.strict`)."""
        self.engine = open_model(engine_uri)
        self.prompts = PromptLibrary.load()
        self.reader = PageReader(ocr)
        self.options = PipelineOptions(
            rules=rules,
            image_reading=image_reading,
            max_rounds=max_rounds,
            constrained_decoding=constrained_decoding,
            detectors=detectors,
            strict=strict,
        )
        self.gold_category = gold_category
        identity = self.engine.identity
        # What run_pipeline will apply from the model's own policy, said in the run's identity.
        applied = options_for_model(self.options, self.engine)
        sha = f" sha256 {identity.sha256[:12]}" if identity.sha256 else ""
        given = "; gold category given" if gold_category else ""
        untrusted = "" if applied.trust_validator_pass else "; validator PASS not trusted"
        if not identity.policy.trusted:
            untrusted += f" (model not measured: {identity.policy.value})"
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
            f"detectors {detectors_text(detectors)}; "
            f"image read as {image_reading.value}{given}{untrusted}{no_redact_call}{rounds}"
        )

    def predict(
        self, document: CorpusDocument, mode: Mode, page: RenderedPage | None
    ) -> Prediction:
        """Redact the document the way a user's file is redacted (`redacto.inputs`: the
        same `redact` as the CLI, on the same kind of input) and score what it would write.
        OCR is included in the time.

        The input is the text, or the rendered page with its words handed over (so every
        system reads the same words); nothing is written: the text and the report are taken
        as `write` would write them.
        """
        started = time.perf_counter()
        options = self.options
        if self.gold_category:
            options = replace(options, category=document.category)
        source: InputFile
        if mode is Mode.TEXT:
            source = TextInput.of_text(document.text, "document.txt")
        else:
            if page is None:
                raise ValueError("image mode needs the rendered page")
            source = ImageInput.with_words(page.image_path, self.reader.read(page))
        redaction = redact(source, self.engine, self.prompts, options=options)
        report = redaction.report_as_written
        result = PipelineResult(
            report=report, redacted_text=redaction.text_as_written, boxes=tuple(report.boxes)
        )
        wall_ms = (time.perf_counter() - started) * 1000
        return prediction_from_result(document.text, source.document, result, wall_ms)

    def close(self) -> None:
        self.engine.close()


@dataclass(frozen=True)
class PipelineSpec:
    """A `PipelineSystem` as a value (its arguments): each eval worker opens its own from it
    (`redacto.evaluation.workers`)."""

    engine_uri: str
    ocr: OcrChoice = "gold"
    rules: bool = True
    gold_category: bool = False
    image_reading: ImageReading | None = None
    max_rounds: int = MAX_ROUNDS
    constrained_decoding: ConstrainedDecoding | None = None
    detectors: frozenset[Detector] = LIBRARY_DETECTORS
    strict: bool = False

    def system(self) -> PipelineSystem:
        """The system, its NER tier loaded at its first page (as `eval run` in one process
        has always done)."""
        return PipelineSystem(
            self.engine_uri,
            ocr=self.ocr,
            rules=self.rules,
            gold_category=self.gold_category,
            image_reading=self.image_reading,
            max_rounds=self.max_rounds,
            constrained_decoding=self.constrained_decoding,
            detectors=self.detectors,
            strict=self.strict,
        )

    def open(self) -> PipelineSystem:
        """A worker's system, its NER tier opened now where it reads the pages: loaded
        once, at the worker's start, as a batch worker does."""
        system = self.system()
        if Detector.NER in self.detectors:
            from redacto.ner import ner_session

            try:
                ner_session()
            except Exception:
                system.close()
                raise
        return system


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
