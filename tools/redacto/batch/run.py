"""The batch driver: plan the inputs, skip what is done, run the rest on workers, write.

    result = run_batch(BatchConfig(inputs, out_dir, options, resume=True, workers=2))

Whatever runs the inputs (this process, a pool of processes, Ray actors: a `Runner`), the
driver alone writes: each result's files are committed to `--out` as it arrives
(`redacto.batch.store`), and the summary when all have ended. So a run stopped part-way
keeps every finished output, and `--resume` picks up the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from redacto.batch.plan import BatchError, Plan, PlannedInput, plan_inputs
from redacto.batch.store import STATE, OutputStore, RunKey
from redacto.batch.summary import SummaryRow, exit_code, write_summary
from redacto.batch.work import BatchOptions, BatchWork, Job, JobResult
from redacto.batch.workers import Runner, choose_runner
from redacto.modelfile.record import sha256_of

OnRow = Callable[[SummaryRow], None]


@dataclass(frozen=True)
class BatchConfig:
    """A batch: its INPUTs, `--out`, the options every input runs with, `--resume`, and
    how many workers on this machine (`workers`) or which Ray cluster (`ray`)."""

    inputs: tuple[Path, ...]
    out_dir: Path
    options: BatchOptions = field(default_factory=BatchOptions)
    resume: bool = False
    workers: int = 1
    ray: str | None = None


@dataclass(frozen=True)
class BatchResult:
    """Every input's row, in the order the inputs were found, and the files passed over."""

    rows: tuple[SummaryRow, ...]
    passed_over: int = 0

    @property
    def exit_code(self) -> int:
        return exit_code(self.rows)


def run_batch(
    config: BatchConfig,
    *,
    on_start: Callable[[int], None] | None = None,
    on_row: OnRow | None = None,
    runner: Runner | None = None,
) -> BatchResult:
    """Redact every input of `config` into `config.out_dir`, then write the summary.

    `on_start` hears how many inputs there are, `on_row` each row as it ends (a resumed or
    bad input at once, the others as their results arrive). Raises `BatchError` for a batch
    that cannot start (nothing written) and `WorkerStartError` when no worker can open the
    model. An interrupt (KeyboardInterrupt) leaves finished outputs in place and no summary.
    """
    plan = plan_inputs(config.inputs, config.out_dir)
    if not plan.inputs:
        raise BatchError("no input found: no photo, PDF or text in " + _named(config.inputs))
    store = OutputStore(config.out_dir, run_key(config.options))
    store.open()
    if on_start is not None:
        on_start(len(plan.inputs))
    rows: dict[int, SummaryRow] = {}

    def record(index: int, row: SummaryRow) -> None:
        rows[index] = row
        if on_row is not None:
            on_row(row)

    jobs = _jobs(plan, store, config, record)
    by_index = {job.index: plan.inputs[job.index] for job in jobs}

    def on_result(result: JobResult) -> None:
        planned = by_index[result.index]
        record(result.index, _commit(store, planned, result))

    spill_dir = config.out_dir.resolve() / STATE / "spill"
    chosen = runner or choose_runner(config.workers, config.ray, spill_dir)
    chosen(BatchWork(config.options), jobs, on_result)
    ordered = tuple(rows[index] for index in range(len(plan.inputs)))
    write_summary(config.out_dir, ordered)
    return BatchResult(ordered, plan.passed_over)


def run_key(options: BatchOptions) -> RunKey:
    """The model and options that make a run's outputs what they are (`--resume` compares
    them): the model's URI and file sha256, the pipeline's options, OCR, the text layer,
    and a digest of the prompts."""
    from redacto.models import ModelError, resolve_model
    from redacto.models.open import DEFAULT_MODEL

    try:
        uri = resolve_model(options.model or DEFAULT_MODEL)
    except ModelError:  # not built, or unknown: the worker says so, with the usual message
        uri = options.model or DEFAULT_MODEL
    model_file = Path(uri.partition(":")[2])
    model_sha256 = sha256_of(model_file) if model_file.is_file() else ""
    pipeline = options.pipeline
    settings = {
        "rules": str(pipeline.rules),
        "detectors": ",".join(sorted(d.value for d in pipeline.detectors)),
        "category": pipeline.category.value if pipeline.category else "",
        "ocr": options.ocr,
        "text_layer": str(options.text_layer),
        "prompts": _prompts_digest(),
    }
    return RunKey(uri, model_sha256, tuple(sorted(settings.items())))


def _prompts_digest() -> str:
    import hashlib

    from redacto.prompts import default_prompts_dir

    digest = hashlib.sha256()
    root = default_prompts_dir()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _jobs(
    plan: Plan, store: OutputStore, config: BatchConfig, record: Callable[[int, SummaryRow], None]
) -> list[Job]:
    """The inputs still to run; the others' rows recorded now (a problem, an unreadable
    file, outputs already complete under `--resume`)."""
    jobs = []
    for index, planned in enumerate(plan.inputs):
        file = str(planned.path)
        if planned.problem is not None:
            record(index, SummaryRow.error(file, f"bad input: {planned.problem}"))
            continue
        try:
            sha256 = sha256_of(planned.path)
        except OSError as error:
            record(index, SummaryRow.error(file, f"bad input: cannot read ({error.strerror})"))
            continue
        done = store.done(planned.relative, sha256) if config.resume else None
        if done is not None:
            record(index, replace(done, file=file, resumed=True))
            continue
        jobs.append(Job(index, planned.path, sha256))
    return jobs


def _commit(store: OutputStore, planned: PlannedInput, result: JobResult) -> SummaryRow:
    """Write a result's files into place (none for bad input); a write that fails is an
    ERROR row, and the folder is left as it was."""
    if not result.files:
        return result.row
    started = time.perf_counter()
    try:
        store.commit(planned.relative, result.files, planned.path, result.row)
    except OSError as error:
        seconds = result.row.seconds + time.perf_counter() - started
        reason = f"cannot write the outputs: {error.strerror or error}"
        return SummaryRow.error(result.row.file, reason, result.row.sha256, seconds)
    return result.row


def _named(inputs: Sequence[Path]) -> str:
    return ", ".join(str(path) for path in inputs)
