"""`report.json`: everything one run did, in a typed, versioned shape.

Reports may hold the user's own document values (they are the user's output); logs never do.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from redacto.document import Box, Category, Detection, Frozen, Mode, Span, Status, Step

REPORT_VERSION = 1


class StepTrace(BaseModel):
    """One LLM call: which step, round and chunk, and what it cost."""

    model_config = ConfigDict(extra="forbid")

    step: Step
    round: int = 1
    chunk: int | None = None
    ms: float
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    ttft_ms: float | None = None
    parse_errors: int = 0
    stopped: bool = False
    """Decoding was stopped early: the reply had left the step's format (pipeline/guard.py)."""
    constrained: bool = False
    """The reply was decoded under a pattern built from the page (`pipeline.constraint`)."""
    verdict_margin: float | None = None
    """A scored verdict (`validator_verdict = "scored"`): log P(PASS) − log P(FAIL) as the
    reply's start. Such a trace is the scoring itself; nothing was generated."""


class RejectReason(StrEnum):
    """Why a model line was dropped. Values are stable: reports and vectors use them."""

    JUNK = "junk"
    UNKNOWN_LABEL = "unknown label"
    OUT_OF_CHUNK = "index outside the chunk"
    DUPLICATE = "duplicate"
    EMPTY_VALUE = "empty value"
    PLACEHOLDER_VALUE = "value is a placeholder"
    UNKNOWN_CATEGORY = "unknown category"
    BAD_VERDICT = "no PASS/FAIL verdict"
    ALREADY_REDACTED = "already redacted"
    NOT_IN_DOCUMENT = "not in the document"
    NOT_A_NAME = "not a name"
    """A NAME whose value is a lone pronoun or function word (`redacto.text.not_names`)."""
    NOT_AN_IDENTIFIER = "not an identifier"
    """A value that is only a time of day or an amount (`redacto.text.not_identifiers`)."""
    KEPT_READABLE = "kept readable by the category"
    """A value the category's preserve rules keep readable wherever it stands
    (`redacto.pipeline.kept_readable`)."""


class Verdict(StrEnum):
    """The validator's word on a redacted output (`validator_verdict` in the report)."""

    PASS = "PASS"
    FAIL = "FAIL"


class ParseError(BaseModel):
    """A line the model produced that could not be used, and why (kept for the report)."""

    model_config = ConfigDict(extra="forbid")

    step: Step
    round: int = 1
    chunk: int | None = None
    line: str
    reason: RejectReason


class PolicyState(StrEnum):
    """Whether a model carries a policy its run may rely on (`redacto.modelfile.policy`).

    Only `verified` (a `.litertlm` whose policy and content match its seal and digest) and
    `declared` (an engine that reads no model file and states its own settings: a script)
    give the model's `[pipeline]` settings; every other state runs the fail-closed defaults,
    so its validator's PASS is not trusted."""

    VERIFIED = "verified"
    DECLARED = "declared by the engine"
    ABSENT = "no policy in the file"
    EDITED = "policy edited since it was sealed"
    CONTENT_CHANGED = "model content changed since its policy was sealed"
    UNREADABLE = "not a readable model file"
    NOT_OPENED = "the model was not opened"

    @property
    def trusted(self) -> bool:
        """May the model's own settings apply (else the fail-closed defaults do)?"""
        return self in (PolicyState.VERIFIED, PolicyState.DECLARED)


class ModelIdentity(Frozen):
    """Which model answered: what an engine says of itself, and what every report records,
    so a result can be traced to a file (the engine's URI, the file name, its sha256), and
    the policy the file carries (the manifest it was built from; `policy`: whether that
    policy could be verified — the run's settings come from it, never from a file name)."""

    uri: str
    name: str
    sha256: str | None = None
    manifest: str | None = None
    quant: str | None = None
    policy: PolicyState = PolicyState.NOT_OPENED


class InputInfo(BaseModel):
    """The input file a report belongs to: its name and the sha256 of its bytes."""

    model_config = ConfigDict(extra="forbid")

    name: str
    sha256: str


class PdfPageReport(BaseModel):
    """One page of a PDF input: its size in pixels at the report's DPI and in points (the
    area a viewer shows, upright; `rotation` is the page's /Rotate), where its words came
    from (`text_layer`, `ocr`, or `text_layer_and_ocr`), the boxes burned into it (pixels
    of that page), and `hidden_words`: text-layer words the page does not show (white,
    covered, clipped, invisible), left out of the model's input and of `redacted.txt`."""

    model_config = ConfigDict(extra="forbid")

    page: int
    width: int
    height: int
    width_pt: float = 0.0
    height_pt: float = 0.0
    rotation: int = 0
    source: str
    words: int
    hidden_words: int = 0
    boxes: list[Box] = Field(default_factory=list)
    text_words: int = 0
    """Words in the page's invisible text layer in `redacted.pdf` (its kept words)."""
    unread_characters: int = 0
    """Shown characters that neither the text layer's reading nor OCR read (the run is then
    NEEDS_REVIEW, `ReviewReason.PDF_TEXT_UNREAD`)."""


class PdfReport(BaseModel):
    """A PDF run, page by page (`RunReport.boxes` holds every page's boxes in one list;
    these say which page each belongs to). `verified`: the written `redacted.pdf` passed
    every check after writing (docs/pdf.md); `text_layer`: it carries the kept words as
    invisible text (not with `--no-text-layer`). Python only: the app takes photos."""

    model_config = ConfigDict(extra="forbid")

    dpi: int
    pages: list[PdfPageReport]
    verified: bool = False
    text_layer: bool = False


class ReviewReason(StrEnum):
    """Why a run ended NEEDS_REVIEW: what a person should look at."""

    NO_TEXT = "no text found"
    STILL_FAILING = "validator still failing after the last round"
    OUTPUT_STILL_READS = "rules or NER still find values in the output after the last round"
    """Validate's second opinion (`pipeline.second_opinion`) found a value readable in the
    last round's output: it is redacted, but nothing read the output after that."""
    NOTHING_USABLE = "validator failed without naming anything usable"
    NOT_LOCATED = "detections could not be located"
    PASS_NOT_TRUSTED = "this model's validator PASS is not trusted"
    """The model's verified policy says its validator was measured passing leaky pages."""
    MODEL_NOT_MEASURED = "this model's validator has not been measured"
    """The model carries no verified policy (a foreign or edited file): its PASS is not
    trusted, whatever its file is called."""
    MODEL_OFF = "the model tier did not run: no validator read the output"
    DETECT_REJECTED = "a detect answer was rejected whole"
    """Every line of a detect call's answer was junk or named what is not on the page: that
    chunk was not read, and no validator PASS vouches for it."""
    UNEXPLAINED_WORDS = "words no reader could explain"
    """The residual check (`redacto.lexicon`, docs/lexicon.md) found words in the final
    output that no dictionary or rule of the category explains: `RunReport.unexplained`
    lists them, and `describe_reasons` writes this as "N words no reader could explain".
    Under `--strict` they were redacted, but nothing read the output after that."""
    PDF_TEXT_UNREAD = "a PDF page shows text that could not be read"
    """A PDF page shows characters its text layer holds but the reader could not group into
    words (an angle it does not handle, vertical writing, text along a curve) and OCR did
    not read either: `pdf.pages[].unread_characters` names the pages (docs/pdf.md)."""


class UnexplainedWord(BaseModel):
    """A word the final output leaves readable that no reader could explain (the residual
    check, docs/lexicon.md): where it stands and what it looks like."""

    model_config = ConfigDict(extra="forbid")

    value: str
    kind: str
    """What it looks like: a `redacto.lexicon.Kind` value (`capitalised`, `digits`, `email` …)."""
    span: Span | None = None
    """Text mode: where it stands in the input text."""
    index: int | None = None
    """Image mode: the element it is (or lies in)."""
    box: Box | None = None
    """Image mode: that element's box."""
    page: int = 0
    """The element's page (image mode); 0 in text mode."""
    redacted: bool = False
    """`--strict` redacted it (a detection with source `lexicon`)."""


class EditAction(StrEnum):
    """What a reviewer did to one detection."""

    ADD = "add"
    REMOVE = "remove"


class ReviewEdit(BaseModel):
    """One human edit, in the order made: a box (or text span) added, or a detection
    removed. An added detection has `source: reviewer`; a removed one keeps the source of
    whoever found it (a rule, the detector, the validator, or the reviewer's own earlier add)."""

    model_config = ConfigDict(extra="forbid")

    action: EditAction
    detection: Detection


class Review(BaseModel):
    """A person looked at the run and approved its output (`redacto serve`). `status` stays
    what the pipeline said; this records that a person checked it and every edit they made."""

    model_config = ConfigDict(extra="forbid")

    approved: bool = True
    edits: list[ReviewEdit] = Field(default_factory=list)


class RunReport(BaseModel):
    """The run's outcome. `count_shown` must always equal `len(boxes)` in image mode."""

    model_config = ConfigDict(extra="forbid")

    version: int = REPORT_VERSION
    status: Status
    mode: Mode
    category: Category
    document_type: str = ""
    classify_fallback: bool = False
    category_given: bool = False
    """The category came from the user (`--category`), not from the classify step."""
    rounds: int = 0
    detections: list[Detection] = Field(default_factory=list)
    boxes: list[Box] = Field(default_factory=list)
    count_shown: int = 0
    not_located: list[Detection] = Field(default_factory=list)
    review_reasons: list[ReviewReason] = Field(default_factory=list)
    unexplained: list[UnexplainedWord] = Field(default_factory=list)
    """The words of the final output no reader could explain (the residual check); a
    non-empty list comes with `ReviewReason.UNEXPLAINED_WORDS`."""
    language: str | None = None
    """The language whose dictionary the residual check read the output with (`en`, `fr`);
    None when it did not run."""
    redact_fallback: bool = False
    validator_missed: list[str] = Field(default_factory=list)
    validator_verdict: Verdict | None = None
    """The last validate round's verdict (`PASS`/`FAIL`); None when no validation ran. It
    differs from `status` when the run needs review for another reason."""
    steps: list[StepTrace] = Field(default_factory=list)
    parse_errors: list[ParseError] = Field(default_factory=list)
    model: ModelIdentity
    input: InputInfo | None = None
    """The file this run read (`redacto.inputs`); None for a document handed to the pipeline."""
    ocr: str | None = None
    pdf: PdfReport | None = None
    """Set for a PDF input: the pages, their boxes, and whether the output was verified."""
    review: Review | None = None
    """Set when a person reviewed and approved the output (`redacto serve`); None otherwise."""
    error: str | None = None


def describe_reasons(report: RunReport) -> list[str]:
    """The review reasons as a person reads them, the residual check's with its count
    (`3 words no reader could explain`)."""
    described = []
    for reason in report.review_reasons:
        if reason is ReviewReason.UNEXPLAINED_WORDS:
            count = len(report.unexplained)
            described.append(f"{count} word{'' if count == 1 else 's'} no reader could explain")
        else:
            described.append(reason.value)
    return described


def describe_error(error: BaseException) -> str:
    """How a report names the exception that ended a run: its type and its message."""
    return f"{type(error).__name__}: {error}"


def error_report(
    mode: Mode, model: ModelIdentity, error: BaseException, *, doing: str | None = None
) -> RunReport:
    """The report of a run that could not redact: status ERROR, nothing claimed.

    Every caller that fails before or around the pipeline builds its report here (`doing`
    says what was under way, e.g. "cannot write the outputs"); a failure inside the
    pipeline keeps that run's partial record (`redacto.pipeline.run`).
    """
    message = describe_error(error)
    return RunReport(
        status=Status.ERROR,
        mode=mode,
        category=Category.GENERAL,
        model=model,
        error=f"{doing}: {message}" if doing else message,
    )
