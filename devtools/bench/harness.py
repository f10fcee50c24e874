"""What the benchmarks share: servers, load, percentiles, the environment, another commit.

- **Servers**: `start_server` starts a command and waits for the stdout line that names its
  port; `Server` reads its CPU time and stops it; `stop_all` stops a set, last first.
- **Load**: `run_wrk` runs wrk against a URL with a Lua script (`wrk_post_lines` writes
  one for a POST body) and refuses a run with failed or never-completed requests.
- **Percentiles**: `percentile` and `spread` (median and 95th percentile), `ms_cell`.
- **Environment**: `environment_lines` — date, commit, CPU, Python, the tools' and packages'
  versions and the load average before and after — printed under every bench's figures,
  because on a shared machine a figure means nothing without them.
- **Another commit**: every bench takes `--baseline COMMIT` (`bench_parser`). `worktree`
  checks the commit out in a temporary git worktree and `python_env` puts its `tools/` first
  on `PYTHONPATH`, so this checkout's bench measures that commit's `redacto`. A bench that
  starts servers runs the commit's server beside this one's in the same table; any other
  runs twice, here and there, and `compare` prints the two outputs side by side.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import importlib.util
import os
import platform
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import psutil

ROOT = Path(__file__).resolve().parents[2]


class BenchError(RuntimeError):
    """A check failed: the figures would not mean what they say."""


# --- percentiles -------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float:
    """The value at `share` (0–1) of the sorted values, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def spread(values: Sequence[float]) -> str:
    """`median M p95 P`, one decimal: how the benches print a distribution."""
    return f"median {percentile(values, 0.5):.1f} p95 {percentile(values, 0.95):.1f}"


def ms_cell(value: float) -> str:
    """Milliseconds as the benchmark tables print them: two decimals under 10 ms."""
    return f"{value:.2f}" if value < 10 else f"{value:.0f}"


# --- the environment ---------------------------------------------------------------------


def commit_line() -> str:
    """The commit of the `redacto` this process imports (a worktree's with `--baseline`),
    and whether its tree has uncommitted changes."""
    spec = importlib.util.find_spec("redacto")
    origin = Path(spec.origin).parent if spec is not None and spec.origin else ROOT

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=origin, capture_output=True, text=True)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no")
    return f"commit {head}" + (" with uncommitted changes" if changed else "")


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return names[0] if names else platform.processor()


def _version_of(command: Sequence[str]) -> str:
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=30)
    except OSError:
        return f"{command[0]} not installed"
    first = (done.stdout or done.stderr).strip().splitlines()
    return first[0].split(" [")[0].split(" sha=")[0] if first else command[0]


def _package_version(name: str) -> str:
    try:
        return f"{name} {importlib.metadata.version(name)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{name} not installed"


def load_average_line(before: Sequence[float], after: Sequence[float]) -> str:
    """The machine's load average around a run."""
    return (
        "- load average (1, 5, 15 min) before: "
        + " ".join(f"{value:.2f}" for value in before)
        + "; after: "
        + " ".join(f"{value:.2f}" for value in after)
    )


def environment_lines(
    load_before: Sequence[float],
    *,
    packages: Sequence[str] = (),
    tools: Sequence[Sequence[str]] = (),
) -> list[str]:
    """Markdown lines saying where and on what the figures above were measured: the time,
    the commit, the CPU, Python, each tool's version line (`tools`: commands such as
    `["wrk", "--version"]`), each package's version, and the load average from
    `load_before` (taken with `os.getloadavg()` before the run) to now."""
    now = datetime.datetime.now(datetime.UTC)
    lines = [
        f"- {now:%Y-%m-%d %H:%M} UTC; {commit_line()}; `nproc` = {os.cpu_count()} "
        f"({_cpu_model()}); Python {platform.python_version()}"
    ]
    if tools:
        lines.append("- " + "; ".join(_version_of(command) for command in tools))
    if packages:
        lines.append("- " + ", ".join(_package_version(name) for name in packages))
    lines.append(load_average_line(load_before, os.getloadavg()))
    return lines


# --- servers -----------------------------------------------------------------------------


def cpu_seconds(process_id: int, *, children: bool = False) -> float:
    """CPU time of a process, and of all its descendants if `children`."""
    root = psutil.Process(process_id)
    total = 0.0
    for each in (root, *(root.children(recursive=True) if children else ())):
        times = each.cpu_times()
        total += times.user + times.system
    return total


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

    def cpu_seconds(self, *, children: bool = False) -> float:
        """CPU time of the process (and of its children, such as `--workers` processes)."""
        return cpu_seconds(self.process.pid, children=children)

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def python_env(tree: Path = ROOT) -> dict[str, str]:
    """This process's environment with `tree`'s `redacto` first on the path (this checkout's
    by default, ahead of whatever is installed) and this checkout's `devtools` after it.
    Another tree reads this checkout's built models (`REDACTO_BUILD_DIR`, unless set): its
    own `build/` is git-ignored, so a worktree has none, and the model is not what a
    comparison of code measures."""
    paths = [str(tree / "tools"), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = os.environ | {"PYTHONPATH": os.pathsep.join(paths)}
    if tree != ROOT:
        env.setdefault("REDACTO_BUILD_DIR", str(ROOT / "build"))
    return env


def _lines(stream: TextIO, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def start_server(
    name: str, command: list[str], ready: str, folder: Path, *, tree: Path = ROOT
) -> Server:
    """Start `command` (with `tree`'s code: `python_env`) and wait for the stdout line
    matching `ready`, whose group is the port; its stderr goes to `folder/NAME.log`."""
    log = folder / f"{name}.log"
    with log.open("w") as errors:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=python_env(tree),
            cwd=ROOT,
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


# --- load: wrk ---------------------------------------------------------------------------


@dataclass(frozen=True)
class WrkRun:
    """One wrk run's figures."""

    requests: int
    rps: float
    mean_ms: float
    p50_ms: float
    p99_ms: float


_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _latency_ms(output: str, share: str) -> float:
    found = re.search(rf"^\s*{share}%\s+([0-9.]+)(us|ms|s)\s*$", output, re.MULTILINE)
    if found is None:
        raise BenchError(f"wrk printed no {share}% latency:\n{output}")
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


def require_wrk() -> None:
    """Stop with a clear message when wrk is missing (scripts/setup.sh installs it)."""
    if subprocess.run(["sh", "-c", "command -v wrk"], capture_output=True).returncode != 0:
        raise SystemExit("wrk is not installed (apt-get install wrk, or scripts/setup.sh)")


def run_wrk(url: str, script: Path, connections: int, seconds: int) -> WrkRun:
    """wrk on one thread with `connections` connections for `seconds`, sending `script`."""
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


@dataclass(frozen=True)
class LatencyAndLoad:
    """One request body on one server: alone on one connection, then under load on 16."""

    latency: WrkRun
    load: WrkRun
    cpu_us: tuple[float, ...]
    """Each CPU clock's microseconds per request under the load, in the order given."""


def latency_and_load(
    url: str,
    script: Path,
    latency_s: int,
    load_s: int,
    clocks: Sequence[Callable[[], float]],
) -> LatencyAndLoad:
    """A second's warm-up (not counted), `latency_s` on one connection, then `load_s` on 16,
    reading each of `clocks` (CPU seconds of a server, of Redis …) around the load."""
    run_wrk(url, script, 4, 1)
    latency = run_wrk(url, script, 1, latency_s)
    before = [clock() for clock in clocks]
    load = run_wrk(url, script, 16, load_s)
    cpu_us = tuple(
        (clock() - start) / load.requests * 1e6 for clock, start in zip(clocks, before, strict=True)
    )
    return LatencyAndLoad(latency, load, cpu_us)


def wrk_post_lines(payload: str) -> list[str]:
    """The Lua lines that make wrk POST `payload` as JSON (a long bracket: no escaping)."""
    level = "=" * next(n for n in range(1, 10) if f"]{'=' * n}]" not in payload)
    return [
        'wrk.method = "POST"',
        f"wrk.body = [{level}[{payload}]{level}]",
        'wrk.headers["Content-Type"] = "application/json"',
    ]


# --- another commit ----------------------------------------------------------------------


def bench_parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser described by the first paragraph of `doc`, with `--baseline`."""
    parser = argparse.ArgumentParser(
        description=(doc or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--baseline",
        metavar="COMMIT",
        help="also measure the code as it is at COMMIT (a temporary git worktree)",
    )
    return parser


@contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A detached git worktree of this repository at `commit`, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "-q", "--detach", str(tree), commit], cwd=ROOT, check=True
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False
            )


def without_baseline(argv: Sequence[str]) -> list[str]:
    """`argv` less its `--baseline COMMIT` (or `--baseline=COMMIT`)."""
    kept: list[str] = []
    skip = False
    for argument in argv:
        if skip:
            skip = False
        elif argument == "--baseline":
            skip = True
        elif not argument.startswith("--baseline="):
            kept.append(argument)
    return kept


def side_by_side(left: str, right: str, left_title: str, right_title: str) -> str:
    """Two outputs in two columns, line by line."""
    left_lines, right_lines = left.splitlines(), right.splitlines()
    width = max(len(line) for line in [left_title, *left_lines])
    rows = [(left_title, right_title), ("-" * width, "-" * len(right_title))]
    count = max(len(left_lines), len(right_lines))
    rows += [
        (
            left_lines[n] if n < len(left_lines) else "",
            right_lines[n] if n < len(right_lines) else "",
        )
        for n in range(count)
    ]
    return "\n".join(f"{a:<{width}} │ {b}".rstrip() for a, b in rows)


def compare(module: str, argv: Sequence[str], commit: str) -> int:
    """Run `python -m module ARGV` here, then with `commit`'s code, one after the other,
    and print both outputs side by side; 1 if either run failed."""
    arguments = without_baseline(argv)

    def run_with(tree: Path) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", module, *arguments]
        print(f"running {' '.join(command[1:])} with {tree}'s code …", file=sys.stderr)
        return subprocess.run(
            command, cwd=ROOT, env=python_env(tree), capture_output=True, text=True
        )

    with worktree(commit) as tree:
        here, there = run_with(ROOT), run_with(tree)
    for name, done in (("this checkout", here), (commit, there)):
        if done.returncode != 0:
            print(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}", file=sys.stderr)
    print(side_by_side(here.stdout, there.stdout, f"now ({commit_line()})", commit))
    return 0 if here.returncode == there.returncode == 0 else 1


def main_or_compare(
    module: str,
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    run: Callable[[argparse.Namespace], int | None],
    *,
    packages: Sequence[str] = (),
    tools: Sequence[Sequence[str]] = (),
    environment: bool = True,
) -> int:
    """`run(args)` followed by the environment lines (`environment_lines` with `packages`
    and `tools`) unless `environment` is false; with `--baseline`, `compare` this bench
    (`module`) at the commit instead."""
    if args.baseline:
        return compare(module, sys.argv[1:] if argv is None else argv, args.baseline)
    load_before = os.getloadavg()
    code = run(args) or 0
    if environment:
        print("\n".join(["", *environment_lines(load_before, packages=packages, tools=tools)]))
    return code
