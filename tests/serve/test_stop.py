"""`redacto serve` stopped as service managers and terminals stop it, and killed outright.

The command runs as a subprocess on a scripted model with its own `TMPDIR`; a job is left
under review (its upload held in memory: no file of it anywhere) or a proofread job running
(its upload in its folder) when the server is stopped. SIGTERM and SIGHUP must clean up as
Ctrl-C does; SIGKILL cannot be caught, so what it leaves (the run folder) must be readable
by nobody else and must go when the next server starts.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from serve_cases import events, post, upload

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "proofread"))
from cv_cases import ENGLISH
from cv_pages import write_born_digital
from fake_upstream import Answer, FakeUpstream

REPLIES = {
    "classify": ["CATEGORY: Medical"] * 2,
    "detect": ["NAME: Jane Doe\n"] * 2,
    "redact": ["Patient [NAME_1], seen today.\n"] * 2,
    "validate": ["PASS"] * 2,
}


def start(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    replies = tmp_path / "script" / "replies.json"
    replies.parent.mkdir(exist_ok=True)
    replies.write_text(json.dumps(REPLIES), encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    command = [sys.executable, "-c", "from redacto.cli import app; app()", "serve"]
    server = subprocess.Popen(
        [*command, "--model", f"scripted:{replies}", "--port", "0", "--ocr", "tesseract", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(temp)},
    )
    line = server.stdout.readline()
    assert line.startswith("Review page: http://127.0.0.1:"), line
    return server, line.split(": ", 1)[1].strip()


def job_under_review(tmp_path: Path, url: str) -> None:
    note = tmp_path / "script" / "Jane Doe.txt"
    note.write_text("Patient Jane Doe, seen today.\n", encoding="utf-8")
    job = upload(url, note)
    assert events(url, job, until="review")[-1][0] == "review"


def left_behind(tmp_path: Path) -> list[Path]:
    """Every file and folder under the server's TMPDIR but the private parent itself."""
    parent = tmp_path / "tmp" / f"redacto-serve-{os.getuid()}"
    return sorted(path for path in (tmp_path / "tmp").rglob("*") if path != parent)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_remove_every_job_folder(tmp_path, stop):
    server, url = start(tmp_path)
    try:
        job_under_review(tmp_path, url)
        # Only the run folder: a redaction holds its upload in memory.
        assert [path.name[:4] for path in left_behind(tmp_path)] == ["run-"]
    finally:
        server.send_signal(stop)
        _, errors = server.communicate(timeout=60)
    assert server.returncode == 0, errors
    assert left_behind(tmp_path) == []
    assert "Traceback" not in errors


def test_sigterm_while_a_proofread_waits_on_its_upstream_removes_every_job_folder(tmp_path):
    upstream = FakeUpstream.start()
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4)
    asked, release = threading.Event(), threading.Event()

    def hold(line: int) -> bool:
        asked.set()
        return release.wait(120)  # the stream stops after its first line until released

    upstream.gate = hold
    (tmp_path / "script").mkdir()
    source = write_born_digital(ENGLISH.lines, tmp_path / "script" / "Jonathan CV.pdf")
    server, url = start(tmp_path, "--proofread-upstream", upstream.url)
    try:
        status, _ = post(url + "api/proofread", source.read_bytes(), {"X-File-Name": source.name})
        assert status == 201
        assert asked.wait(120)
        assert any(path.name == "Jonathan CV.pdf" for path in left_behind(tmp_path))
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=60)
        release.set()
        upstream.stop()
    assert server.returncode == 0, errors
    assert left_behind(tmp_path) == []
    assert "Traceback" not in errors and "Jonathan" not in errors


def test_a_killed_server_leaves_nothing_readable_and_the_next_start_removes_it(tmp_path):
    server, url = start(tmp_path)
    job_under_review(tmp_path, url)
    server.kill()
    server.communicate(timeout=60)
    leftovers = left_behind(tmp_path)
    assert [path.name[:4] for path in leftovers] == ["run-"]  # the upload was in memory
    parent = tmp_path / "tmp" / f"redacto-serve-{os.getuid()}"
    for path in [parent, *leftovers]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        assert mode & 0o077 == 0, f"{path.relative_to(tmp_path)} is {oct(mode)}"
    # Something that is not a server's run folder stays where it is.
    unrelated = parent / "keep-me"
    unrelated.mkdir()

    second, _ = start(tmp_path)
    try:
        assert left_behind(tmp_path)[0] == unrelated
        assert leftovers[0] not in left_behind(tmp_path)
    finally:
        second.send_signal(signal.SIGTERM)
        _, errors = second.communicate(timeout=60)
    assert second.returncode == 0, errors
    assert "removed 1 folder(s) a stopped server left" in errors
    assert left_behind(tmp_path) == [unrelated]
