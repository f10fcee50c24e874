"""A redaction job of the review server creates no file: the upload, the run and the
downloads stay in memory (`redacto.inputs`: `read_input_bytes`, `redact`,
`Redaction.files_as_written`).

Watched two ways while a whole job runs through the real HTTP server — upload, the event
stream to the review, an edit, approval and every download — on a scripted model: the
temporary folder is an empty one of the test's own (`TMPDIR` and Python's `tempfile`), in
which only the server's own run folder (made when it started) may be, and stays empty; and
a Python audit hook records every file opened for writing, folder made, file renamed or
removed and program started, from any thread — which must be none.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_cases import SAMPLE, SAMPLE_REPLIES, TEXT_READING, SlowEngine, events, post, upload

from disk_watch import DiskWatch, watch_disk
from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig

TEXT_REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": ["NAME: Jane Doe\n"],
    "validate": ["PASS"],
}
PDF_REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"]}
PDF_REPLIES["validate"] = ["PASS"]


@pytest.fixture
def disk_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    yield watch_disk(tmp_path, monkeypatch)
    DiskWatch.on = False


def text_note(folder: Path) -> Path:
    path = folder / "Jane Doe.txt"
    path.write_bytes(b"Visit note\r\nPatient: Jane Doe, phone 408-555-0134.\r\n")
    return path


def pdf_note(folder: Path) -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pdf"))
    from pdf_builder import Doc, Page, text

    return Doc([Page(text(54, 340, "Patient: Jane Smith"))]).write(folder / "Jane Smith.pdf")


def photo(folder: Path) -> Path:
    return SAMPLE


CASES = [
    pytest.param(text_note, TEXT_REPLIES, ["redacted.txt", "report.json"], id="text"),
    pytest.param(
        pdf_note,
        PDF_REPLIES,
        ["redacted.pdf", "redacted.txt", "report.json"],
        id="pdf",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        photo,
        SAMPLE_REPLIES,
        ["redacted.png", "redacted.txt", "report.json"],
        id="photo",
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize(("make", "replies", "outputs"), CASES)
def test_a_redaction_job_creates_no_file(tmp_path, disk_watch, make, replies, outputs):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    source = make(inputs)
    config = ServeConfig(ocr="ppocr", options=TEXT_READING)  # PP-OCR reads in memory
    server = ReviewServer(SlowEngine(replies), PromptLibrary.load(), config).start()
    before = sorted(disk_watch.rglob("*"))  # the server's private parent and run folder
    assert [path.name.partition("-")[0] for path in before] == ["redacto", "run"]
    downloads: dict[str, bytes] = {}
    try:
        DiskWatch.on = True
        job = upload(server.url, source)
        seen = events(server.url, job, until="review")
        assert seen[-1][0] == "review", seen[-1]
        status, approved = post(f"{server.url}api/jobs/{job}/approve")
        assert status == 200, approved
        for file in approved["files"]:
            url = f"{server.url}api/jobs/{job}/files/{file['name']}"
            with urllib.request.urlopen(url) as response:
                downloads[file["name"]] = response.read()
        DiskWatch.on = False
        assert sorted(disk_watch.rglob("*")) == before
    finally:
        DiskWatch.on = False
        server.close()
    assert DiskWatch.seen == []
    assert list(downloads) == outputs
    report = json.loads(downloads["report.json"])
    assert report["input"]["name"] == source.name and report["review"]["approved"] is True
    assert list(disk_watch.rglob("*")) == [disk_watch / f"redacto-serve-{os.getuid()}"]
