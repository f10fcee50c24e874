"""`--workers N` and `--ray local`: a worker killed mid-run loses nothing: its input runs
again on a fresh worker, and every input is written once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from mixed_inputs import letters

pytestmark = pytest.mark.slow  # the tiny model runs


def pool_processes(driver: psutil.Process) -> list[psutil.Process]:
    """The driver's worker processes (not multiprocessing's resource tracker)."""
    return [
        child
        for child in driver.children()
        if "resource_tracker" not in " ".join(child.cmdline())
        and "multiprocessing" in " ".join(child.cmdline())
    ]


def ray_actors(driver: psutil.Process) -> list[psutil.Process]:
    """The local Ray's actor processes, each holding a worker."""
    return [
        child
        for child in driver.children(recursive=True)
        if "RayWorker" in " ".join(child.cmdline())
    ]


WORKERS = {
    "processes": (("--workers", "2"), pool_processes),
    "ray": (("--ray", "local"), ray_actors),
}


@pytest.mark.parametrize("kind", sorted(WORKERS))
def test_a_killed_worker_s_inputs_run_again_elsewhere(tmp_path, tiny_model_path, kind):
    if kind == "ray":
        pytest.importorskip("ray")
    flags, workers_of = WORKERS[kind]
    inbox = tmp_path / "inbox"
    letters(inbox, 16)
    out = tmp_path / "out"
    command = [
        sys.executable, "-c", "from redacto.cli import app; app()", "redact", str(inbox),
        "--model", f"litertlm:{tiny_model_path}", "--out", str(out), *flags,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    driver = psutil.Process(process.pid)
    done = out / ".redacto" / "done"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(done.glob("*.json"))) < 2:
        assert process.poll() is None, process.communicate()[0].decode()
        time.sleep(0.02)
    victims = workers_of(driver)
    assert victims, "no worker process found"
    victims[0].send_signal(signal.SIGKILL)
    output = process.communicate(timeout=180)[0].decode()
    assert process.returncode in (0, 10), output
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 16
    assert all(row["status"] in ("PASS", "NEEDS_REVIEW") for row in rows), rows
    names = sorted(p.name for p in out.iterdir() if p.name.startswith("letter-"))
    assert names == sorted(Path(row["file"]).name for row in rows)
    assert len(list(done.glob("*.json"))) == 16


def test_ray_reports_no_usage_statistics_whatever_the_shell_says(monkeypatch):
    pytest.importorskip("ray")
    from ray._common.usage.usage_lib import usage_stats_enabled

    from redacto.batch.ray_runner import _import_ray

    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "1")
    _import_ray()
    # Ray's own switch, read by the driver and inherited by the processes a local Ray starts.
    assert usage_stats_enabled() is False
