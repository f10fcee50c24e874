"""`--resume`: a batch stopped by SIGTERM part-way leaves only complete outputs, and the
next run with `--resume` finishes the rest and runs nothing twice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mixed_inputs import letters

from cli_runs import redact

pytestmark = pytest.mark.slow  # the tiny model runs


def rows(out: Path) -> list[dict]:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))["rows"]


def stamps(out: Path) -> dict[str, int]:
    """Every output file's inode and modification time: what is redone changes them."""
    return {
        str(path.relative_to(out)): path.stat().st_ino * 10**20 + path.stat().st_mtime_ns
        for path in out.rglob("*")
        if path.is_file() and ".redacto" not in path.parts and not path.name.startswith("summary")
    }


STOPPED_ON = {"one process": (), "processes": ("--workers", "2"), "ray": ("--ray", "local")}


@pytest.mark.parametrize("kind", list(STOPPED_ON))
def test_sigterm_then_resume_finishes_the_rest_and_redoes_nothing(tmp_path, tiny_model_path, kind):
    if kind == "ray":
        pytest.importorskip("ray")
    inbox = tmp_path / "inbox"
    letters(inbox, 24)
    out = tmp_path / "out"
    command = [
        sys.executable, "-c", "from redacto.cli import app; app()",
        "redact", str(inbox), "--model", f"litertlm:{tiny_model_path}", "--out", str(out),
        *STOPPED_ON[kind],
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    done = out / ".redacto" / "done"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(done.glob("*.json"))) < 3:
        assert process.poll() is None, process.communicate()[0].decode()
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    output = process.communicate(timeout=60)[0].decode()
    assert process.returncode == 130, output
    assert "--resume" in output
    assert not (out / "summary.json").exists()  # a stopped run claims no summary
    finished = sorted(p.name for p in out.iterdir() if p.name.startswith("letter-"))
    assert 3 <= len(finished) < 24, "the run was not stopped part-way"
    for name in finished:  # every folder in place is whole
        assert sorted(p.name for p in (out / name).iterdir()) == ["redacted.txt", "report.json"]
    before = stamps(out)

    result = redact(inbox, "--model", f"litertlm:{tiny_model_path}", "--out", out, "--resume")
    assert result.exit_code in (0, 10), result.output
    summary = rows(out)
    assert len(summary) == 24
    resumed = {Path(row["file"]).name for row in summary if row["resumed"]}
    assert resumed == set(finished), "a finished input was run again, or one was not resumed"
    after = stamps(out)
    assert {key: after[key] for key in before} == before, "a finished output was rewritten"
    assert len(after) == 2 * 24
    assert not list((out / ".redacto" / "tmp").iterdir())


def test_resume_reruns_what_changed(tmp_path, tiny_model_path):
    inbox = tmp_path / "inbox"
    first, second, third = letters(inbox, 3)
    out = tmp_path / "out"
    model = f"litertlm:{tiny_model_path}"
    assert redact(inbox, "--model", model, "--out", out).exit_code in (0, 10)
    first.write_text("Dear Mr. Paul Martin, call 408-555-1999.\n", encoding="utf-8")
    (out / second.name / "redacted.txt").write_text("edited by hand\n", encoding="utf-8")
    result = redact(inbox, "--model", model, "--out", out, "--resume")
    assert result.exit_code in (0, 10), result.output
    resumed = {Path(row["file"]).name: row["resumed"] for row in rows(out)}
    assert resumed == {first.name: False, second.name: False, third.name: True}
    assert (out / second.name / "redacted.txt").read_text(encoding="utf-8") != "edited by hand\n"
    # Other options make other outputs: nothing is resumed.
    result = redact(inbox, "--model", model, "--out", out, "--resume", "--no-rules")
    assert not any(row["resumed"] for row in rows(out))
