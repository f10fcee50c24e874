"""`redacto proofread` runs without the proxy extra: its vault and restorer are
`redacto.vault`, below both faces, and it parses JSON with the standard library.

The command runs in a fresh interpreter in which the proxy package and every package of
the proxy extra (uvloop, orjson) cannot be imported, exactly as on a machine where the
extra was never installed: a text CV against the fake upstream (the streamed
answer parsed, restored and placed), and a born-digital PDF offline with Hunspell (read,
checked and annotated).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_inputs import CV_TEXT, TEXT_ANSWER

from cli_runs import script
from cv_cases import ENGLISH
from cv_pages import ENGLISH_EMAIL, ENGLISH_NAME, write_born_digital
from fake_upstream import Answer
from redacto.proofread import MISTAKES_JSON, PROOFREAD_PDF

PROXY_EXTRA = ("uvloop", "orjson")
"""httptools and uvicorn are not among them: base dependencies, the one for the upstream
client both faces share (`redacto.upstream`), the other for the review page's server too
(the CLI loads `redacto.serve`)."""
WITHOUT_THE_EXTRA = f"""
import sys
for name in {(*PROXY_EXTRA, "redacto.proxy")!r}:
    sys.modules[name] = None  # `import name` now raises ImportError, as if not installed
from redacto.cli import app
sys.argv[0] = "redacto"
try:
    app()
finally:
    loaded = [name for name in {PROXY_EXTRA!r} if sys.modules.get(name) is not None]
    assert not loaded, loaded
"""


def proofread_without_the_extra(
    tmp_path: Path, source: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    model = script(
        tmp_path,
        detect=[ENGLISH.detect_reply, "NONE", "NONE"],
        redact=["(no rewrite)"] * 3,
        validate=["PASS"] * 3,
    )
    command = [sys.executable, "-c", WITHOUT_THE_EXTRA, "proofread", str(source)]
    command += ["--out", str(tmp_path / "out"), "--model", model, "--category", "general"]
    command += ["--ocr", "tesseract", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_with_an_upstream(upstream, tmp_path):
    source = tmp_path / "cv.txt"
    source.write_text(CV_TEXT, encoding="utf-8")
    upstream.answer = Answer(lines=TEXT_ANSWER, piece=4)
    done = proofread_without_the_extra(tmp_path, source, "--upstream", upstream.url)
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert written["complete"] is True
    # placed by its context, the name before it: sent as [NAME_1], restored
    (placed,) = [m for m in written["mistakes"] if m["located"]]
    assert (placed["error_text"], placed["strategy"]) == ("recieved", "context")
    sent = upstream.requests[-1].text()
    assert "[NAME_1]" in sent and ENGLISH_NAME not in sent and ENGLISH_EMAIL not in sent


@pytest.mark.slow  # Hunspell reads the page
def test_offline_with_hunspell(tmp_path):
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf")
    done = proofread_without_the_extra(tmp_path, source, "--language", "en")
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert written["proofreader"] == "hunspell:en_US"
    located = [m["error_text"] for m in written["mistakes"] if m["located"]]
    assert "quartely" in located
    assert (tmp_path / "out" / PROOFREAD_PDF).exists()
