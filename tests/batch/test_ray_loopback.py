"""`--ray local` listens on loopback only: while the runner's own local Ray runs jobs, every
socket a process of it listens on is a loopback address, no dashboard process runs, every
listener refuses a caller without the run's token, and nothing is written under `~/.ray`."""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

GRPC_PROBES = {
    "gcs": "/ray.rpc.NodeInfoGcsService/GetClusterId",
    "node manager": "/ray.rpc.NodeManagerService/GetNodeStats",
    "object manager": "/ray.rpc.ObjectManagerService/Pull",
    "core worker": "/ray.rpc.CoreWorkerService/GetCoreWorkerStats",
}
"""A call to each gRPC service a local Ray serves, sent with an empty request and no token
(so it is refused before it runs): each listener must answer one of them UNAUTHENTICATED
and none of them OK (a service it does not serve answers UNIMPLEMENTED)."""

LISTENING = {"driver", "gcs_server", "raylet", "ray::RayWorker", "ray::RuntimeEnvAgent"}
"""The processes that listen (on loopback) while a local Ray runs jobs, as docs/batch.md
lists them: a process that starts listening in another Ray version is noticed here."""
MAY_LISTEN = {"ray::IDLE"}
"""A worker process Ray started ahead of need, not (yet) an actor."""


@dataclass(frozen=True)
class Ping:
    index: int


class PingWorker:
    def run(self, job: Ping) -> int:
        return job.index

    def close(self) -> None:
        pass


class PingWork:
    def open(self) -> PingWorker:
        return PingWorker()

    def lost(self, job: Ping, reason: str) -> int:
        raise AssertionError(f"job {job.index} lost: {reason}")

    def to_send(self, job: Ping, on_result: object) -> Ping:
        return job


@dataclass
class Listener:
    process: str
    cmdline: str
    ip: str
    port: int
    kind: str


@dataclass
class Seen:
    listeners: list[Listener] = field(default_factory=list)
    processes: list[str] = field(default_factory=list)
    results: list[int] = field(default_factory=list)


def is_loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def ray_processes() -> list[psutil.Process]:
    """This process (the driver) and every process the local Ray started under it."""
    driver = psutil.Process()
    return [driver, *driver.children(recursive=True)]


def snapshot(seen: Seen) -> None:
    """Every listening TCP socket and bound UDP socket of the Ray processes, and their
    command lines, taken while the actors hold their jobs' workers."""
    for process in ray_processes():
        try:
            cmdline = " ".join(process.cmdline())
            # A worker's name says what it runs now: ray::RayWorker, ray::RayWorker.run.
            name = "driver" if process.pid == os.getpid() else process.name().split(".")[0]
            connections = process.net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
        seen.processes.append(cmdline)
        for connection in connections:
            udp = connection.type == 2  # SOCK_DGRAM
            if connection.status == psutil.CONN_LISTEN or (udp and not connection.raddr):
                seen.listeners.append(
                    Listener(
                        name,
                        cmdline,
                        connection.laddr.ip,
                        connection.laddr.port,
                        "udp" if udp else "tcp",
                    )
                )


def reach(listener: Listener) -> str:
    """host:port to connect to the listener (a wildcard one is reached on loopback)."""
    address = ipaddress.ip_address(listener.ip)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    host = "127.0.0.1" if address.is_unspecified else str(address)
    return f"[{host}]:{listener.port}" if address.version == 6 else f"{host}:{listener.port}"


def grpc_codes(listener: Listener, token: str | None = None) -> dict[str, str]:
    import grpc

    metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    codes = {}
    with grpc.insecure_channel(reach(listener)) as channel:
        for service, method in GRPC_PROBES.items():
            call = channel.unary_unary(method)
            try:
                call(b"", timeout=5, metadata=metadata)
                codes[service] = "OK"
            except grpc.RpcError as error:
                codes[service] = error.code().name
    return codes


def accepts(listener: Listener) -> bool:
    """Does the port still take a connection (a worker Ray started ahead of need may exit
    while it is probed, as the actors take its place)?"""
    try:
        host = reach(listener).rsplit(":", 1)[0].strip("[]")
        with socket.create_connection((host, listener.port), timeout=2):
            return True
    except OSError:
        return False


def http_status(listener: Listener) -> int:
    request = urllib.request.Request(
        f"http://{reach(listener)}/get_runtime_envs_info", data=b"", method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow  # starts a local Ray (5 to 15 s)
def test_a_local_ray_listens_on_loopback_only_and_each_listener_wants_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray")
    from ray import cloudpickle

    from redacto.batch.ray_runner import RayRunner

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    # A shell's settings change none of it: a cluster's address (Ray would join it instead
    # of starting one), token authentication off, cluster mode on.
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:9")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "1")
    # The jobs' classes live in this test module, which Ray's workers cannot import.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    seen = Seen()
    token_codes: dict[int, dict[str, str]] = {}
    http_codes: dict[int, int] = {}
    with_token: dict[int, dict[str, str]] = {}
    gone: dict[int, bool] = {}

    def on_result(result: int) -> None:
        if not seen.results:  # the actors are up: look before Ray goes away
            snapshot(seen)
            for listener in seen.listeners:
                if listener.kind != "tcp":
                    continue
                if "RuntimeEnvAgent" in listener.process + listener.cmdline:
                    http_codes[listener.port] = http_status(listener)
                else:
                    codes = grpc_codes(listener)
                    if "UNAUTHENTICATED" not in codes.values():  # starting, or exiting?
                        time.sleep(1)
                        codes = grpc_codes(listener)
                        gone[listener.port] = not accepts(listener)
                    token_codes[listener.port] = codes
                token = os.environ.get("RAY_AUTH_TOKEN")  # the run's, while it runs
                if listener.process == "gcs_server" and token:
                    with_token[listener.port] = grpc_codes(listener, token)
        seen.results.append(result)

    try:
        RayRunner("local", workers=2)(PingWork(), [Ping(i) for i in range(4)], on_result)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])

    assert sorted(seen.results) == [0, 1, 2, 3]
    assert seen.listeners, "no listening socket found: the probe saw no Ray process"
    wide = [
        f"{x.process} {x.kind} {x.ip}:{x.port}" for x in seen.listeners if not is_loopback(x.ip)
    ]
    assert not wide, f"Ray listens beyond loopback: {wide}"
    dashboards = [c for c in seen.processes if "dashboard/dashboard.py" in c]
    assert not dashboards, f"a dashboard process runs: {dashboards}"
    assert {x.kind for x in seen.listeners} == {"tcp"}, "a Ray process has a UDP socket"
    assert LISTENING <= {x.process for x in seen.listeners} <= LISTENING | MAY_LISTEN
    # Every TCP listener is one of Ray's gRPC services or the runtime-env agent's HTTP
    # server, and none answers a caller without the run's token.
    assert all(status == 401 for status in http_codes.values()), http_codes
    names = {x.port: x.process for x in seen.listeners}
    for port, codes in token_codes.items():
        # A listener that closed while it was probed answers no one: that is refused too.
        wanted = "UNAUTHENTICATED" in codes.values() or gone.get(port, False)
        refused = wanted and "OK" not in codes.values()
        assert refused, f"{names[port]} on port {port} answers without the token: {codes}"
    # ... and it is the token that is wanted: with it the GCS answers.
    assert [codes["gcs"] for codes in with_token.values()] == ["OK"], with_token
    # The token is made for the run and handed to Ray's processes in their environment:
    # nothing lands in the home folder (Ray's default writes ~/.ray/auth_token, mode 644).
    assert not (home / ".ray").exists()


def test_a_listener_beyond_loopback_stops_a_local_run() -> None:
    # What the runner checks once its actors are up, should Ray bind otherwise one day.
    from redacto.batch.ray_runner import refuse_wide_listeners
    from redacto.batch.workers import WorkerStartError

    with socket.socket() as loopback:
        loopback.bind(("127.0.0.1", 0))
        loopback.listen()
        refuse_wide_listeners()
        with socket.socket() as everywhere:
            everywhere.bind(("0.0.0.0", 0))
            everywhere.listen()
            port = everywhere.getsockname()[1]
            with pytest.raises(WorkerStartError, match=f"0.0.0.0:{port}"):
                refuse_wide_listeners()
