"""What the steps share: options, progress events, the call context and the result.

Steps are plain functions of the document and the detections so far; the `StepContext`
carries what every step needs (engine, prompts, options, where events go) and collects
the per-call traces and parse errors that end up in `report.json`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from redacto.document import (
    LIBRARY_DETECTORS,
    Box,
    Category,
    ConstrainedDecoding,
    Detector,
    Element,
    ImageReading,
    Step,
    ValidatorVerdict,
)
from redacto.engines import ChatRequest, Engine, OnText, Reply, ReplyConstraint
from redacto.pipeline.chunking import CHUNK_SIZE
from redacto.pipeline.constraint import ReplyShape, answer_pattern
from redacto.pipeline.guard import LineWatch
from redacto.pipeline.parsing import LineRejected
from redacto.prompts import PromptLibrary
from redacto.report import ParseError, RunReport, StepTrace

STEP_NUMBERS = {Step.CLASSIFY: 1, Step.DETECT: 2, Step.REDACT: 3, Step.VALIDATE: 4}


@dataclass(frozen=True)
class OutputBudget:
    """Most tokens each step may generate; redact rewrites the whole text."""

    classify: int = 64
    detect: int = 512
    redact: int = 1024
    validate: int = 256

    def for_step(self, step: Step) -> int:
        return int(getattr(self, step.value))


MAX_ROUNDS = 3
"""Redact+validate rounds at most: 1 + 2 retries (DESIGN.md)."""


@dataclass(frozen=True)
class PipelineOptions:
    """Knobs of one run. The defaults are the product's behaviour."""

    rules: bool = True
    """False turns the rules tier off whatever `detectors` says (`--no-rules`)."""
    detectors: frozenset[Detector] = LIBRARY_DETECTORS
    """The tiers that read the page (`--detectors rules,ner,model`; the CLI and the eval
    default to all three, the library to rules + model: `LIBRARY_DETECTORS`). Without the
    model no classify, detect or validate call is made: the category is the given one or
    General, the output is the located hits, and the run ends NEEDS_REVIEW."""
    category: Category | None = None
    """Said by the user ("this is a medical record"): classify is skipped and this drives
    detect, the rules and validate. None: the model classifies."""
    chunk_size: int = CHUNK_SIZE
    max_rounds: int = MAX_ROUNDS
    budget: OutputBudget = field(default_factory=OutputBudget)
    trust_validator_pass: bool = True
    """False for a model whose validator was measured saying PASS on pages that still leaked
    (its manifest's `[pipeline] trust_validator_pass`): its PASS verdict ends the rounds but
    the run ends NEEDS_REVIEW, never PASS."""
    image_reading: ImageReading | None = None
    """How an image-mode page is shown to detect and validate (the manifest's
    `[pipeline] image_reading`). None: as the model's manifest says (`policy`)."""
    model_redact: bool | None = None
    """Text mode: ask the model to rewrite the text with placeholders before the locator's
    deterministic pass (the manifest's `[pipeline] model_redact`). False for a model whose
    answers the eval never accepted: the call then costs time and changes nothing. None: as
    the model's manifest says (`policy`)."""
    constrained_decoding: ConstrainedDecoding | None = None
    """Which `LABEL: value` calls decode under a pattern built from the page's words (the
    manifest's `[pipeline] constrained_decoding`), where the engine can constrain decoding.
    None: as the model's manifest says (`policy`)."""
    validator_verdict: ValidatorVerdict | None = None
    """How validate's verdict is read: the free answer, or scored against `pass_margin` (the
    manifest's `[pipeline] validator_verdict`). An engine that cannot score runs the answer
    rule, and then a PASS is not trusted. None: as the model's manifest says (`policy`)."""
    pass_margin: float | None = None
    """The scored verdict's threshold on log P(PASS) − log P(FAIL) (the manifest's
    `[pipeline] pass_margin`). None: the manifest's, else 0."""
    strict: bool = False
    """`--strict`: every word the residual check cannot explain (`redacto.lexicon`) is
    redacted, as a detection with source `lexicon` that fails its round. False (the CLI's
    default too): those words stay readable and the run ends NEEDS_REVIEW naming them."""
    language: str | None = None
    """The document's language for the residual check's dictionary (`en`, `fr`); None:
    the one whose dictionary knows the most of the document's words."""


def runs(options: PipelineOptions, detector: Detector) -> bool:
    """Whether `detector` reads the page in a run with these options."""
    if detector is Detector.RULES and not options.rules:
        return False
    return detector in options.detectors


class Phase(StrEnum):
    START = "start"
    PROGRESS = "progress"
    END = "end"


@dataclass(frozen=True)
class ProgressEvent:
    """A step started, found something, or ended. Carries counts, never document values; a
    PROGRESS event of an image-mode run names the element just detected (`index`: a rule
    hit, a detector line or a validator item), so a screen can draw its box while the model
    is still talking (`redacto serve`, the app's `LiveBoxes`)."""

    step: Step
    phase: Phase
    round: int = 1
    category: Category | None = None
    found: int = 0
    chunk: int | None = None
    chunks: int | None = None
    verdict: str | None = None
    index: int | None = None

    def describe(self) -> str:
        """The progress line, e.g. `Step 2/4: Detecting Medical identifiers… 7 found`."""
        number = STEP_NUMBERS[self.step]
        prefix = f"Step {number}/4: "
        part = ""
        if self.chunks and self.chunks > 1 and self.chunk is not None:
            part = f" (part {self.chunk + 1}/{self.chunks})"
        again = f" (round {self.round})" if self.round > 1 else ""
        if self.step is Step.CLASSIFY:
            tail = f" {self.category.value}" if self.phase is Phase.END and self.category else ""
            return f"{prefix}Classifying document…{tail}"
        if self.step is Step.DETECT:
            kind = f"{self.category.value} " if self.category else ""
            return f"{prefix}Detecting {kind}identifiers{part}… {self.found} found"
        if self.step is Step.REDACT:
            return f"{prefix}Redacting{again}… {self.found} redacted"
        said = [self.verdict] if self.verdict else []
        if self.found:
            said.append(f"{self.found} missed")
        outcome = f" {', '.join(said)}" if said else ""
        return f"{prefix}Validating{again}{part}…{outcome}"


OnEvent = Callable[[ProgressEvent], None]


@dataclass(frozen=True)
class PipelineResult:
    """A finished run. Outputs are None when the run ended in ERROR (nothing to claim)."""

    report: RunReport
    redacted_text: str | None = None
    redacted_elements: tuple[Element, ...] | None = None
    boxes: tuple[Box, ...] = ()


@dataclass
class StepContext:
    """Engine, prompts and options for the steps, plus the traces they record."""

    engine: Engine
    prompts: PromptLibrary
    options: PipelineOptions
    on_event: OnEvent | None = None
    traces: list[StepTrace] = field(default_factory=list)
    parse_errors: list[ParseError] = field(default_factory=list)
    unread_chunks: list[int] = field(default_factory=list)
    """Chunks whose detect answer was rejected whole (every line junk or invented)."""

    def __post_init__(self) -> None:
        # Every setting is decided before a step reads it, also in a context built without
        # run_pipeline: one left to a manifest that was never applied takes the default.
        from redacto.pipeline.policy import settled

        self.options = settled(self.options)
        if self.options.validator_verdict is ValidatorVerdict.SCORED and not (
            self.engine.supports_scoring
        ):
            # The manifest's trust was measured on the scored rule; here the answer rule runs.
            self.options = replace(self.options, trust_validator_pass=False)

    def emit(self, event: ProgressEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def constraint_for(
        self, step: Step, shown: str, labels: Sequence[str], shape: ReplyShape
    ) -> ReplyConstraint | None:
        """The pattern a `LABEL: value` reply of `step` to a call showing `shown` must
        match, when the options constrain that step and the engine can apply it."""
        setting = self.options.constrained_decoding
        if setting is None or not setting.covers(step) or not self.engine.supports_constraints:
            return None
        return ReplyConstraint(answer_pattern(shown, labels, shape).pattern)

    def call(
        self,
        step: Step,
        system: str,
        user: str,
        on_text: OnText | None = None,
        constraint: ReplyConstraint | None = None,
    ) -> Reply:
        """One fresh, greedy conversation; `on_text` sees the reply as it is generated."""
        request = ChatRequest(
            step=step,
            system=system,
            user=user,
            max_output_tokens=self.options.budget.for_step(step),
            constraint=constraint,
        )
        started = time.perf_counter()
        reply = self.engine.complete(request, on_text)
        if reply.stats.ms <= 0:
            elapsed = (time.perf_counter() - started) * 1000
            reply = Reply(text=reply.text, stats=replace(reply.stats, ms=elapsed))
        return reply

    def call_lines(
        self,
        step: Step,
        system: str,
        user: str,
        on_line: Callable[[str], None],
        rejected: list[LineRejected],
        constraint: ReplyConstraint | None = None,
    ) -> Reply:
        """A call whose reply is acted on line by line as each ends.

        `rejected` is where `on_line` files the lines it drops; once they show the model has
        left the format, decoding stops (see `guard.LineWatch`), and a constrained reply
        stops at its first repeated line. The reply says `stopped` whenever the watch left
        part of it unread, also when the stop came at its last piece.
        """
        watch = LineWatch(on_line, rejected, stop_on_repeat=constraint is not None)
        reply = self.call(step, system, user, on_text=watch.feed, constraint=constraint)
        watch.finish()
        if watch.stopped and not reply.stats.stopped:
            reply = Reply(text=reply.text, stats=replace(reply.stats, stopped=True))
        return reply

    def record(
        self,
        step: Step,
        reply: Reply,
        rejected: list[LineRejected],
        round_number: int = 1,
        chunk: int | None = None,
        constrained: bool = False,
    ) -> None:
        """Keep the call's trace and the lines it could not use."""
        self.traces.append(
            StepTrace(
                step=step,
                round=round_number,
                chunk=chunk,
                ms=round(reply.stats.ms, 3),
                prompt_tokens=reply.stats.prompt_tokens,
                output_tokens=reply.stats.output_tokens,
                ttft_ms=reply.stats.ttft_ms,
                parse_errors=len(rejected),
                stopped=reply.stats.stopped,
                constrained=constrained,
            )
        )
        self.parse_errors.extend(
            ParseError(
                step=step, round=round_number, chunk=chunk, line=item.line, reason=item.reason
            )
            for item in rejected
        )
