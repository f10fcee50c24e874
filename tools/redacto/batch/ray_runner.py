"""`--ray ADDRESS`: a run's jobs on Ray actors, one worker (and engine) each.

`local` starts a Ray instance on this machine, bound to the loopback address, with no
dashboard; any other address joins that cluster (every node needs redacto installed, the
model built at the same path or named by URI, and the `ray` extra). The driver sends each
job as `Work.to_send` makes it (a batch input's bytes, read now), so no node needs to see the
driver's files; the actors send back results, and the driver alone writes them
(`redacto.batch.run`, `redacto.evaluation.runner`).

An actor that dies (its node lost, its process killed) is replaced, and the job it was
running is sent again to whichever actor is free; a job whose actor died twice is given up
(`Work.lost`). A result is written only when it arrives, so no job is written twice.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic

from redacto.batch.workers import J, JobWorker, R, Retries, Work, WorkerStartError

LOCAL = "local"
LOCAL_ACTORS = 2
USAGE_STATS = "RAY_USAGE_STATS_ENABLED"


class RayRunner:
    """Runs jobs on Ray actors (a `Runner`): `workers` of them, at least two."""

    def __init__(self, address: str, workers: int = 1, spill_dir: Path | None = None) -> None:
        self.address = address
        self.actors = workers if workers > 1 else LOCAL_ACTORS
        self.spill_dir = spill_dir
        """Where a local Ray spills objects (a batch's input bytes) when its memory is full:
        under `--out`, so no document lands elsewhere (None: Ray's own temp folder)."""

    def __call__(self, work: Work[J, R], jobs: Sequence[J], on_result: Callable[[R], None]) -> None:
        if not jobs:
            return
        ray = _import_ray()
        threads = os.environ.get("REDACTO_LITERTLM_THREADS", "1")
        # ray.init replaces the driver's SIGTERM handler with one that exits at once; the
        # command's own (stop as Ctrl-C does, and say how to resume) is put back after it.
        on_sigterm = signal.getsignal(signal.SIGTERM)
        try:
            self._init(ray)
        except Exception as error:  # Ray raises several kinds; the batch cannot start
            raise WorkerStartError(f"cannot start or join Ray at {self.address}: {error}") from None
        if on_sigterm is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_sigterm)
        try:
            _Dispatch(ray, work, self.actors, threads).run(jobs, on_result)
        finally:
            ray.shutdown()

    def _init(self, ray: Any) -> None:
        if self.address == LOCAL:
            spilling = {}
            if self.spill_dir is not None:
                spilling["object_spilling_directory"] = str(self.spill_dir)
            ray.init(
                num_cpus=self.actors,
                include_dashboard=False,
                _node_ip_address="127.0.0.1",
                log_to_driver=False,
                configure_logging=False,
                **spilling,
            )
        else:
            ray.init(address=self.address, log_to_driver=False, configure_logging=False)


class _Dispatch(Generic[J, R]):
    """One task per idle actor; results handed back as they arrive; lost actors replaced."""

    def __init__(self, ray: Any, work: Work[J, R], actors: int, threads: str) -> None:
        self.ray = ray
        self.remote_worker = ray.remote(num_cpus=1)(RayWorker).options(
            runtime_env={"env_vars": {"REDACTO_LITERTLM_THREADS": threads}}
        )
        self.work = work
        self.idle = [self._start() for _ in range(actors)]
        errors = [error for error in ray.get([a.ready.remote() for a in self.idle]) if error]
        if errors:
            raise WorkerStartError(errors[0])

    def _start(self) -> Any:
        return self.remote_worker.remote(self.work)

    def run(self, jobs: Sequence[J], on_result: Callable[[R], None]) -> None:
        pending = list(reversed(jobs))  # popped from the end: the run's order
        retries = Retries()
        in_flight: dict[Any, tuple[J, Any]] = {}
        while pending or in_flight:
            while pending and self.idle:
                job = pending.pop()
                sent = self.work.to_send(job, on_result)
                if sent is None:
                    continue
                actor = self.idle.pop()
                in_flight[actor.run.remote(sent)] = (job, actor)
            if not in_flight:
                continue
            finished, _ = self.ray.wait(list(in_flight), num_returns=1)
            for reference in finished:
                job, actor = in_flight.pop(reference)
                try:
                    result = self.ray.get(reference)
                except self.ray.exceptions.RayActorError:
                    self.idle.append(self._start())
                    if retries.again(self.work, job, on_result):
                        pending.append(job)
                    continue
                self.idle.append(actor)
                on_result(result)


class RayWorker:
    """A worker (`Work.open`) in a Ray actor; its start error is reported by `ready`, not
    raised, so the driver can tell a model that does not open from an actor that died."""

    def __init__(self, work: Work[Any, Any]) -> None:
        self.error: str | None = None
        self.worker: JobWorker[Any, Any] | None = None
        try:
            self.worker = work.open()
        except WorkerStartError as error:
            self.error = str(error)

    def ready(self) -> str | None:
        return self.error

    def run(self, job: Any) -> Any:
        if self.worker is None:
            raise WorkerStartError(self.error or "the worker did not start")
        return self.worker.run(job)


def _import_ray() -> Any:
    # Ray reports usage statistics to usage-stats.ray.io unless told not to, and reads the
    # switch from the environment of the driver and of the processes a local Ray starts;
    # set, not defaulted, as for ONNX Runtime (redacto.onnx_telemetry). A cluster joined by
    # address keeps its own setting (docs/batch.md).
    os.environ[USAGE_STATS] = "0"
    try:
        import ray
    except ImportError:
        message = "--ray needs Ray: install the ray extra (pip install 'redacto[ray]')"
        raise WorkerStartError(message) from None
    return ray
