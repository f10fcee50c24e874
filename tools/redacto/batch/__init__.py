"""Many inputs in one run: `redacto redact INPUT… --out DIR` (docs/batch.md).

    result = run_batch(BatchConfig((Path("scans"),), Path("out"), BatchOptions(model=…)))

`plan` finds the files and their output folders, `work` runs them on workers that keep the
model open, `store` puts each input's files in place whole (with the marker `--resume`
trusts), `summary` writes the rows, and `run` drives them, on this process, a pool of
processes (`pool`) or Ray actors (`ray_runner`). `workers` is what those runners need of a
kind of job, so `eval run` uses them too (`redacto.evaluation.workers`).
"""

from redacto.batch.plan import BatchError, Plan, PlannedInput, plan_inputs
from redacto.batch.run import BatchConfig, BatchResult, run_batch, run_key
from redacto.batch.store import OutputStore, RunKey
from redacto.batch.summary import (
    SUMMARY_CSV,
    SUMMARY_JSON,
    SummaryRow,
    exit_code,
    status_counts,
    worst_status,
)
from redacto.batch.work import BatchOptions, BatchWork, Job, JobResult, Worker
from redacto.batch.workers import Runner, Work, WorkerStartError, choose_runner, run_here

__all__ = [
    "SUMMARY_CSV",
    "SUMMARY_JSON",
    "BatchConfig",
    "BatchError",
    "BatchOptions",
    "BatchResult",
    "BatchWork",
    "Job",
    "JobResult",
    "OutputStore",
    "Plan",
    "PlannedInput",
    "RunKey",
    "Runner",
    "SummaryRow",
    "Work",
    "Worker",
    "WorkerStartError",
    "choose_runner",
    "exit_code",
    "plan_inputs",
    "run_batch",
    "run_here",
    "run_key",
    "status_counts",
    "worst_status",
]
