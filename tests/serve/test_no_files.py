"""No job of the review server creates a file: the upload, the run and the downloads stay
in memory — a redaction (`redacto.inputs`: `read_input_bytes`, `redact`,
`Redaction.files_as_written`) and a proofread (`read_input_bytes`, `proofread`, its
`Proofreading.files`) alike.

Watched two ways while a whole job runs through the real HTTP server — upload, the event
stream to the review, approval and every download; or upload, the stream to the
proofread's end and every download — on a scripted model: the temporary folder is an empty
one of the test's own (`TMPDIR` and Python's `tempfile`) and stays empty; and a Python
audit hook records every file opened for writing, folder made, file renamed or removed and
program started, from any thread — which must be none (but Hunspell, the offline
proofreader, which is a program: it reads the text on its stdin and answers on stdout).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cv_cases import DETECTOR_OPTIONS, ENGLISH
from cv_pages import scan_image, write_born_digital
from disk_watch import DiskWatch, watch_disk
from fake_upstream import Answer, FakeUpstream
from redacto.prompts import PromptLibrary
from redacto.proofread import UpstreamConfig
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import SAMPLE, SAMPLE_REPLIES, TEXT_READING, SlowEngine, events, post, upload

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


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream.start()
    server.answer = Answer(lines=ENGLISH.answer, piece=4)
    yield server
    server.stop()


def text_note(folder: Path) -> Path:
    path = folder / "Jane Doe.txt"
    path.write_bytes(b"Visit note\r\nPatient: Jane Doe, phone 408-555-0134.\r\n")
    return path


def pdf_note(folder: Path) -> Path:
    from devtools.fixtures.pdf_builder import Doc, Page, text

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


@pytest.mark.slow
@pytest.mark.parametrize(("make", "replies", "outputs"), CASES)
def test_a_redaction_job_creates_no_file(tmp_path, disk_watch, make, replies, outputs):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    source = make(inputs)
    config = ServeConfig(ocr="ppocr", options=TEXT_READING)  # PP-OCR reads in memory
    server = ReviewServer(SlowEngine(replies), PromptLibrary.load(), config).start()
    downloads: dict[str, bytes] = {}
    try:
        DiskWatch.on = True
        job = upload(server.url, source)
        seen = events(server.url, job, until="review")
        assert seen[-1][0] == "review", seen[-1]
        status, approved = post(f"{server.url}api/jobs/{job}/approve")
        assert status == 200, approved
        downloads = download(server.url, job, approved["files"])
        DiskWatch.on = False
        assert list(disk_watch.rglob("*")) == []
    finally:
        DiskWatch.on = False
        server.close()
    assert DiskWatch.seen == []
    assert list(downloads) == outputs
    report = json.loads(downloads["report.json"])
    assert report["input"]["name"] == source.name and report["review"]["approved"] is True
    assert list(disk_watch.rglob("*")) == []


def cv_pdf(folder: Path) -> Path:
    return write_born_digital(ENGLISH.lines, folder / "Jonathan Whitcombe CV.pdf")


def cv_photo(folder: Path) -> Path:
    path = folder / "Jonathan Whitcombe CV.png"
    scan_image(ENGLISH.lines).save(path)
    return path


def not_hunspell(seen: list[str]) -> list[str]:
    """What the hook saw but Hunspell's start and the pipes to it (a descriptor opened for
    writing: a file opened by path is seen by its path): the one program a proofread runs."""
    return [
        event
        for event in seen
        if not event.startswith("subprocess.Popen: hunspell")
        and not re.fullmatch(r"open for writing: \d+", event)
    ]


@pytest.mark.slow  # PP-OCR reads the page (a born-digital one too, for text in images)
@pytest.mark.parametrize(
    ("make", "proofreader"),
    [(cv_pdf, "llm"), (cv_photo, "hunspell:en_US")],
    ids=["pdf-upstream", "photo-hunspell"],
)
def test_a_proofread_job_creates_no_file(tmp_path, disk_watch, upstream, make, proofreader):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    source = make(inputs)
    config = ServeConfig(
        ocr="ppocr",  # PP-OCR reads in memory
        options=DETECTOR_OPTIONS,
        proofread_upstream=UpstreamConfig(upstream.url) if proofreader == "llm" else None,
    )
    server = ReviewServer(ENGLISH.engine(), PromptLibrary.load(), config).start()
    downloads: dict[str, bytes] = {}
    try:
        DiskWatch.on = True
        status, created = post(
            f"{server.url}api/proofread", source.read_bytes(), {"X-File-Name": source.name}
        )
        assert status == 201, created
        name, end = events(server.url, created["id"], until="proofread")[-1]
        assert (name, end["complete"], end["proofreader"]) == ("proofread", True, proofreader)
        downloads = download(server.url, created["id"], end["files"])
        DiskWatch.on = False
        assert list(disk_watch.rglob("*")) == []
    finally:
        DiskWatch.on = False
        server.close()
    assert not_hunspell(DiskWatch.seen) == []
    assert (proofreader == "llm") == (DiskWatch.seen == [])
    assert list(downloads) == ["proofread.pdf", "mistakes.json"]
    assert downloads["proofread.pdf"].startswith(b"%PDF-")
    written = json.loads(downloads["mistakes.json"])
    assert written["input"]["name"] == source.name and written["complete"] is True
    assert [m["error_text"] for m in written["mistakes"] if m["located"]]
    assert list(disk_watch.rglob("*")) == []


def download(url: str, job: str, files: list[dict]) -> dict[str, bytes]:
    """Every file a job offers, as the page downloads it."""
    downloads = {}
    for file in files:
        with urllib.request.urlopen(f"{url}api/jobs/{job}/files/{file['name']}") as response:
            downloads[file["name"]] = response.read()
    return downloads
