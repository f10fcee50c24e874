"""wrk runs and server subprocesses for scripts/bench_proxy.py: parse wrk's figures (and
refuse a run with failed or never-completed requests), start a server on a loopback port and
wait for its ready line, stop it."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import psutil

ROOT = Path(__file__).resolve().parents[1]


class BenchError(RuntimeError):
    """A check failed: the figures would not mean what they say."""


# --- wrk -------------------------------------------------------------------------------


@dataclass(frozen=True)
class WrkRun:
    """One wrk run's figures."""

    requests: int
    rps: float
    mean_ms: float
    p50_ms: float
    p99_ms: float


_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _latency_ms(output: str, percentile: str) -> float:
    found = re.search(rf"^\s*{percentile}%\s+([0-9.]+)(us|ms|s)\s*$", output, re.MULTILINE)
    if found is None:
        raise BenchError(f"wrk printed no {percentile}% latency:\n{output}")
    return float(found.group(1)) * _UNIT_MS[found.group(2)]


def parse_wrk(output: str) -> WrkRun:
    """wrk's figures; raises on any non-2xx answer or socket error."""
    if "Non-2xx" in output or "Socket errors" in output:
        raise BenchError(f"wrk saw failed requests:\n{output}")
    count = re.search(r"^\s*([0-9]+) requests in", output, re.MULTILINE)
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", output, re.MULTILINE)
    mean = re.search(r"^\s*Latency\s+([0-9.]+)(us|ms|s)\s", output, re.MULTILINE)
    if count is None or rps is None or mean is None or int(count.group(1)) == 0:
        raise BenchError(f"wrk completed no request:\n{output}")
    return WrkRun(
        requests=int(count.group(1)),
        rps=float(rps.group(1)),
        mean_ms=float(mean.group(1)) * _UNIT_MS[mean.group(2)],
        p50_ms=_latency_ms(output, "50"),
        p99_ms=_latency_ms(output, "99"),
    )


def run_wrk(url: str, script: Path, connections: int, seconds: int) -> WrkRun:
    # --timeout: Presidio's p99 under load nears wrk's default 2 s; a slow answer is slow,
    # not failed (any real failure still fails the run).
    command = [
        "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
        "-s", str(script),
    ]  # fmt: skip
    done = subprocess.run(
        [*command, url], capture_output=True, text=True, timeout=seconds + 60, check=False
    )
    if done.returncode != 0:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stderr}")
    run = parse_wrk(done.stdout)
    # Little's law: with every connection busy, rps × mean latency ≈ connections, less the
    # requests cut off by the end of the run. Far fewer means requests that never completed
    # (wrk leaves those out of its latencies altogether).
    in_flight = run.rps * run.mean_ms / 1000
    expected = connections * max(0.0, 1 - run.mean_ms / 1000 / seconds)
    if connections > 1 and in_flight < expected / 2:
        raise BenchError(
            f"only {in_flight:.1f} of {connections} requests in flight:\n{done.stdout}"
        )
    return run


# --- servers ---------------------------------------------------------------------------


@dataclass
class Server:
    """A server subprocess on a loopback port."""

    name: str
    process: subprocess.Popen[str]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        times = psutil.Process(self.process.pid).cpu_times()
        return times.user + times.system

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _lines(stream: TextIO, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def start_server(name: str, command: list[str], ready: str, folder: Path) -> Server:
    """Start `command` and wait for the stdout line matching `ready` (its group: the port)."""
    log = folder / f"{name}.log"
    paths = [str(ROOT / "tools"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = os.environ | {"PYTHONPATH": os.pathsep.join(paths)}  # measure this checkout's code
    with log.open("w") as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env, cwd=ROOT
        )
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True).start()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        found = re.search(ready, line)
        if found:
            return Server(name, process, int(found.group(1)), log)
    process.kill()
    raise BenchError(f"{name} did not start: {log.read_text()[-2000:]}")


def stop_all(started: dict[str, Server]) -> None:
    """Stop every server of `started`, the last started first."""
    for server in reversed(started.values()):
        server.stop()


def load_average_line(before: tuple[float, ...], after: tuple[float, ...]) -> str:
    """The machine's load average around a run, as the benchmarks print it."""
    return (
        "- load average (1, 5, 15 min) before: "
        + " ".join(f"{value:.2f}" for value in before)
        + "; after: "
        + " ".join(f"{value:.2f}" for value in after)
    )


def ms_cell(value: float) -> str:
    """Milliseconds as the benchmark tables print them: two decimals under 10 ms."""
    return f"{value:.2f}" if value < 10 else f"{value:.0f}"


# --- the proxy at another commit ---------------------------------------------------------


@contextmanager
def checkout_at(rev: str, folder: Path) -> Iterator[Path]:
    """A detached git worktree of this repository at `rev` under `folder`, removed after."""
    tree = folder / "baseline"
    subprocess.run(
        ["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=ROOT, check=True
    )
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def start_proxy_at(tree: Path, upstream: str, folder: Path, *options: str) -> Server:
    """`redacto proxy` as it is in the worktree `tree` (its package first on the path,
    ahead of this checkout's), in front of `upstream`."""
    run_cli = (
        f"import sys; sys.path.insert(0, {str(tree / 'tools')!r}); "
        "from redacto.cli import app; app()"
    )
    command = [sys.executable, "-c", run_cli, "proxy", "--upstream", upstream, *options]
    return start_server(
        "baseline",
        [*command, "--listen", "127.0.0.1:0"],
        r"Proxy on http://127\.0\.0\.1:([0-9]+)/v1",
        folder,
    )
