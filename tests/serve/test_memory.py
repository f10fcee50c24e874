"""Memory a job used goes back when it ends, and photos over the pixel limit are refused.

The RSS check runs the server in a fresh process (`python -m devtools.bench.serve_memory`,
the bench the figures in docs/serve.md come from), so nothing else this test session
allocated counts.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from PIL import Image, ImageDraw

from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import ROOT, TEXT_READING, SlowEngine, events, post

REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": ["NAME: Jane Doe\n"],
    "validate": ["PASS"],
}


@pytest.mark.slow
@pytest.mark.parametrize("route", ["api/jobs", "api/proofread"], ids=["redact", "proofread"])
def test_a_photo_over_the_pixel_limit_fails_with_a_clear_message(tmp_path, route):
    photo = tmp_path / "wide.png"
    Image.new("RGB", (1500, 1000), "white").save(photo)
    config = ServeConfig(ocr="tesseract", options=TEXT_READING, max_pixels=1_000_000)
    with ReviewServer(SlowEngine(REPLIES), PromptLibrary.load(), config).start() as server:
        status, body = post(server.url + route, photo.read_bytes(), {"X-File-Name": photo.name})
        assert status == 201, body
        name, failure = events(server.url, body["id"], until="failed")[-1]
        assert name == "failed"
        assert "1500x1000 pixels" in failure["message"]
        assert "up to 1 MP" in failure["message"]


@pytest.mark.slow
def test_a_discarded_photo_gives_its_memory_back(tmp_path):
    photo = tmp_path / "page.png"
    image = Image.new("RGB", (4000, 3000), "white")
    ImageDraw.Draw(image).text((200, 200), "Patient: Jane Doe", fill="black", font_size=120)
    image.save(photo, compress_level=1)
    bench = [sys.executable, "-m", "devtools.bench.serve_memory"]
    run = subprocess.run(
        [*bench, "--file", str(photo), "--uploads", "3", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    runs = json.loads(run.stdout.splitlines()[-1])
    start = runs[0]["start_mb"]
    grew = max(figures["peak_mb"] for figures in runs) - start
    kept = runs[-1]["after_mb"] - start
    assert grew > 100, runs  # the jobs really held the photo (36 MB of pixels, and more)
    # Without trimming the allocator's arenas a job kept 100+ MB of this resident.
    assert kept < 0.25 * grew, runs
