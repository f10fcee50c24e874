"""`redacto serve` as a user starts it: the printed address answers, Ctrl-C stops it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from redacto.serve import CONTENT_SECURITY_POLICY


@pytest.mark.slow
def test_serve_prints_a_tokened_loopback_address_and_stops_on_ctrl_c(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps({"classify": []}), encoding="utf-8")
    command = [sys.executable, "-c", "from redacto.cli import app; app()", "serve"]
    server = subprocess.Popen(
        [*command, "--model", f"scripted:{replies}", "--port", "0", "--ocr", "tesseract"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    try:
        line = server.stdout.readline()
        assert line.startswith("Review page: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
            assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        with urllib.request.urlopen(url + "api/jobs", timeout=30) as response:
            listing = json.load(response)
            assert listing["jobs"] == []
            assert listing["model"].endswith(
                "unknown model (no policy in the file) · validator not measured"
            )
    finally:
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=30)
    assert server.returncode == 0, errors
    assert url.split("/t/")[1].strip("/") not in errors  # the token is printed once, on stdout


def test_a_proofread_upstream_that_is_no_http_url_stops_the_command_before_the_model(tmp_path):
    from typer.testing import CliRunner

    from redacto.cli import app

    missing = tmp_path / "no-such-model.litertlm"  # never opened: the URL is checked first
    result = CliRunner().invoke(
        app,
        ["serve", "--model", f"litertlm:{missing}", "--proofread-upstream", "ftp://example.org"],
    )
    assert result.exit_code == 1
    assert "--proofread-upstream must be an http:// or https:// URL" in result.output
