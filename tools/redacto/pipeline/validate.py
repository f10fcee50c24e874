"""Step 4 — Validate: an independent judge reads only the redacted output.

A fresh conversation with the category's validate prompt sees the redacted element list
or the redacted text (a page read as text: its lines, one placeholder per redacted run of
words), chunked like detect, never the detector's answer. It says `PASS`, or `FAIL` and
the items still readable, in the detect step's format. Anything but a clean PASS is FAIL.
Named items become detections (source validate, this round) when they are usable: a known
label, inside the chunk, not redacted already, present in the document.

Under the scored rule (`validator_verdict = "scored"`, an engine that can score) each call is
first scored: PASS when log P(`PASS`) − log P(`FAIL`) reaches `pass_margin`, and nothing is
generated; otherwise the free reply is generated as under the answer rule, for its missed
items, and the call is FAIL whatever that reply says.

Then the second opinion (`second_opinion`): the run's rules and NER tier read the output
again, its redacted values masked, and what they find readable fails the round as well, so
a PASS stands only when the LLM and both tiers find nothing.

Last the residual check (`residual`, docs/lexicon.md): the words of the masked output that
no dictionary or keep rule explains. They are recorded (`Validation.unexplained`; the run
then never ends PASS); under `strict` each also fails the round as a missed item (source
`lexicon`), so the next round redacts it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from redacto.document import (
    Category,
    Detection,
    Document,
    Mode,
    Source,
    Step,
    ValidatorVerdict,
)
from redacto.engines import Engine, ReplyConstraint, ScoreRequest, Scores
from redacto.pipeline.chunking import chunk_elements, chunk_text, format_elements
from redacto.pipeline.constraint import ReplyShape
from redacto.pipeline.detections import (
    SaidInAnswer,
    detection_key,
    item_detections,
    item_key,
    item_line,
    rejected_as,
    trimmed_item,
)
from redacto.pipeline.kept_readable import KeptReadable
from redacto.pipeline.locator import Locator
from redacto.pipeline.page_text import PageText, redacted_page
from redacto.pipeline.parsing import (
    IndexItem,
    LineRejected,
    RejectReason,
    TextItem,
    Verdict,
    VerdictParse,
    parse_index_line,
    parse_text_line,
)
from redacto.pipeline.redact import ImageRedaction, TextRedaction
from redacto.pipeline.residual import (
    as_detections,
    document_language,
    hidden_by,
    unexplained_words,
)
from redacto.pipeline.second_opinion import SecondOpinion, read_output
from redacto.pipeline.state import ImageReading, Phase, ProgressEvent, StepContext
from redacto.report import StepTrace, UnexplainedWord

VERDICT_WORDS = (Verdict.PASS.value, Verdict.FAIL.value)
"""The two replies a scored verdict compares, as the validate prompts ask for them."""


@dataclass(frozen=True)
class ScoredVerdict:
    """How much likelier the validator is to begin its reply with PASS than with FAIL."""

    margin: float
    """log P(`PASS`) − log P(`FAIL`): positive when PASS is the likelier start."""
    scores: Scores


def score_verdict(engine: Engine, system: str, user: str) -> ScoredVerdict:
    """Score the validate call (system, user) for its two verdict words (`Engine.score`)."""
    scores = engine.score(ScoreRequest(Step.VALIDATE, system, user, VERDICT_WORDS))
    passed, failed = (scores.log_prob(word) for word in VERDICT_WORDS)
    return ScoredVerdict(margin=passed - failed, scores=scores)


@dataclass
class Validation:
    """The round's verdict, the usable missed items, and every item the LLM named (as lines).

    `verdict` is FAIL when the LLM said FAIL, the second opinion found something, or (under
    `strict`) a word was unexplained; `model_verdict` is the LLM's alone, `found_in_output`
    the second opinion's hits (also in `missed`, after the LLM's), `unexplained` the
    residual check's words (under `strict` also in `missed`, last, as `lexicon` detections)."""

    verdict: Verdict = Verdict.PASS
    missed: list[Detection] = field(default_factory=list)
    named: list[str] = field(default_factory=list)
    model_verdict: Verdict = Verdict.PASS
    found_in_output: list[Detection] = field(default_factory=list)
    unexplained: list[UnexplainedWord] = field(default_factory=list)

    def add_found_in_output(self, detection: Detection) -> None:
        """A second-opinion hit joins the missed items and fails the round."""
        self.found_in_output.append(detection)
        self.missed.append(detection)
        self.verdict = Verdict.FAIL

    def add_unexplained(self, detection: Detection) -> None:
        """Under `strict`: a word no reader could explain is redacted next round."""
        self.missed.append(detection)
        self.verdict = Verdict.FAIL


@dataclass
class _Judge(ABC):
    context: StepContext
    category: Category
    round_number: int
    known: set[int | str]
    chunks: int | None = None
    outcome: Validation = field(default_factory=Validation)
    call_start: int = 0
    """Where this call's items begin in `outcome.missed`; earlier ones came from other chunks."""
    said: SaidInAnswer = field(default_factory=SaidInAnswer)
    """What this call's answer has named (a second naming is a duplicate)."""
    words: tuple[str, ...] = ()
    """The elements' texts (image mode), to read what an `INDEX:LABEL` item names."""
    kept: KeptReadable | None = None
    """What the category keeps readable wherever it stands (`kept_readable`)."""

    def progress(self, phase: Phase, chunk: int | None = None) -> None:
        verdict = self.outcome.verdict.value if phase is Phase.END else None
        missed = self.outcome.missed
        index = missed[-1].index if phase is Phase.PROGRESS and missed else None
        self.context.emit(
            ProgressEvent(
                step=Step.VALIDATE,
                phase=phase,
                round=self.round_number,
                category=self.category,
                found=len(self.outcome.missed),
                chunk=chunk,
                chunks=self.chunks,
                verdict=verdict,
                index=index,
            )
        )

    def run(
        self,
        system: str,
        user: str,
        parse_item: Callable[[str], IndexItem | TextItem | LineRejected | None],
        chunk: int | None = None,
        constraint: ReplyConstraint | None = None,
    ) -> None:
        """One fresh call; each completed line is read as the verdict or a missed item.
        Under the scored rule the call is scored first, and a margin at the bar is a PASS
        without a reply."""
        scored = self._scored_verdict(system, user, chunk)
        if scored is Verdict.PASS:
            return
        verdict = VerdictParse()
        rejected: list[LineRejected] = []
        self.call_start = len(self.outcome.missed)
        self.said.start()

        def on_line(line: str) -> None:
            rest = verdict.feed(line)
            if rest is None:
                return
            item = parse_item(rest)
            if item is None:
                return
            if isinstance(item, LineRejected):
                rejected.append(LineRejected(line, item.reason))
                return
            self.outcome.named.append(item_line(item))
            item = trimmed_item(item)
            if self._missed_in_earlier_chunk(item):
                return  # a value that recurs in a long text, still readable here too
            reason = rejected_as(item, self.words, self.kept) or self._admit(item)
            if reason is not None:
                rejected.append(LineRejected(line, reason))
            else:
                self.progress(Phase.PROGRESS, chunk)

        reply = self.context.call_lines(Step.VALIDATE, system, user, on_line, rejected, constraint)
        # A PASS stands only on a reply read to its end: a stop left lines unread. Under the
        # scored rule the margin has already said FAIL; this reply only names the items.
        if verdict.final() is Verdict.FAIL or reply.stats.stopped or scored is Verdict.FAIL:
            self.outcome.verdict = Verdict.FAIL
        self.context.record(
            Step.VALIDATE,
            reply,
            [*rejected, *verdict.rejected],
            self.round_number,
            chunk,
            constrained=constraint is not None,
        )

    def _scored_verdict(self, system: str, user: str, chunk: int | None) -> Verdict | None:
        """The scored rule's verdict on this call, or None where the answer rule decides (the
        options ask for it, or the engine cannot score: `StepContext` then distrusts PASS)."""
        context = self.context
        if context.options.validator_verdict is not ValidatorVerdict.SCORED:
            return None
        if not context.engine.supports_scoring:
            return None
        scored = score_verdict(context.engine, system, user)
        stats = scored.scores.stats
        context.traces.append(
            StepTrace(
                step=Step.VALIDATE,
                round=self.round_number,
                chunk=chunk,
                ms=round(stats.ms, 3),
                prompt_tokens=stats.prompt_tokens,
                output_tokens=0,
                verdict_margin=scored.margin,
            )
        )
        margin = context.options.pass_margin
        passed = scored.margin >= (0.0 if margin is None else margin)
        return Verdict.PASS if passed else Verdict.FAIL

    @abstractmethod
    def _admit(self, item: IndexItem | TextItem) -> RejectReason | None:
        """Make a named item a detection, or say why it cannot be one."""

    def _miss(self, detections: list[Detection]) -> None:
        """This answer names these: they join the missed items."""
        self.outcome.missed.extend(detections)
        for detection in detections:
            self.said.add(detection_key(detection))

    def _missed_in_earlier_chunk(self, item: IndexItem | TextItem) -> bool:
        key = item_key(item)
        earlier = self.outcome.missed[: self.call_start]
        return any(detection_key(missed) == key for missed in earlier)


@dataclass
class _ImageJudge(_Judge):
    def _admit(self, item: IndexItem | TextItem) -> RejectReason | None:
        assert isinstance(item, IndexItem)
        if self.said.said(item.index):
            return RejectReason.DUPLICATE
        if item.index in self.known:
            return RejectReason.ALREADY_REDACTED
        self.known.add(item.index)
        self._miss(
            [
                Detection(
                    label=item.label,
                    source=Source.VALIDATE,
                    round=self.round_number,
                    index=item.index,
                )
            ]
        )
        return None


@dataclass
class _TextJudge(_Judge):
    locator: Locator | None = None
    redaction: TextRedaction | None = None

    def _admit(self, item: IndexItem | TextItem) -> RejectReason | None:
        assert isinstance(item, TextItem) and self.locator and self.redaction
        detection = Detection(
            label=item.label, source=Source.VALIDATE, round=self.round_number, value=item.value
        )
        if self.said.said(detection_key(detection)):
            return RejectReason.DUPLICATE
        if detection_key(detection) in self.known:
            return RejectReason.ALREADY_REDACTED
        located = self.locator.locate(item.value)
        if located is None:
            return RejectReason.NOT_IN_DOCUMENT
        redacted = [replacement.span for replacement in self.redaction.replacements]
        if all(
            any(span.start >= done.start and span.end <= done.end for done in redacted)
            for span in located.spans
        ):
            return RejectReason.ALREADY_REDACTED
        self.known.add(detection_key(detection))
        self._miss([detection])
        return None


@dataclass
class _PageJudge(_Judge):
    """A page read as text: named values are placed on the page's elements by the locator."""

    page: PageText | None = None

    def _admit(self, item: IndexItem | TextItem) -> RejectReason | None:
        assert isinstance(item, TextItem) and self.page
        detections = item_detections(item, Source.VALIDATE, self.round_number, self.page)
        if detections[0].index is None:
            return RejectReason.NOT_IN_DOCUMENT
        fresh = [d for d in detections if d.index not in self.known]
        if not fresh:
            named_twice = any(self.said.said(detection_key(d)) for d in detections)
            return RejectReason.DUPLICATE if named_twice else RejectReason.ALREADY_REDACTED
        self.known.update(d.index for d in fresh if d.index is not None)
        self._miss(fresh)
        return None

    def _missed_in_earlier_chunk(self, item: IndexItem | TextItem) -> bool:
        assert isinstance(item, TextItem) and self.page
        indices = set(self.page.locate(item.value))
        earlier = {missed.index for missed in self.outcome.missed[: self.call_start]}
        return bool(indices) and indices <= earlier


def validate(
    document: Document,
    redaction: ImageRedaction | TextRedaction,
    detections: list[Detection],
    category: Category,
    context: StepContext,
    round_number: int,
    opinion: SecondOpinion | None = None,
    language: str | None = None,
) -> Validation:
    """Judge the redacted output; returns the verdict and the usable missed items.

    The LLM judges first, then `opinion`'s tiers read the masked output (`second_opinion`);
    their hits fail the round too. Last the residual check reads it in `language` (None:
    detected from the document), under the context's `strict` option."""
    known = {detection_key(detection) for detection in detections}
    judge = _llm_judge(document, redaction, detections, category, context, round_number, known)
    hidden = hidden_by(redaction)
    judge.outcome.model_verdict = judge.outcome.verdict
    for found in read_output(document, hidden, category, opinion or SecondOpinion(), round_number):
        if detection_key(found) not in known:
            known.add(detection_key(found))
            judge.outcome.add_found_in_output(found)
            judge.progress(Phase.PROGRESS)
    language = document_language(document, language or context.options.language)
    judge.outcome.unexplained = unexplained_words(document, hidden, category, language)
    if context.options.strict:
        for word in as_detections(judge.outcome.unexplained, round_number):
            if detection_key(word) not in known:
                known.add(detection_key(word))
                judge.outcome.add_unexplained(word)
    judge.progress(Phase.END, (judge.chunks or 1) - 1)
    return judge.outcome


def _llm_judge(
    document: Document,
    redaction: ImageRedaction | TextRedaction,
    detections: list[Detection],
    category: Category,
    context: StepContext,
    round_number: int,
    known: set[int | str],
) -> _Judge:
    """The LLM's calls on the output, chunk by chunk; the judge holds its outcome."""
    kept = KeptReadable.of(document, category)
    if document.mode is Mode.IMAGE:
        assert isinstance(redaction, ImageRedaction)
        if context.options.image_reading is ImageReading.TEXT:
            page = PageText.of(document.elements)
            judge: _Judge = _PageJudge(context, category, round_number, known, kept=kept, page=page)
            redacted = redacted_page(document.elements, detections, redaction.shown)
            return _judge_text(judge, redacted)
        template = context.prompts.prompt(Step.VALIDATE, Mode.IMAGE, category)
        labels = frozenset(template.labels)
        chunks = chunk_elements(redaction.elements, context.options.chunk_size)
        judge = _ImageJudge(context, category, round_number, known, len(chunks), kept=kept)
        judge.words = tuple(element.text for element in document.elements)
        judge.progress(Phase.START, 0)
        for chunk in chunks:
            system, user = template.render(elements=format_elements(chunk.elements, {}))
            judge.run(
                system,
                user,
                partial(parse_index_line, labels=labels, index_range=chunk.index_range),
                chunk.number,
            )
        return judge
    assert isinstance(redaction, TextRedaction)
    judge = _TextJudge(
        context,
        category,
        round_number,
        known,
        kept=kept,
        locator=Locator(document.text),
        redaction=redaction,
    )
    return _judge_text(judge, redaction.text)


def _judge_text(judge: _Judge, redacted: str) -> _Judge:
    """Ask the text-mode validate prompt about `redacted`, one call per 150-word chunk."""
    template = judge.context.prompts.prompt(Step.VALIDATE, Mode.TEXT, judge.category)
    labels = frozenset(template.labels)
    text_chunks = chunk_text(redacted, judge.context.options.chunk_size)
    judge.chunks = len(text_chunks)
    judge.progress(Phase.START, 0)
    for text_chunk in text_chunks:
        shown = text_chunk.of(redacted)
        system, user = template.render(document=shown)
        # Only words still readable can be named missed (where the manifest says so).
        constraint = judge.context.constraint_for(
            Step.VALIDATE, shown, template.labels, ReplyShape.VALIDATE
        )
        judge.run(
            system,
            user,
            lambda line: parse_text_line(line, labels),
            text_chunk.number,
            constraint,
        )
    return judge
