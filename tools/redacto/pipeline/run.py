"""The pipeline, top to bottom: classify, detect, then redact and validate in rounds.

`run_pipeline` is the one place to read the data flow; each step lives in its own module.
A privacy tool fails closed: anything it could not verify ends NEEDS_REVIEW, never PASS,
and an engine failure ends ERROR with no redacted output claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from redacto.document import (
    Category,
    Detection,
    Detector,
    Document,
    Mode,
    Source,
    Span,
    Status,
)
from redacto.engines import Engine, EngineError
from redacto.pipeline.classify import Classification, classify
from redacto.pipeline.detect import detect
from redacto.pipeline.detections import union_detections
from redacto.pipeline.parsing import Verdict
from redacto.pipeline.policy import options_for_model
from redacto.pipeline.redact import (
    ImageRedaction,
    TextRedaction,
    redact_elements,
    redact_text,
    redaction_result,
)
from redacto.pipeline.residual import document_language, hidden_by, unexplained_words
from redacto.pipeline.second_opinion import OutputReader, SecondOpinion
from redacto.pipeline.state import (
    OnEvent,
    PipelineOptions,
    PipelineResult,
    StepContext,
    runs,
)
from redacto.pipeline.validate import validate
from redacto.prompts import PromptLibrary
from redacto.report import ReviewReason, RunReport, UnexplainedWord, describe_error

NerFinder = Callable[[Document, Category, Collection[str]], list[Detection]]
"""The NER tier on a document under a category and its labels (`redacto.ner`'s
`find_ner_detections`; a test gives a fake, as Kotlin's `NerDetector`)."""


class DetectionFailed(RuntimeError):
    """A run that was to find values ended in ERROR: what it was to hide must not be sent.

    `str()` names no text (the proxy logs it); `reason` is the report's error, which may
    quote the engine (proofread writes it into mistakes.json)."""

    def __init__(self, reason: str | None) -> None:
        super().__init__("the detector could not read the text")
        self.reason = reason or "no reason given"


def find_detections(
    document: Document,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> list[Detection]:
    """Every detection of one run (rules, NER and model, every round), in its report's
    order, for a face that hides the values elsewhere than in the pipeline's own output:
    the proxy's model tier, proofread. Raises `DetectionFailed` when the run ended ERROR."""
    report = run_pipeline(document, engine, prompts, options=options, on_event=on_event).report
    if report.status is Status.ERROR:
        raise DetectionFailed(report.error)
    return list(report.detections)


def run_pipeline(
    document: Document,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
    ner: NerFinder | None = None,
) -> PipelineResult:
    """Redact one document. Engine failures become an ERROR result, never an exception.

    The model's manifest settings are applied to `options` first (`policy`): a caller can be
    stricter than the manifest, never looser, so no caller gets a PASS the manifest forbids.
    The NER tier, where `options.detectors` names it, is `ner` (default: Rampart,
    `redacto.ner.find_ner_detections`).
    """
    options = options_for_model(options or PipelineOptions(), engine)
    context = StepContext(engine, prompts, options, on_event)
    run = _Run(document, context, ner)
    try:
        return run.execute()
    except EngineError as error:
        return run.failed(error)


class _Run:
    """The state of one run as the steps fill it in."""

    def __init__(self, document: Document, context: StepContext, ner: NerFinder | None) -> None:
        self.document = document
        self.context = context
        self.ner = ner
        self.classification = Classification(Category.GENERAL, "", fallback=False)
        self.detections: list[Detection] = []
        self.named_by_validator: list[str] = []
        self.rounds = 0
        self.reasons: list[ReviewReason] = []
        self.verdict: Verdict | None = None
        self.model_pieces: tuple[tuple[Span, Detection], ...] = ()
        self.language: str | None = None
        """The residual check's language, once validate has run (`pipeline.residual`)."""
        self.redacted_unread: list[UnexplainedWord] = []
        """Under `strict`: unexplained words the last round redacted with no reader after."""

    def execute(self) -> PipelineResult:
        if not self.document.plain_text().strip():
            self.reasons.append(ReviewReason.NO_TEXT)
            return self.finished(self.redact(ask_model=False), Verdict.FAIL)

        # 1. Classify
        model = runs(self.context.options, Detector.MODEL)
        if model:
            self.classification = classify(self.document, self.context)
        elif self.context.options.category is not None:
            self.classification = Classification(
                self.context.options.category, "", fallback=False, given=True
            )
        category = self.classification.category

        # 2. Detect (the rules and the NER tier first; every tier's hits are unioned by
        # word, never subtracted)
        self.detections = self.rule_detections(category)
        self.detections, _ = union_detections(self.detections, self.ner_detections(category))
        if not model:
            self.reasons.append(ReviewReason.MODEL_OFF)
            return self.finished(self.redact(ask_model=False), Verdict.FAIL)
        model_hits = detect(self.document, category, self.context, already=self.detections)
        self.detections, _ = union_detections(self.detections, model_hits)

        # 3–4. Redact and validate, adding what the validator names, for at most N rounds
        verdict = Verdict.FAIL
        self.language = document_language(self.document, self.context.options.language)
        for round_number in range(1, self.context.options.max_rounds + 1):
            self.rounds = round_number
            redaction = self.redact(round_number=round_number)
            check = validate(
                self.document,
                redaction,
                self.detections,
                category,
                self.context,
                round_number,
                self.second_opinion(),
                self.language,
            )
            self.named_by_validator.extend(check.named)
            verdict = self.verdict = check.verdict
            if verdict is Verdict.PASS:
                if not self.context.options.trust_validator_pass:
                    self.reasons.append(self.untrusted_pass_reason())
                break
            if not check.missed:
                self.reasons.append(ReviewReason.NOTHING_USABLE)
                break
            self.detections, _ = union_detections(self.detections, check.missed)
            if round_number == self.context.options.max_rounds:
                # Out of rounds: keep everything found in the output, unverified.
                if check.model_verdict is Verdict.FAIL:
                    self.reasons.append(ReviewReason.STILL_FAILING)
                if check.found_in_output:
                    self.reasons.append(ReviewReason.OUTPUT_STILL_READS)
                if self.context.options.strict:
                    self.redacted_unread = [
                        word.model_copy(update={"redacted": True}) for word in check.unexplained
                    ]
                redaction = self.redact(round_number=round_number, ask_model=False)
        return self.finished(redaction, verdict)

    def untrusted_pass_reason(self) -> ReviewReason:
        """Why a PASS is not trusted: the model's verified policy says so, or the model
        carries no policy that could be verified (whatever its name)."""
        if self.context.engine.identity.policy.trusted:
            return ReviewReason.PASS_NOT_TRUSTED
        return ReviewReason.MODEL_NOT_MEASURED

    def rule_detections(self, category: Category) -> list[Detection]:
        if not runs(self.context.options, Detector.RULES):
            return []
        return _read_rules(self.document, category)

    def ner_detections(self, category: Category) -> list[Detection]:
        if not runs(self.context.options, Detector.NER):
            return []
        return self.read_ner(self.document, category)

    def read_ner(self, document: Document, category: Category) -> list[Detection]:
        allowed = self.context.prompts.category_labels(category)
        if self.ner is not None:
            return self.ner(document, category, allowed)
        from redacto.ner import find_ner_detections

        return find_ner_detections(document, category, allowed)

    def second_opinion(self) -> SecondOpinion:
        """The run's own rules and NER tier, to read each round's output again."""
        readers: list[tuple[Source, OutputReader]] = []
        if runs(self.context.options, Detector.RULES):
            readers.append((Source.VALIDATE_RULES, _read_rules))
        if runs(self.context.options, Detector.NER):
            readers.append((Source.VALIDATE_NER, self.read_ner))
        return SecondOpinion(tuple(readers))

    def redact(
        self, round_number: int = 1, *, ask_model: bool = True
    ) -> ImageRedaction | TextRedaction:
        if self.document.mode is Mode.IMAGE:
            return redact_elements(self.document, self.detections, self.context, round_number)
        redaction = redact_text(
            self.document,
            self.detections,
            self.context,
            round_number,
            ask_model=ask_model and self.context.options.model_redact is True,
            earlier_pieces=self.model_pieces,
        )
        self.model_pieces = redaction.model_pieces
        return redaction

    def finished(
        self, redaction: ImageRedaction | TextRedaction, verdict: Verdict
    ) -> PipelineResult:
        if redaction.not_located:
            self.reasons.append(ReviewReason.NOT_LOCATED)
        if self.context.unread_chunks:
            self.reasons.append(ReviewReason.DETECT_REJECTED)
        unexplained = self.unexplained_in(redaction)
        if unexplained:
            self.reasons.append(ReviewReason.UNEXPLAINED_WORDS)
        status = (
            Status.PASS if verdict is Verdict.PASS and not self.reasons else Status.NEEDS_REVIEW
        )
        report = self.report(status)
        report.unexplained = unexplained
        report.language = self.language
        report.not_located = list(redaction.not_located)
        if isinstance(redaction, TextRedaction):
            report.redact_fallback = not redaction.model_answer_accepted and bool(self.detections)
        return redaction_result(report, redaction)

    def unexplained_in(self, redaction: ImageRedaction | TextRedaction) -> list[UnexplainedWord]:
        """The residual check on the final output, where validate ran: the words `strict`
        redacted after the last reading, then those the output still shows."""
        if self.language is None:
            return []
        category = self.classification.category
        shown = unexplained_words(self.document, hidden_by(redaction), category, self.language)
        return [*self.redacted_unread, *shown]

    def failed(self, error: EngineError) -> PipelineResult:
        report = self.report(Status.ERROR)
        report.error = describe_error(error)
        return PipelineResult(report=report)

    def report(self, status: Status) -> RunReport:
        return RunReport(
            status=status,
            mode=self.document.mode,
            category=self.classification.category,
            document_type=self.classification.document_type,
            classify_fallback=self.classification.fallback,
            category_given=self.classification.given,
            rounds=self.rounds,
            detections=list(self.detections),
            review_reasons=list(self.reasons),
            validator_missed=list(self.named_by_validator),
            validator_verdict=self.verdict,
            steps=list(self.context.traces),
            parse_errors=list(self.context.parse_errors),
            model=self.context.engine.identity,
        )


def _read_rules(document: Document, category: Category) -> list[Detection]:
    from redacto.rules import find_rule_detections

    return list(find_rule_detections(document, category))
