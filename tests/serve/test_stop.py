"""`redacto serve` stopped as service managers and terminals stop it, and killed outright.

The command runs as a subprocess on a scripted model with its own `TMPDIR`; a job is left
under review or a proofread job running (waiting on its upstream) when the server is
stopped. Every job is held in memory, so there is never anything of it on disk: not while
it runs, not after SIGTERM or SIGHUP (which must stop the server as Ctrl-C does), and not
after SIGKILL, which cannot be caught.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from cv_cases import ENGLISH
from cv_pages import write_born_digital
from fake_upstream import Answer, FakeUpstream
from serve_cases import events, post, upload

pytestmark = pytest.mark.slow  # each test starts `redacto serve` and stops it with a signal

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
    """Every file and folder under the server's TMPDIR."""
    return sorted((tmp_path / "tmp").rglob("*"))


def proofread_waiting_on_its_upstream(
    tmp_path: Path,
) -> tuple[subprocess.Popen[str], Callable[[], None]]:
    """A server whose proofread job has sent its text and waits for the rest of the answer
    (the fake upstream holds its stream after the first line), and what lets that go."""
    upstream = FakeUpstream.start()
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4)
    asked, release = threading.Event(), threading.Event()

    def hold(line: int) -> bool:
        asked.set()
        return release.wait(120)

    def let_go() -> None:
        release.set()
        upstream.stop()

    upstream.gate = hold
    (tmp_path / "script").mkdir()
    source = write_born_digital(ENGLISH.lines, tmp_path / "script" / "Jonathan CV.pdf")
    server, url = start(tmp_path, "--proofread-upstream", upstream.url)
    try:
        status, _ = post(url + "api/proofread", source.read_bytes(), {"X-File-Name": source.name})
        assert status == 201
        assert asked.wait(120)
    except BaseException:
        server.kill()
        server.communicate(timeout=60)
        let_go()
        raise
    return server, let_go


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_cleanly_with_a_job_under_review(tmp_path, stop):
    server, url = start(tmp_path)
    try:
        job_under_review(tmp_path, url)
        assert left_behind(tmp_path) == []  # the upload, the run and the review in memory
    finally:
        server.send_signal(stop)
        _, errors = server.communicate(timeout=60)
    assert server.returncode == 0, errors
    assert left_behind(tmp_path) == []
    assert "Traceback" not in errors


def test_sigterm_while_a_proofread_waits_on_its_upstream(tmp_path):
    server, let_go = proofread_waiting_on_its_upstream(tmp_path)
    try:
        assert left_behind(tmp_path) == []  # its upload and its outputs are in memory
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=60)
        let_go()
    assert server.returncode == 0, errors
    assert left_behind(tmp_path) == []
    assert "Traceback" not in errors and "Jonathan" not in errors


def test_a_killed_server_leaves_nothing_behind(tmp_path):
    server, let_go = proofread_waiting_on_its_upstream(tmp_path)
    try:
        server.kill()
        server.communicate(timeout=60)
    finally:
        let_go()
    assert left_behind(tmp_path) == []
