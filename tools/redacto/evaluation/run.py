"""Run a system over a suite, document by document, resumably, and summarise.

A *system* is anything that turns a corpus document into a `Prediction`: our pipeline
(`redacto.evaluation.pipeline_system`) or the Presidio baseline. The runner renders pages,
asks the system, scores, appends one line per document, and finally writes the summary
and the reports. A rerun into the same directory skips what is already there. With
`workers` the documents run on other processes or Ray actors (`redacto.evaluation.workers`)
and this process still writes every line, in the same order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from redacto.corpus.schema import CorpusDocument, PageInput, RenderedPage
from redacto.document import Mode, Status
from redacto.evaluation.prediction import Prediction
from redacto.evaluation.results import (
    DocumentResult,
    RunConfig,
    RunError,
    RunInfo,
    RunSummary,
    append_result,
    drop_torn_line,
    read_info,
    read_results,
    write_info,
    write_summary,
)
from redacto.evaluation.scorer import score_document
from redacto.evaluation.summary import mode_ratio, summarize_mode

if TYPE_CHECKING:
    from redacto.evaluation.workers import Workers

OnProgress = Callable[[int, int, DocumentResult | None], None]


class System(Protocol):
    """Something that redacts a corpus document; the runner scores what it returns."""

    identity: str

    def predict(
        self, document: CorpusDocument, mode: Mode, page: RenderedPage | None
    ) -> Prediction:
        """Redact `document` in `mode`; `page` is its rendered image in image mode."""
        ...

    def close(self) -> None:
        """Release models and engines."""
        ...


def default_cache_dir() -> Path:
    """Where rendered pages are cached between runs: the corpus's own render cache."""
    from redacto.corpus.suites import RENDER_CACHE_DIR

    return RENDER_CACHE_DIR


def run_evaluation(
    system: System,
    documents: Sequence[CorpusDocument],
    config: RunConfig,
    out_dir: Path,
    *,
    cache_dir: Path | None = None,
    on_progress: OnProgress | None = None,
    write_reports: bool = True,
    peer: RunSummary | None = None,
    workers: Workers | None = None,
) -> RunSummary:
    """Evaluate `system` on `documents` in every mode of `config`, writing into `out_dir`.

    Documents already in `out_dir/results.jsonl` for the same config are not redone.
    Returns the summary of all results for these documents (old and new). `peer`, a
    finished run's summary, is shown beside this one in the report. `workers`: run the
    documents there (each opening its own system) instead of on `system`, which then only
    names the run; raises `WorkerStartError` when none can open it.
    """
    cache_dir = cache_dir or default_cache_dir()
    selected = list(documents)[: config.limit] if config.limit else list(documents)
    info = _open_run_dir(out_dir, config, system.identity)
    done = {(r.document_id, r.mode) for r in read_results(out_dir)}
    work = [(d, m) for d in selected for m in config.modes if (d.id, m) not in done]
    total = len(selected) * len(config.modes)
    finished = total - len(work)
    if on_progress:
        on_progress(finished, total, None)

    def record(result: DocumentResult) -> None:
        nonlocal finished
        append_result(out_dir, result)
        finished += 1
        if on_progress:
            on_progress(finished, total, result)

    if workers is not None:
        from redacto.evaluation.workers import run_on_workers

        run_on_workers(workers, work, cache_dir, config.page_input, record)
    else:
        for document, mode in work:
            record(evaluate_one(system, document, mode, cache_dir, config.page_input))
    summary = summarize_run(out_dir, info, {d.id for d in selected})
    if write_reports:
        from redacto.evaluation.report import write_reports as write

        write(out_dir, summary, selected, cache_dir, peer)
    return summary


def evaluate_one(
    system: System,
    document: CorpusDocument,
    mode: Mode,
    cache_dir: Path,
    page_input: PageInput = PageInput.IMAGE,
) -> DocumentResult:
    """Predict and score one document. A system failure is scored as an empty redaction."""
    page = _render(document, cache_dir, page_input) if mode is Mode.IMAGE else None
    started = time.perf_counter()
    try:
        prediction = system.predict(document, mode, page)
    except Exception as error:
        wall_ms = (time.perf_counter() - started) * 1000
        prediction = _failed(mode, f"{type(error).__name__}: {error}", wall_ms)
    score = score_document(document, prediction, page)
    return DocumentResult(document_id=document.id, mode=mode, prediction=prediction, score=score)


def failed_result(
    document: CorpusDocument, mode: Mode, cache_dir: Path, page_input: PageInput, error: str
) -> DocumentResult:
    """A document the system never answered (its worker lost), scored as a failure."""
    page = _render(document, cache_dir, page_input) if mode is Mode.IMAGE else None
    prediction = _failed(mode, error)
    score = score_document(document, prediction, page)
    return DocumentResult(document_id=document.id, mode=mode, prediction=prediction, score=score)


def _failed(mode: Mode, error: str, wall_ms: float = 0.0) -> Prediction:
    """Fail closed: nothing redacted, status ERROR, the reason kept for the report."""
    return Prediction(mode=mode, status=Status.ERROR, error=error, wall_ms=wall_ms)


def summarize_run(out_dir: Path, info: RunInfo, document_ids: set[str]) -> RunSummary:
    """Summarise the results in `out_dir` for `document_ids` and write `summary.json`."""
    results = [r for r in read_results(out_dir) if r.document_id in document_ids]
    modes = {
        mode: summarize_mode(mode, [r.score for r in results if r.mode is mode])
        for mode in info.config.modes
        if any(r.mode is mode for r in results)
    }
    ratio = None
    if Mode.IMAGE in modes and Mode.TEXT in modes:
        ratio = mode_ratio(modes[Mode.IMAGE], modes[Mode.TEXT])
    summary = RunSummary(
        info=info,
        documents=len({r.document_id for r in results}),
        wall_s=sum(r.score.wall_ms for r in results) / 1000,
        modes=modes,
        image_vs_text=ratio,
    )
    write_summary(out_dir, summary)
    return summary


def _open_run_dir(out_dir: Path, config: RunConfig, identity: str) -> RunInfo:
    out_dir.mkdir(parents=True, exist_ok=True)
    existing = read_info(out_dir)
    if existing is not None:
        if not existing.config.same_work(config):
            raise RunError(
                f"{out_dir} holds a run of a different configuration "
                f"({existing.config.model_dump_json()}); choose another --out"
            )
        info = existing.model_copy(update={"config": config, "system_identity": identity})
    else:
        info = RunInfo(config=config, system_identity=identity)
    write_info(out_dir, info)
    drop_torn_line(out_dir)
    return info


def _render(document: CorpusDocument, cache_dir: Path, page_input: PageInput) -> RenderedPage:
    from redacto.corpus.pdf_pages import render_input

    return render_input(document, page_input, cache_dir)
