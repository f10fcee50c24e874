"""`--ray ADDRESS`: a run's jobs on Ray actors, one worker (and engine) each.

`local` starts a Ray instance on this machine that listens on the loopback address only,
runs no dashboard, and wants a token on every listener (`local_ray`); any other address
joins that cluster (every node needs redacto installed, the model built at the same path or
named by URI, and the `ray` extra). The driver sends each
job as `Work.to_send` makes it (a batch input's bytes, read now), so no node needs to see the
driver's files; the actors send back results, and the driver alone writes them
(`redacto.batch.run`, `redacto.evaluation.run`).

An actor that dies (its node lost, its process killed) is replaced, and the job it was
running is sent again to whichever actor is free; a job whose actor died twice is given up
(`Work.lost`). A result is written only when it arrives, so no job is written twice.
"""

from __future__ import annotations

import importlib
import ipaddress
import os
import secrets
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic

import psutil

from redacto.batch.workers import J, JobWorker, R, Retries, Work, WorkerStartError

LOCAL = "local"
LOCAL_ACTORS = 2
LOOPBACK = "127.0.0.1"
USAGE_STATS = "RAY_USAGE_STATS_ENABLED"
ONE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch for a node that is no cluster's member. Set to "0" (read on Linux too,
whatever its name says), a node asked for 127.0.0.1 keeps it; unset, Ray swaps a loopback
node address for the machine's own, and its GCS, raylet and workers then listen on every
interface, its runtime-env agent on the machine's address."""
AUTH_MODE = "RAY_AUTH_MODE"
AUTH_TOKEN = "RAY_AUTH_TOKEN"
_run_token: str | None = None


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
        local = self.address == LOCAL
        ours = local_ray(ray, self.actors, self.spill_dir) if local else _joined(ray, self.address)
        with ours:
            if on_sigterm is not None and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, on_sigterm)
            dispatch = _Dispatch(ray, work, self.actors, threads)
            if local:
                refuse_wide_listeners()  # the actors' processes have started by now
            dispatch.run(jobs, on_result)


@contextmanager
def _joined(ray: Any, address: str) -> Iterator[None]:
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as error:  # Ray raises several kinds; the batch cannot start
        raise WorkerStartError(f"cannot join Ray at {address}: {error}") from None
    try:
        yield
    finally:
        ray.shutdown()


@contextmanager
def local_ray(ray: Any, cpus: int, spill_dir: Path | None = None) -> Iterator[None]:
    """A Ray on this machine for as long as the block runs, that no other machine can reach.

    Every process it starts listens on 127.0.0.1 only (its node address kept as asked, see
    `ONE_MACHINE`); the dashboard process Ray starts even without a dashboard (a head
    process that only reports usage statistics, switched off here) is not started; and
    token authentication is on with a token made at random for this process and given to
    Ray's processes in their environment (readable by this user alone), so a connection
    from another local user to a loopback port is refused, and nothing is written to
    `~/.ray/auth_token`, where Ray would otherwise keep its token readable by every user.
    Raises `WorkerStartError` when Ray does not start, or starts otherwise than this.
    """
    # Ray's own modules, untyped (its stubs do not name these).
    ray_constants: Any = importlib.import_module("ray._private.ray_constants")
    raylet: Any = importlib.import_module("ray._raylet")

    global _run_token
    if _run_token is None:
        _run_token = secrets.token_hex(32)
    settings = {ONE_MACHINE: "0", AUTH_MODE: "token", AUTH_TOKEN: _run_token}
    before = {name: os.environ.get(name) for name in settings}
    one_machine_before = ray_constants.ENABLE_RAY_CLUSTER
    os.environ.update(settings)
    # Ray reads these when it is imported, and this process may have imported it already:
    # the switch is a module constant, the mode is in its native config, the token cached.
    ray_constants.ENABLE_RAY_CLUSTER = False
    raylet.Config.initialize("")
    raylet.AuthenticationTokenLoader.instance().reset_cache()
    spilling = {} if spill_dir is None else {"object_spilling_directory": str(spill_dir)}
    # A head node starts a dashboard process even with include_dashboard=False (then it
    # only reports usage statistics, which are off): not started at all here.
    head: Any = importlib.import_module("ray._private.node").Node
    start_dashboard = head.start_api_server
    head.start_api_server = _no_dashboard
    try:
        try:
            ray.init(
                address="local",  # a new Ray, whatever RAY_ADDRESS names in the shell
                num_cpus=cpus,
                include_dashboard=False,
                _node_ip_address=LOOPBACK,
                log_to_driver=False,
                configure_logging=False,
                **spilling,
            )
        except Exception as error:  # Ray raises several kinds; the batch cannot start
            raise WorkerStartError(f"cannot start a local Ray: {error}") from None
        finally:
            head.start_api_server = start_dashboard
        try:
            node = ray._private.worker.global_worker.node
            if node.node_ip_address != LOOPBACK:
                raise WorkerStartError(
                    f"the local Ray took the address {node.node_ip_address}, not {LOOPBACK}"
                )
            if raylet.get_authentication_mode() != raylet.AuthenticationMode.TOKEN:
                raise WorkerStartError("the local Ray started without token authentication")
            yield
        finally:
            ray.shutdown()
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        ray_constants.ENABLE_RAY_CLUSTER = one_machine_before
        raylet.Config.initialize("")


def _no_dashboard(node: Any, *, include_dashboard: bool | None, raise_on_failure: bool) -> None:
    """Stands in for `ray._private.node.Node.start_api_server` while a local Ray starts."""


def wide_listeners() -> list[str]:
    """Every socket this process and its descendants (a local Ray's processes) listen on at
    an address other than loopback, as `process ip:port`."""
    driver = psutil.Process()
    found = []
    for process in [driver, *driver.children(recursive=True)]:
        try:
            connections = process.net_connections(kind="inet")
            name = process.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # gone (a process ends), or not ours
        for connection in connections:
            listens = connection.status == psutil.CONN_LISTEN or (
                connection.type == socket.SOCK_DGRAM and not connection.raddr
            )
            if listens and not _is_loopback(connection.laddr.ip):
                found.append(f"{name} {connection.laddr.ip}:{connection.laddr.port}")
    return found


def refuse_wide_listeners() -> None:
    """Stop the run (`WorkerStartError`) if a local Ray listens beyond loopback after all:
    another Ray version, or `ray[default]`'s agents, may bind otherwise."""
    wide = wide_listeners()
    if wide:
        raise WorkerStartError(
            "the local Ray listens beyond the loopback address, so the run stops: "
            + ", ".join(wide)
        )


def _is_loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


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
    # set, not defaulted, as for ONNX Runtime (redacto.host.onnx_telemetry). A cluster joined by
    # address keeps its own setting (docs/batch.md).
    os.environ[USAGE_STATS] = "0"
    try:
        import ray
    except ImportError:
        message = "--ray needs Ray: install the ray extra (pip install 'redacto[ray]')"
        raise WorkerStartError(message) from None
    return ray
