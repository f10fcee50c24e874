"""The proxy's detectors: the rules tier always, the NER tier unless turned off, the model
tier where configured.

The rules tier is the project's checksum-validated recognizers (`redacto.rules`), with
their prefilter: a text that holds nothing a recognizer needs costs a few microseconds.
The NER tier is Rampart (`redacto.ner`, ≈ 10 ms a short text on one core), read on a scrub
thread, never on the event loop. The model tier runs the text-mode pipeline (classify,
detect, validate) on each text the conversation has not shown it before, on a worker
thread, one call at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from redacto.document import Category, Document
from redacto.engines import Engine
from redacto.pipeline import PipelineOptions, find_detections
from redacto.pipeline.state import MAX_ROUNDS
from redacto.prompts import PromptLibrary
from redacto.proxy.escapes import undo_json_escapes
from redacto.rules import find_rule_matches


@dataclass(frozen=True)
class Found:
    """One value to hide: its label, its text, and where it is (None: every occurrence)."""

    label: str
    value: str
    start: int | None = None
    end: int | None = None


class TextDetector(Protocol):
    """A detector tier: the values to hide in one text."""

    def find(self, text: str) -> list[Found]: ...


class RuleTier:
    """The rule safety net over plain text, for one category's recognizers.

    The text is read with its JSON escapes undone (`undo_json_escapes`: a tool call's
    arguments are JSON text) and, by the rules themselves, normalised; each value is
    reported as written, escapes and invisible characters included."""

    def __init__(self, category: Category = Category.GENERAL) -> None:
        self.category = category

    def find(self, text: str) -> list[Found]:
        read = undo_json_escapes(text)
        found = []
        for match in find_rule_matches(Document.from_text(read.text), self.category):
            assert match.span is not None  # text mode: every match has its span
            start, end = match.span.start, match.span.end
            if read.maps:
                start, end = read.source_span(start, end)
            found.append(Found(match.label, text[start:end], start, end))
        return found


class NerTier:
    """The NER token classifier over plain text, for one category's labels and preserve
    rules; `find` blocks (≈ 10 ms a short text: call it off the event loop)."""

    def __init__(self, prompts: PromptLibrary, category: Category = Category.GENERAL) -> None:
        from redacto.ner import ner_session

        ner_session()  # loaded now: a missing or changed model stops the proxy's start
        self.category = category
        self.labels = prompts.category_labels(category)

    def find(self, text: str) -> list[Found]:
        from redacto.ner import find_ner_spans

        return [
            Found(span.label, text[span.start : span.end], span.start, span.end)
            for span in find_ner_spans(text, self.category, self.labels)
        ]


class ModelTier:
    """The text-mode pipeline on one engine; `find` blocks (call it off the event loop)."""

    def __init__(
        self,
        engine: Engine,
        prompts: PromptLibrary,
        *,
        category: Category | None = None,
        max_rounds: int = MAX_ROUNDS,
    ) -> None:
        self.engine = engine
        self.prompts = prompts
        # The rules tier has run already; a known category skips the classify call; the
        # locator's deterministic pass places the values (no model rewrite of the text).
        self.options = PipelineOptions(
            max_rounds=max_rounds, rules=False, category=category, model_redact=False
        )

    def find(self, text: str) -> list[Found]:
        """Raises `DetectionFailed` (its message names no text) when the run ended ERROR."""
        detections = find_detections(
            Document.from_text(text), self.engine, self.prompts, options=self.options
        )
        found = []
        for detection in detections:
            if detection.span is not None:
                start, end = detection.span.start, detection.span.end
                found.append(Found(detection.label, text[start:end], start, end))
            elif detection.value:
                found.append(Found(detection.label, detection.value))
        return found
