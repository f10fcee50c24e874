"""Jobs on workers that keep their engines open: one process, a pool, or Ray actors.

A kind of job is a `Work`: a small picklable value sent to every worker, which opens its
engines from it once (`Work.open`) and then runs job after job. A `Runner` hands each
result back in the driver's process as it arrives; the driver alone writes. A worker lost
under a job (killed, out of memory, its node gone) is replaced and the job sent again; a
job that lost its worker twice is given up as `Work.lost`'s result, so one job that kills
its worker cannot stop the run. `redact INPUT… --out` (`redacto.batch.work.BatchWork`) and
`eval run` (`redacto.evaluation.workers.EvalWork`) are the two kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

J = TypeVar("J", bound="Indexed")
R = TypeVar("R")
J_contra = TypeVar("J_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


class Indexed(Protocol):
    """A job: its place in the run, which names it across retries."""

    @property
    def index(self) -> int: ...


class JobWorker(Protocol[J_contra, R_co]):
    """Runs jobs one after another on engines opened once."""

    def run(self, job: J_contra, /) -> R_co:
        """One job's result; raises only for the worker's sake, never for the job's."""
        ...

    def close(self) -> None: ...


class Work(Protocol[J, R_co]):
    """A kind of job: what a worker opens, what a lost job's result is, and what is sent
    to a worker that may not see the driver's files."""

    def open(self) -> JobWorker[J, R_co]:
        """In the worker's process: open the engines; `WorkerStartError` if they cannot."""
        ...

    def lost(self, job: J, reason: str, /) -> R_co:
        """In the driver: the result of a job given up because its worker was lost."""
        ...

    def to_send(self, job: J, on_result: Callable[[R_co], None], /) -> J | None:
        """In the driver, for a worker on another machine: the job as sent (its input's
        bytes read now, say), or None once its result is handed to `on_result`."""
        ...


class WorkerStartError(RuntimeError):
    """A worker could not open its engines: the run stops before any job."""


class Runner(Protocol):
    """Runs jobs on workers and hands each result back, in this process, as it arrives."""

    def __call__(self, work: Work[J, R], jobs: Sequence[J], on_result: Callable[[R], None]) -> None:
        """Run every job once; raises only when no job can run (`WorkerStartError`)."""


class Retries:
    """How often each job's worker was lost under it. A job whose worker is lost `limit`
    times is given up (`Work.lost`), so a job that kills its worker cannot stop the run."""

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self.lost: dict[int, int] = {}

    def again(self, work: Work[J, R], job: J, on_result: Callable[[R], None]) -> bool:
        """Whether to run `job` again after losing its worker; if not, its given-up
        result is handed to `on_result`."""
        self.lost[job.index] = self.lost.get(job.index, 0) + 1
        if self.lost[job.index] < self.limit:
            return True
        on_result(work.lost(job, f"its worker ended while running it ({self.limit} times)"))
        return False


def run_here(work: Work[J, R], jobs: Sequence[J], on_result: Callable[[R], None]) -> None:
    """Run every job in this process, on one worker."""
    if not jobs:
        return
    worker = work.open()
    try:
        for job in jobs:
            on_result(worker.run(job))
    finally:
        worker.close()


def choose_runner(
    workers: int = 1, ray: str | None = None, spill_dir: Path | None = None
) -> Runner:
    """This process for one worker; a pool of processes for more; Ray actors for `ray`
    (`spill_dir`: where a local Ray spills the objects it cannot hold in memory)."""
    if ray is not None:
        from redacto.batch.ray_runner import RayRunner

        return RayRunner(ray, workers, spill_dir)
    if workers > 1:
        from redacto.batch.pool import ProcessRunner

        return ProcessRunner(workers)
    return run_here
