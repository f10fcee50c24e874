"""`redacto serve` reads uploads with all three tiers unless `--detectors` says otherwise."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from serve_cases import events, upload

pytestmark = pytest.mark.slow  # starts `redacto serve`, the NER tier loaded


def _serve(tmp_path, *options: str) -> tuple[subprocess.Popen, str]:
    replies = tmp_path / "replies.json"
    replies.write_text(
        json.dumps({"detect": ["NONE"], "redact": ["(no rewrite)"], "validate": ["PASS"]}),
        encoding="utf-8",
    )
    command = [sys.executable, "-c", "from redacto.cli import app; app()", "serve"]
    server = subprocess.Popen(
        [
            *command,
            "--model",
            f"scripted:{replies}",
            "--port",
            "0",
            "--category",
            "general",
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return server, server.stdout.readline().split(": ", 1)[1].strip()


@pytest.mark.parametrize(
    ("options", "marks"),
    [((), ["[NAME_1]"]), (("--detectors", "rules,model"), [])],
    ids=["all three tiers by default", "without the NER tier"],
)
def test_the_review_page_runs_the_ner_tier_by_default(tmp_path, options, marks):
    """The model here finds nothing: the name is hidden only where the NER tier reads."""
    note = tmp_path / "note.txt"
    note.write_text("Please forward the minutes to Joana Ferreira by Friday.\n", encoding="utf-8")
    server, url = _serve(tmp_path, *options)
    try:
        review = events(url, upload(url, note), until="review")[-1][1]
        assert [mark["placeholder"] for mark in review["marks"]] == marks
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
