"""Proofreading: read, hide, ask, restore, place, write — the steps in one place.

1. read the input as `redacto redact` does (`read_input`, or `read_input_bytes` for an
   upload: a PDF's text layer or OCR, a photo's OCR, a text file);
2. find the identifiers with the pipeline (rules and model tier) and hide them behind
   placeholders (`mask`), checked before anything leaves; list the words left readable that
   no reader could explain (`readable`: the residual check), hidden too under `strict`;
3. ask the proofreader: the upstream LLM, streamed as JSON Lines, or offline Hunspell;
4. act on each mistake as its line completes: drop it if it touches a placeholder,
   restore the values (`restore`), place it on the words (`place`), tell the caller;
5. make `mistakes.json` and, for an input with pages (a PDF, a photo), `proofread.pdf`
   (`annotate`), in memory;
6. write them into the output folder (`write_proofreading`).

`proofread` is steps 2–5 on an input already read, and writes nothing (the review server
offers its files for download); `proofread_file` is all six for one path (`redacto
proofread`). It fails closed: a detector that fails stops the run before anything is sent;
an upstream that cannot be reached, answers garbage or breaks off ends the run with an
error, and what was placed so far is kept, marked incomplete. The input is only read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel

from redacto.document import Document, Status
from redacto.engines import EngineError
from redacto.inputs import (
    BadInputError,
    InputFile,
    OutputFile,
    ReadOptions,
    check_input,
    input_info,
    read_input,
    write_files,
)
from redacto.inputs.base import same_file
from redacto.lexicon import LexiconError
from redacto.models import ModelChoice, using_model
from redacto.pipeline import DetectionFailed, OnEvent, PipelineOptions, run_pipeline
from redacto.pipeline.residual import document_language
from redacto.prompts import PromptError, PromptLibrary
from redacto.proofread.annotate import proofread_pdf
from redacto.proofread.hunspell import LANGUAGE_NAMES, HunspellError, SpellCheck
from redacto.proofread.mask import (
    MaskedDocument,
    ValueWouldLeak,
    mask_document,
)
from redacto.proofread.mistakes import Mistake, MistakeLines, PlacedMistake
from redacto.proofread.place import Placer
from redacto.proofread.readable import ReadableWord, ResidualCheck
from redacto.proofread.restore import restore_mistake, touches_placeholder
from redacto.proofread.upstream import (
    ProofreadPrompt,
    UpstreamConfig,
    UpstreamError,
    first_model,
    stream_answer,
)
from redacto.report import InputInfo

PROOFREAD_PDF = "proofread.pdf"
MISTAKES_JSON = "mistakes.json"
EXIT_COMPLETE = 0
EXIT_FAILED = 1
LANGUAGES = ("auto", *sorted(LANGUAGE_NAMES))


@dataclass(frozen=True)
class ProofreadOptions:
    """What a proofread does besides its input: the proofreader and the reading."""

    upstream: UpstreamConfig | None = None
    """The LLM to ask; None: the offline Hunspell spelling check."""
    language: str = "auto"
    """`en`, `fr`, or `auto` (the LLM: the document's own; Hunspell: the dictionary that
    knows the most words)."""
    ocr: str = "ppocr"
    pipeline: PipelineOptions = field(default_factory=PipelineOptions)
    """How the identifiers are found (the same options as `redacto redact`)."""
    strict: bool = False
    """`--strict`: every word the text would leave readable that no reader could explain
    is hidden behind a placeholder too before the text is sent to an upstream (restored
    in the answer). Offline (Hunspell) nothing is sent and nothing more is hidden: a
    hidden word could not be spell-checked. The words are listed either way."""


class MistakesFile(BaseModel):
    """`mistakes.json`: the mistakes, and what the run sent and could not finish."""

    mistakes: list[PlacedMistake]
    complete: bool
    """False when the proofreader failed part-way: the mistakes are those placed so far."""
    error: str | None = None
    proofreader: str
    values_replaced: int
    """Distinct detected values replaced by placeholders before the text left."""
    occurrences_replaced: int
    values_sent: int = 0
    """Detected values in what was sent: checked to be none before sending."""
    dropped_touching_placeholder: int = 0
    unreadable_lines: int = 0
    unexplained: list[ReadableWord] = []
    """The words of the text the proofreader read that no reader could explain (the
    residual check, docs/lexicon.md), each `hidden` when `--strict` hid it."""
    category: str | None = None
    """The document's category, as the pipeline read it (the residual check's rules)."""
    language: str | None = None
    """The dictionary the residual check read the text with (`en`, `fr`)."""
    input: InputInfo


@dataclass(frozen=True)
class Proofreading:
    """One run's outputs, in memory: `mistakes.json` (`result`) and the files, byte for byte
    as `write_proofreading` writes them — `proofread.pdf` for an input with pages, then
    `mistakes.json`."""

    result: MistakesFile
    files: tuple[OutputFile, ...]

    @classmethod
    def of(cls, result: MistakesFile, page_pdf: bytes | None) -> Proofreading:
        """`result`'s files: the mistakes drawn on `page_pdf` (None: no PDF), and the JSON."""
        mistakes_json = (result.model_dump_json(indent=2) + "\n").encode("utf-8")
        files = [OutputFile(MISTAKES_JSON, mistakes_json)]
        if page_pdf is not None:
            files.insert(0, OutputFile(PROOFREAD_PDF, proofread_pdf(page_pdf, result.mistakes)))
        return cls(result, tuple(files))


@dataclass(frozen=True)
class ProofreadOutcome:
    """What one run wrote."""

    result: MistakesFile
    written: tuple[Path, ...]

    @property
    def exit_code(self) -> int:
        return EXIT_COMPLETE if self.result.complete else EXIT_FAILED


class Stage(StrEnum):
    """Where a run is, as `on_stage` hears it; the value is the line the CLI shows."""

    READING = "Reading the input…"
    LISTING_MODELS = "Asking the upstream which model it serves…"
    FINDING = "Finding the identifiers…"
    SPELLING = "Checking the spelling with Hunspell…"
    ASKING = "Proofreading with the upstream model…"

    @property
    def proofreading(self) -> bool:
        """The identifiers are hidden and the proofreader is at work."""
        return self in (Stage.SPELLING, Stage.ASKING)


OnMistake = Callable[[PlacedMistake], None]
OnStage = Callable[[Stage], None]


class AnswerUnreadable(RuntimeError):
    """The upstream answered, but not one line of it was a mistake object."""

    def __init__(self, unreadable: int) -> None:
        super().__init__(
            f"the upstream's answer holds no mistake object ({unreadable} unreadable lines)"
        )
        self.unreadable = unreadable


@dataclass
class _Run:
    """The state of one run while the answer streams in."""

    masked: MaskedDocument
    placer: Placer
    on_mistake: OnMistake | None
    mistakes: list[PlacedMistake] = field(default_factory=list)
    dropped: int = 0

    def take(self, mistake: Mistake) -> None:
        if not mistake.error_text.strip() or mistake.error_text == mistake.correction:
            return
        if touches_placeholder(mistake):
            self.dropped += 1
            return
        placed = self.placer.place(restore_mistake(mistake, self.masked.vault))
        self.mistakes.append(placed)
        if self.on_mistake is not None:
            self.on_mistake(placed)


def proofread_file(
    path: Path,
    out_dir: Path,
    options: ProofreadOptions,
    engine: ModelChoice = None,
    prompts: PromptLibrary | None = None,
    *,
    on_mistake: OnMistake | None = None,
    on_event: OnEvent | None = None,
    on_stage: OnStage | None = None,
) -> ProofreadOutcome:
    """Proofread one file privately and write its outputs into `out_dir`: the checks, then
    `read_input`, `proofread` (whose callbacks these are) and `write_proofreading`.

    Raises `BadInputError` (nothing written) for input that cannot be read; every later
    failure (OCR that cannot start included) is an incomplete outcome whose outputs hold
    what was placed so far.
    """
    check_input(path, out_dir)
    for name in (PROOFREAD_PDF, MISTAKES_JSON):
        if same_file(out_dir / name, path):
            raise BadInputError(f"{out_dir / name} is the input itself: choose another --out")
    _check_upstream(options.upstream)  # a bad URL is known before any OCR or model time
    (on_stage or _quiet)(Stage.READING)
    try:
        source = read_input(path, ReadOptions(ocr=options.ocr))
    except EngineError as unread:  # OCR that cannot start
        proofreading = not_read(input_info(path), options, unread)
    else:
        proofreading = proofread(
            source,
            options,
            engine,
            prompts,
            on_mistake=on_mistake,
            on_event=on_event,
            on_stage=on_stage,
        )
    return write_proofreading(proofreading, out_dir, path)


def proofread(
    source: InputFile,
    options: ProofreadOptions,
    engine: ModelChoice = None,
    prompts: PromptLibrary | None = None,
    *,
    on_mistake: OnMistake | None = None,
    on_event: OnEvent | None = None,
    on_stage: OnStage | None = None,
) -> Proofreading:
    """Proofread an input already read, privately, in memory: nothing is written (a PDF
    read from its file is read again, for `proofread.pdf`).

    `engine` finds the identifiers (an open engine, or the model to open; None: the
    embedded default). `on_mistake` sees each mistake the moment it is placed, while the
    proofreader is still answering; `on_event` the detector's steps, `on_stage` the run's.
    Raises `BadInputError` for an upstream URL that is not one; every later failure is an
    incomplete `Proofreading` that holds what was placed so far.
    """
    stage = on_stage or _quiet
    upstream = options.upstream
    _check_upstream(upstream)
    info = source.info
    proofreader = _proofreader(options)
    if upstream is not None and upstream.model is None:
        # Asked first: an upstream that cannot be reached is found before minutes of
        # model time, and the question holds nothing of the document.
        stage(Stage.LISTING_MODELS)
        try:
            upstream = dataclasses.replace(upstream, model=first_model(upstream))
        except UpstreamError as unreachable:
            failed = _failed(info, proofreader, f"nothing was sent: {unreachable}")
            return Proofreading.of(failed, source.page_pdf())
    placer = Placer.of(source.document, source.points_per_pixel())
    try:
        masked = _mask(source.document, engine, prompts, options, on_event, stage)
    except (DetectionFailed, EngineError, LexiconError, PromptError, ValueWouldLeak) as unsent:
        reason = (
            f"the detector could not read the document: {unsent.reason}"
            if isinstance(unsent, DetectionFailed)
            else str(unsent)
        )
        failed = _failed(info, proofreader, f"nothing was sent: {reason}")
        return Proofreading.of(failed, source.page_pdf())
    run = _Run(masked, placer, on_mistake)
    error, unreadable, proofreader = _proofread(upstream, options.language, run, stage)
    result = MistakesFile(
        mistakes=run.mistakes,
        complete=error is None,
        error=error,
        proofreader=proofreader,
        values_replaced=masked.values,
        occurrences_replaced=masked.occurrences,
        dropped_touching_placeholder=run.dropped,
        unreadable_lines=unreadable,
        unexplained=_readable_words(masked, placer),
        category=masked.check.category if masked.check else None,
        language=masked.check.language if masked.check else None,
        input=info,
    )
    return Proofreading.of(result, source.page_pdf())


def not_read(info: InputInfo, options: ProofreadOptions, error: EngineError) -> Proofreading:
    """The outputs of a run whose input could not be read (OCR that cannot start; `info`
    names the input): `mistakes.json` says so, and there is no `proofread.pdf`."""
    failed = _failed(info, _proofreader(options), f"cannot read the input: {error}")
    return Proofreading.of(failed, None)


def write_proofreading(
    proofreading: Proofreading, out_dir: Path, input_path: Path
) -> ProofreadOutcome:
    """Write a run's files into `out_dir` (made if missing), each through a temporary file
    renamed into place, never over the input; a `proofread.pdf` of an earlier run goes when
    this run makes none: nothing in the folder may pass for this run's."""
    written = write_files(out_dir, proofreading.files, input_path, stale=(PROOFREAD_PDF,))
    return ProofreadOutcome(result=proofreading.result, written=tuple(written))


def _check_upstream(upstream: UpstreamConfig | None) -> None:
    """A bad upstream URL is bad input (nothing written, nothing asked)."""
    if upstream is not None:
        try:
            upstream.check()
        except UpstreamError as bad_url:
            raise BadInputError(str(bad_url)) from bad_url


def _proofreader(options: ProofreadOptions) -> str:
    """Who proofreads, as `mistakes.json` says before the proofreader has answered."""
    return "hunspell" if options.upstream is None else "llm"


def _quiet(stage: Stage) -> None:
    """No one follows the stages."""


def _proofread(
    upstream: UpstreamConfig | None, language: str, run: _Run, stage: OnStage
) -> tuple[str | None, int, str]:
    """Ask the proofreader, acting on each mistake as it comes: (the error that ended it
    early or None, the answer's unreadable lines, who proofread)."""
    try:
        if upstream is None:
            stage(Stage.SPELLING)
            check = SpellCheck.for_language(language, run.masked.text)
            for mistake in check.mistakes(run.masked.text):
                run.take(mistake)
            return None, 0, f"hunspell:{check.dictionary}"
        stage(Stage.ASKING)
        return None, _ask_upstream(upstream, language, run.masked, run), "llm"
    except (UpstreamError, ValueWouldLeak) as failure:
        return str(failure), 0, "llm"
    except AnswerUnreadable as failure:
        return str(failure), failure.unreadable, "llm"
    except HunspellError as failure:
        return str(failure), 0, "hunspell"


def _failed(info: InputInfo, proofreader: str, error: str) -> MistakesFile:
    """The outputs of a run that stopped before the proofreader answered anything."""
    return MistakesFile(
        mistakes=[],
        complete=False,
        error=error,
        proofreader=proofreader,
        values_replaced=0,
        occurrences_replaced=0,
        input=info,
    )


def _mask(
    document: Document,
    engine: ModelChoice,
    prompts: PromptLibrary | None,
    options: ProofreadOptions,
    on_event: OnEvent | None,
    stage: OnStage,
) -> MaskedDocument:
    stage(Stage.FINDING)
    library = prompts if prompts is not None else PromptLibrary.load()
    pipeline = options.pipeline
    given = options.language if options.language != "auto" else None
    if pipeline.language is None and given is not None:
        pipeline = dataclasses.replace(pipeline, language=given)
    with using_model(engine) as opened:
        # `pipeline.find_detections` throws the report away; its category and language
        # are the residual check's here.
        report = run_pipeline(document, opened, library, options=pipeline, on_event=on_event).report
    if report.status is Status.ERROR:
        raise DetectionFailed(report.error)
    language = pipeline.language or report.language or document_language(document)
    # Offline nothing leaves the machine, and a hidden word could not be spell-checked.
    strict = options.strict and options.upstream is not None
    check = ResidualCheck(report.category, language, strict=strict)
    return mask_document(document, report.detections, check)


def _readable_words(masked: MaskedDocument, placer: Placer) -> list[ReadableWord]:
    """The unexplained words of the text the proofreader read, placed on the document."""
    words = []
    for word in masked.unexplained:
        placed = placer.place(
            Mistake(
                error_text=word.value, correction=word.value, context_before=word.context_before
            )
        )
        words.append(
            ReadableWord(
                value=word.value,
                kind=word.kind.value,
                hidden=masked.check is not None and masked.check.strict,
                located=placed.located,
                page=placed.page,
                boxes=placed.boxes,
            )
        )
    return words


def _ask_upstream(config: UpstreamConfig, language: str, masked: MaskedDocument, run: _Run) -> int:
    """Stream the answer, acting on each line as it completes; the unreadable lines."""
    prompt = ProofreadPrompt.render(masked.text, LANGUAGE_NAMES.get(language))
    if masked.vault.hide_known(f"{prompt.system}\n{prompt.user}"):
        raise ValueWouldLeak("a detected value is readable in the request: nothing was sent")
    lines = MistakeLines()
    for piece in stream_answer(config, prompt):
        for mistake in lines.feed(piece):
            run.take(mistake)
    for mistake in lines.close():
        run.take(mistake)
    if lines.problems and lines.lines == len(lines.problems):
        raise AnswerUnreadable(len(lines.problems))
    return len(lines.problems)
