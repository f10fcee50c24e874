"""The scored verdict on a finished eval run's real outputs, not only on built redactions.

Built redactions (`validator_bench`) leave one chosen value readable; a pipeline's real
outputs leak what detect could not see, which is the validator's real work. A run made
under the answer rule kept the free verdict, not a margin; this module rebuilds each
document's last output from the run's predictions and scores the validate calls the
pipeline would make on it (the predicted category's prompt, one call per chunk). A page
passes only when every chunk does, so its margin is the lowest of its chunks'.

Text mode rebuilds the redacted text with the pipeline's own text redaction. The page read
as text rebuilds the page's lines from the rendered page's gold words, hiding each word
that a predicted box covers for the most part, as `redacted_page` would show them
(adjacent hidden words with one label become one placeholder) — an approximation of the
run's own words and placeholders, said so in the report.

`read_outputs` has the other readers read the same rebuilt outputs, no model asked: the
rules and NER (validate's second opinion) and the residual check (`validator_lexicon`), and
keeps the run's own final verdict beside them, so the lexicon can be counted with today's
verdict on real outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument, render_page
from redacto.document import (
    Box,
    Category,
    Detection,
    Document,
    Element,
    Mode,
    Source,
    Span,
    Step,
)
from redacto.engines import Engine
from redacto.evaluation.results import DocumentResult, read_results
from redacto.evaluation.validator_bench import VerdictResult
from redacto.evaluation.validator_lexicon import lexicon_words
from redacto.evaluation.validator_tiers import tier_hits
from redacto.pipeline.chunking import chunk_text
from redacto.pipeline.page_text import redacted_lines
from redacto.pipeline.redact import redact_text
from redacto.pipeline.state import PipelineOptions, StepContext
from redacto.pipeline.validate import score_verdict
from redacto.prompts import PromptLibrary
from redacto.report import Verdict

OUTPUTS_FILE = "output-margins.jsonl"
COVERED = 0.5
"""A word is hidden when a predicted box covers at least this share of its area."""
UNLABELLED = "ID"
"""The placeholder label of a span or box a system hid without saying what it was."""


@dataclass(frozen=True)
class OutputCalls:
    """One real output: the validate calls the pipeline would make on it."""

    case: str
    document_id: str
    reading: str
    expected: Verdict
    """PASS when no gold PII word stayed readable (the eval's `leaked`), else FAIL."""
    calls: tuple[tuple[str, str], ...]
    shown: str
    """The rebuilt output, placeholders and all."""
    category: Category
    """The category the run predicted (the validate prompt's)."""
    run_verdict: Verdict | None
    """The run's own final validator verdict on it."""


def output_calls(
    results: Sequence[DocumentResult],
    documents: dict[str, CorpusDocument],
    prompts: PromptLibrary,
    context: StepContext,
    render_dir: Path = RENDER_CACHE_DIR,
) -> Iterator[OutputCalls]:
    """The validate calls on each result's output (results without a category are skipped:
    the run failed before the validator could be asked)."""
    for result in results:
        category = result.prediction.category
        document = documents.get(result.document_id)
        if category is None or document is None or result.prediction.error:
            continue
        if result.mode is Mode.TEXT:
            shown, reading = _redacted_text(document, result, context), "text"
        else:
            shown, reading = _redacted_page(document, result, render_dir), "page-text"
        template = prompts.prompt(Step.VALIDATE, Mode.TEXT, category)
        calls = tuple(
            template.render(document=chunk.of(shown))
            for chunk in chunk_text(shown, context.options.chunk_size)
        )
        yield OutputCalls(
            case=f"{result.document_id}/validate-{reading}-real",
            document_id=result.document_id,
            reading=reading,
            expected=Verdict.FAIL if result.score.leaked else Verdict.PASS,
            calls=calls,
            shown=shown,
            category=category,
            run_verdict=result.prediction.validator_verdict,
        )


def _redacted_text(document: CorpusDocument, result: DocumentResult, context: StepContext) -> str:
    text = Document.from_text(document.text)
    detections = [
        Detection(
            label=span.label or UNLABELLED,
            source=Source.DETECT,
            round=1,
            value=document.text[span.start : span.end],
            span=Span(start=span.start, end=span.end),
        )
        for span in result.prediction.spans
    ]
    return redact_text(text, detections, context, 1, ask_model=False).text


def _redacted_page(document: CorpusDocument, result: DocumentResult, render_dir: Path) -> str:
    page = render_page(document, render_dir)
    elements = [Element(index=w.index, text=w.text, box=w.box) for w in page.words]
    hidden: dict[int, Detection] = {}
    for element in elements:
        assert element.box is not None  # a rendered page's words all have boxes
        label = _covering_label(element.box, result)
        if label is not None:
            # The value names the label only: adjacent hidden words of one label join.
            hidden[element.index] = Detection(
                label=label, source=Source.DETECT, round=1, index=element.index, value=label
            )
    return redacted_lines(elements, hidden)


def _covering_label(word: Box, result: DocumentResult) -> str | None:
    area = max((word.x1 - word.x0) * (word.y1 - word.y0), 1e-9)
    for predicted in result.prediction.boxes:
        box = predicted.box
        width = min(word.x1, box.x1) - max(word.x0, box.x0)
        height = min(word.y1, box.y1) - max(word.y0, box.y0)
        if width > 0 and height > 0 and width * height / area >= COVERED:
            return predicted.label or UNLABELLED
    return None


def score_outputs(
    engine: Engine,
    run_dirs: Sequence[Path],
    documents: Sequence[CorpusDocument],
    out: Path,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[VerdictResult]:
    """Score every real output of `run_dirs`, resuming from `out/output-margins.jsonl`."""
    out.mkdir(parents=True, exist_ok=True)
    prompts = PromptLibrary.load()
    context = StepContext(engine=engine, prompts=prompts, options=PipelineOptions())
    by_id = {document.id: document for document in documents}
    outputs = [
        calls
        for run_dir in run_dirs
        for calls in output_calls(read_results(run_dir), by_id, prompts, context)
    ]
    path = out / OUTPUTS_FILE
    done: dict[str, VerdictResult] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                result = VerdictResult.model_validate_json(line)
                done[result.case] = result
    with path.open("a", encoding="utf-8") as stream:
        for number, output in enumerate(outputs, 1):
            if output.case not in done:
                done[output.case] = _score(engine, output)
                stream.write(done[output.case].model_dump_json() + "\n")
                stream.flush()
            if on_progress is not None:
                on_progress(number, len(outputs))
    return [done[output.case] for output in outputs]


def read_outputs(
    engine: Engine,
    run_dirs: Sequence[Path],
    documents: Sequence[CorpusDocument],
    on_progress: Callable[[int, int], None] | None = None,
) -> list[VerdictResult]:
    """Every real output of `run_dirs` read by the rules and NER and by the residual check,
    with the run's own verdict (no model call: `engine` only sets the run's options)."""
    prompts = PromptLibrary.load()
    context = StepContext(engine=engine, prompts=prompts, options=PipelineOptions())
    by_id = {document.id: document for document in documents}
    outputs = [
        calls
        for run_dir in run_dirs
        for calls in output_calls(read_results(run_dir), by_id, prompts, context)
    ]
    read = []
    for number, output in enumerate(outputs, 1):
        read.append(
            VerdictResult(
                case=output.case,
                document_id=output.document_id,
                reading=output.reading,
                outcome="real",
                expected=output.expected,
                said=None,
                answer=None,
                ms=0.0,
                tiers_found=len(tier_hits(output.shown, output.category)),
                lexicon_words=lexicon_words(output.shown, output.category),
                run_verdict=output.run_verdict,
            )
        )
        if on_progress is not None:
            on_progress(number, len(outputs))
    return read


def _score(engine: Engine, output: OutputCalls) -> VerdictResult:
    margins = [score_verdict(engine, system, user) for system, user in output.calls]
    return VerdictResult(
        case=output.case,
        document_id=output.document_id,
        reading=output.reading,
        outcome="real",
        expected=output.expected,
        said=None,
        answer=None,
        ms=sum(scored.scores.stats.ms for scored in margins),
        margin=min(scored.margin for scored in margins),
    )
