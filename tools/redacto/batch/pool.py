"""`--workers N`: a run's jobs on N processes of this machine, each with its engines open.

Each process opens one worker (`Work.open`) when it starts and keeps it; the driver keeps N
jobs in flight and writes each result as it arrives (`redacto.batch.run`,
`redacto.evaluation.run`). The processes are
started fresh (`spawn`): a model runtime's threads do not survive a fork. They ignore
Ctrl-C, so only the driver decides what stops: on Ctrl-C or SIGTERM it ends them, and the
outputs already in place stay complete.

A process that dies (killed, out of memory) breaks the pool: the jobs it had in flight are
tried again on a fresh pool, and a job in flight when a pool breaks twice is given up
(`Work.lost`: an ERROR row, "worker lost"), so one job that kills its worker cannot stop the
run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from redacto.batch.workers import J, JobWorker, R, Retries, Work, WorkerStartError

_worker: JobWorker[Any, Any] | None = None
_start_error: str | None = None


class ProcessRunner:
    """Runs jobs on `workers` processes of this machine (a `Runner`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def __call__(self, work: Work[J, R], jobs: Sequence[J], on_result: Callable[[R], None]) -> None:
        pending = list(reversed(jobs))  # popped from the end: the run's order
        retries = Retries()
        while pending:
            lost = self._run_pool(work, pending, on_result)
            pending.extend(job for job in lost if retries.again(work, job, on_result))

    def _run_pool(
        self, work: Work[J, R], pending: list[J], on_result: Callable[[R], None]
    ) -> list[J]:
        """Run jobs from `pending` on one pool until it is empty or the pool breaks; the
        jobs in flight when it broke."""
        threads = str(max(1, (os.cpu_count() or 1) // self.workers))
        executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(work, threads),
        )
        in_flight: dict[Future[R], J] = {}
        try:
            while pending or in_flight:
                while pending and len(in_flight) < self.workers:
                    job = pending.pop()
                    in_flight[executor.submit(_run, job)] = job
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    job = in_flight.pop(future)
                    try:
                        on_result(future.result())
                    except BrokenProcessPool:
                        return [job, *in_flight.values()]
            return []
        finally:
            _stop(executor)


def _stop(executor: ProcessPoolExecutor) -> None:
    """End the pool now: its processes are terminated, not waited for (an interrupted batch
    must not wait for jobs it will not write)."""
    # The executor has no public way to end running workers; this is its own list of them.
    processes = list(getattr(executor, "_processes", {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=10)


def _start(work: Work[Any, Any], threads: str) -> None:
    """A pool process's start: ignore Ctrl-C (the driver stops the pool), share the cores
    among the processes unless the user said how, and open the worker."""
    global _worker, _start_error
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("REDACTO_LITERTLM_THREADS", threads)
    try:
        _worker = work.open()
    except WorkerStartError as error:
        _start_error = str(error)


def _run(job: Any) -> Any:
    if _worker is None:
        raise WorkerStartError(_start_error or "the worker did not start")
    return _worker.run(job)
