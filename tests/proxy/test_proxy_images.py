"""With `--model`, an image is redacted in memory: nothing of it is written to disk.

Watched two ways while a request with an image runs through a real proxy with real OCR
(PP-OCR): the temporary folder is an empty one of the test's own (`TMPDIR` and Python's
`tempfile`), which must stay empty, and a Python audit hook records every file opened for
writing, every folder made, every file renamed or removed and every program started, from
any thread — which must be none.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_runs import render_short_page
from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import start_proxy
from disk_watch import DiskWatch, watch_disk
from redacto.ocr import known_ocr_engines
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.images import IN_MEMORY_OCR, ImageRedactor, InMemoryOcrError
from scripted_models import trusting


@pytest.fixture
def disk_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty temporary folder for everything, and the audit hook, for one test."""
    yield watch_disk(tmp_path, monkeypatch)
    DiskWatch.on = False


def page_url(tmp_path: Path) -> str:
    page = render_short_page(tmp_path / "page.png")
    return "data:image/png;base64," + base64.b64encode(page.read_bytes()).decode()


@pytest.mark.slow
def test_an_image_is_redacted_without_touching_the_disk(
    upstream: EchoUpstream, tmp_path: Path, disk_watch: Path
) -> None:
    url = page_url(tmp_path)
    engine = trusting({"classify": ["CATEGORY: General"], "detect": [""], "validate": ["PASS"]})
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url), engine))
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}
        ],
    }
    try:
        with proxy.client(timeout=120) as client:
            DiskWatch.on = True
            answer = client.post("/v1/chat/completions", json=body)
            DiskWatch.on = False
    finally:
        DiskWatch.on = False
        proxy.stop()
    assert answer.status_code == 200, answer.text
    forwarded = upstream.seen[0]["messages"][0]["content"][0]["image_url"]["url"]
    assert forwarded.startswith("data:image/png;base64,") and forwarded != url
    assert DiskWatch.seen == []
    assert list(disk_watch.iterdir()) == []


def test_every_shipped_ocr_engine_reads_in_memory_and_any_other_is_refused() -> None:
    assert set(known_ocr_engines()) <= IN_MEMORY_OCR  # each one's own test shows it
    engine = trusting({})
    with pytest.raises(InMemoryOcrError, match="--ocr ppocr or tesseract"):
        ImageRedactor(engine, prompts=None, ocr="works-on-files")  # type: ignore[arg-type]
