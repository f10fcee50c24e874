"""`eval run --workers N` and `--ray ADDRESS`: a suite's documents on workers that keep the
system open, on the batch's runners (`redacto.batch.workers`: a process pool or Ray actors,
a lost worker's document sent again).

Each worker opens the system once (`SystemSpec.open`: the model and its NER tier) and runs
document after document as a one-process run does (`evaluate_one`: render the page into the
cache, predict, score); the `DocumentResult` travels back and the driver alone writes
`results.jsonl`, in the one-process run's order, so the file and the summary made from it are
the same (`run_on_workers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from redacto.batch.workers import WorkerStartError, choose_runner
from redacto.corpus.schema import CorpusDocument, PageInput
from redacto.document import Mode
from redacto.evaluation.results import DocumentResult
from redacto.evaluation.run import System, evaluate_one, failed_result


class SystemSpec(Protocol):
    """A system as a value that pickles (`PipelineSpec`): each worker opens its own."""

    def open(self) -> System: ...


@dataclass(frozen=True)
class Workers:
    """Where the documents run: `count` processes of this machine, or `count` Ray actors
    (at least two) at `ray` (`local`: a Ray started here), each opening `system`."""

    system: SystemSpec
    count: int = 1
    ray: str | None = None


@dataclass(frozen=True)
class DocumentJob:
    """One document in one mode, and its place in the run's order."""

    index: int
    document: CorpusDocument
    mode: Mode


@dataclass(frozen=True)
class DocumentDone:
    index: int
    result: DocumentResult


@dataclass(frozen=True)
class EvalWork:
    """The eval's kind of job (`redacto.batch.workers.Work`). Documents are sent as they
    are (the corpus is data every node has); each worker renders pages into `cache_dir`."""

    system: SystemSpec
    cache_dir: Path
    page_input: PageInput = PageInput.IMAGE

    def open(self) -> EvalWorker:
        try:
            return EvalWorker(self, self.system.open())
        except Exception as error:  # a model or NER tier that does not open: no run
            raise WorkerStartError(f"{type(error).__name__}: {error}") from None

    def lost(self, job: DocumentJob, reason: str) -> DocumentDone:
        """Scored as a system failure is: nothing redacted, status ERROR."""
        error = f"WorkerLost: {reason}"
        failed = failed_result(job.document, job.mode, self.cache_dir, self.page_input, error)
        return DocumentDone(job.index, failed)

    def to_send(
        self, job: DocumentJob, on_result: Callable[[DocumentDone], None]
    ) -> DocumentJob | None:
        return job


class EvalWorker:
    """One open system, running documents one after another."""

    def __init__(self, work: EvalWork, system: System) -> None:
        self.work = work
        self.system = system

    def run(self, job: DocumentJob) -> DocumentDone:
        work = self.work
        result = evaluate_one(self.system, job.document, job.mode, work.cache_dir, work.page_input)
        return DocumentDone(job.index, result)

    def close(self) -> None:
        self.system.close()


def run_on_workers(
    workers: Workers,
    work: Sequence[tuple[CorpusDocument, Mode]],
    cache_dir: Path,
    page_input: PageInput,
    on_result: Callable[[DocumentResult], None],
) -> None:
    """Run each (document, mode) of `work` on `workers`; hand the results to `on_result`
    in `work`'s order (one that arrives early waits for those before it), as a one-process
    run would. Raises `WorkerStartError` when no worker can open the system."""
    jobs = [DocumentJob(index, document, mode) for index, (document, mode) in enumerate(work)]
    held: dict[int, DocumentResult] = {}
    next_index = 0

    def arrived(done: DocumentDone) -> None:
        nonlocal next_index
        held[done.index] = done.result
        while next_index in held:
            on_result(held.pop(next_index))
            next_index += 1

    runner = choose_runner(workers.count, workers.ray)
    runner(EvalWork(workers.system, cache_dir, page_input), jobs, arrived)
