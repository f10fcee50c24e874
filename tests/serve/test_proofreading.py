"""Proofreading on the review server, over plain HTTP: a PDF or photo uploaded to
`api/proofread`, each mistake an event of the job's stream the moment its line is parsed
(before the fake upstream sends the next line), boxes on the page image where
`mistakes.json` puts them, the outputs to download, the offline Hunspell path, an upstream
that breaks off, and a log that holds nothing of the document."""

from __future__ import annotations

import json
import logging
import threading
import urllib.request
from pathlib import Path

import pytest

from cv_cases import DETECTOR_OPTIONS, ENGLISH, ActedOn
from cv_pages import scan_image, write_born_digital
from fake_upstream import Answer, FakeUpstream
from redacto.prompts import PromptLibrary
from redacto.proofread import UpstreamConfig
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import events, post

PDF_DPI = 200
"""The pipeline's DPI for PDF pages: a page image's pixels per 72 points."""


@pytest.fixture
def upstream():
    server = FakeUpstream.start()
    yield server
    server.stop()


def serve(upstream: FakeUpstream | None) -> ReviewServer:
    config = ServeConfig(
        ocr="tesseract",
        options=DETECTOR_OPTIONS,
        proofread_upstream=UpstreamConfig(upstream.url) if upstream is not None else None,
    )
    return ReviewServer(ENGLISH.engine(), PromptLibrary.load(), config).start()


def upload(url: str, path: Path, name: str | None = None) -> tuple[int, dict]:
    return post(url + "api/proofread", path.read_bytes(), {"X-File-Name": name or path.name})


class Listener:
    """Follows a job's event stream on its own thread, as the page's EventSource does."""

    def __init__(self, url: str, job: str) -> None:
        self.seen: list[tuple[str, dict]] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._follow, args=(url, job), daemon=True)
        self._thread.start()

    def _follow(self, url: str, job: str) -> None:
        name = ""
        with urllib.request.urlopen(f"{url}api/jobs/{job}/events", timeout=120) as stream:
            for raw in stream:  # each line as it arrives
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    with self._changed:
                        self.seen.append((name, json.loads(line.removeprefix("data: "))))
                        self._changed.notify_all()
                    if name == "proofread":
                        return

    def mistakes(self) -> list[dict]:
        return [data for name, data in self.seen if name == "mistake"]

    def wait_for_mistakes(self, count: int, timeout: float = 20) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.mistakes()) >= count, timeout)

    def join(self) -> list[tuple[str, dict]]:
        self._thread.join(timeout=120)
        return self.seen


def download(url: str, job: str, name: str) -> bytes:
    with urllib.request.urlopen(f"{url}api/jobs/{job}/files/{name}", timeout=30) as response:
        return response.read()


@pytest.mark.slow
def test_each_mistake_is_an_event_before_the_next_line_and_boxed_where_mistakes_json_says(
    tmp_path, upstream, caplog
):
    caplog.set_level(logging.DEBUG)
    source = write_born_digital(ENGLISH.lines, tmp_path / "Jonathan Whitcombe CV.pdf")
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4)
    with serve(upstream) as server:
        status, body = upload(server.url, source)
        assert status == 201, body
        listener = Listener(server.url, body["id"])
        # After each answer line the upstream waits until the page's stream carries its
        # mistake (a dropped line carries none).
        after_line = ActedOn(ENGLISH).after_line
        upstream.gate = lambda line: listener.wait_for_mistakes(after_line[line])
        seen = listener.join()
        names = [name for name, _ in seen]
        assert names[0] == "queued" and seen[0][1]["kind"] == "proofread"
        assert names.index("page") < names.index("step") < names.index("mistake")
        assert names[-1] == "proofread"
        assert upstream.gate_results == [True] * len(ENGLISH.answer)

        mistakes = listener.mistakes()
        assert [(m["n"], m["error_text"], m["located"]) for m in mistakes] == [
            (1, "recieved", True),
            (2, "quartely", True),
            (3, "Germna", True),
            (4, "Statistcs", False),
        ]
        end = seen[-1][1]
        assert end["complete"] is True and end["values_sent"] == 0
        assert (end["mistakes"], end["located"], end["dropped_touching_placeholder"]) == (4, 3, 1)
        assert [f["name"] for f in end["files"]] == ["proofread.pdf", "mistakes.json"]

        job = body["id"]
        written = json.loads(download(server.url, job, "mistakes.json"))
        assert download(server.url, job, "proofread.pdf").startswith(b"%PDF-")
        pixels_per_point = PDF_DPI / 72
        for event, saved in zip(mistakes, written["mistakes"], strict=True):
            assert event["error_text"] == saved["error_text"]
            if not saved["located"]:
                assert event["page"] is None and event["boxes"] == [] == saved["boxes"]
                continue
            assert event["page"] == saved["page"] - 1
            for box, points in zip(event["boxes"], saved["boxes"], strict=True):
                assert box == pytest.approx([p * pixels_per_point for p in points], abs=0.1)
        # "recieved" is boxed on the text layer's word of the line with the name, not the other
        page = next(data for name, data in seen if name == "page")
        twice = [w for w in page["words"] if w["t"] == "recieved"]
        word = max(twice, key=lambda w: w["box"][1])
        assert len(twice) == 2 and mistakes[0]["boxes"] == [pytest.approx(word["box"], abs=0.2)]
        summary = json.load(urllib.request.urlopen(server.url + "api/jobs", timeout=30))
        assert [(j["kind"], j["state"]) for j in summary["jobs"]] == [("proofread", "proofread")]
    sent = upstream.requests[-1].text()
    assert "[NAME_1]" in sent and "recieved" in sent
    for value in (*ENGLISH.values, source.stem):
        assert value not in sent and value not in caplog.text
    for text in ("recieved", "quartely", "received", "Spelling"):
        assert text not in caplog.text


@pytest.mark.slow  # OCR reads the photo
def test_a_photo_is_proofread_with_its_boxes_in_the_photos_pixels(tmp_path, upstream):
    photo = tmp_path / "cv.png"
    scan_image(ENGLISH.lines).save(photo)
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4)
    with serve(upstream) as server:
        status, body = upload(server.url, photo)
        assert status == 201, body
        seen = events(server.url, body["id"], until="proofread")
        page = next(data for name, data in seen if name == "page")
        assert (page["pages"][0]["width"], page["pages"][0]["height"]) == photo_size(photo)
        located = [d for name, d in seen if name == "mistake" and d["located"]]
        assert [m["error_text"] for m in located] == ["recieved", "quartely", "Germna"]
        for mistake in located:
            (box,) = mistake["boxes"]
            near = [w for w in page["words"] if overlap(w["box"], box) > 0.5]
            assert near, mistake["error_text"]
        assert seen[-1][1]["complete"] is True


def photo_size(path: Path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def overlap(word: list[float], box: list[float]) -> float:
    """The share of `box` that `word`'s box covers."""
    width = min(word[2], box[2]) - max(word[0], box[0])
    height = min(word[3], box[3]) - max(word[1], box[1])
    if width <= 0 or height <= 0:
        return 0.0
    return width * height / ((box[2] - box[0]) * (box[3] - box[1]))


@pytest.mark.slow  # Hunspell checks the page
def test_without_an_upstream_hunspell_proofreads_offline(tmp_path):
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf")
    with serve(None) as server:
        _, body = upload(server.url, source)
        seen = events(server.url, body["id"], until="proofread")
    stages = [data for name, data in seen if name == "stage" and data["proofreading"]]
    assert [stage["line"] for stage in stages] == ["Checking the spelling with Hunspell…"]
    end = seen[-1][1]
    assert end["proofreader"] == "hunspell:en_US" and end["complete"] is True
    found = [data["error_text"] for name, data in seen if name == "mistake" and data["located"]]
    assert "quartely" in found and "recieved" in found


@pytest.mark.slow
def test_an_upstream_that_breaks_off_keeps_what_was_placed_marked_incomplete(tmp_path, upstream):
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf")
    first_line = len(ENGLISH.answer[0]) + 1
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4, break_after=first_line + 10)
    with serve(upstream) as server:
        _, body = upload(server.url, source)
        seen = events(server.url, body["id"], until="proofread")
        summary = json.load(urllib.request.urlopen(server.url + "api/jobs", timeout=30))
        end = seen[-1][1]
        assert end["complete"] is False and "broke off" in end["error"]
        assert [d["error_text"] for name, d in seen if name == "mistake"] == ["recieved"]
        assert [f["name"] for f in end["files"]] == ["proofread.pdf", "mistakes.json"]
        written = json.loads(download(server.url, body["id"], "mistakes.json"))
        assert written["complete"] is False and len(written["mistakes"]) == 1
        assert summary["jobs"][0]["state"] == "failed"


def test_a_text_file_is_refused_before_its_body_is_read(tmp_path, upstream):
    note = tmp_path / "cv.txt"
    note.write_text("Data analyst who recieved a master degree.\n", encoding="utf-8")
    with serve(upstream) as server:
        status, body = upload(server.url, note)
        assert status == 415 and "PDF or a photo" in body["error"]
    assert upstream.requests == []


def test_the_proofread_route_needs_the_token_and_the_pages_origin(tmp_path, upstream):
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf")
    body = source.read_bytes()
    with serve(upstream) as server:
        wrong_token = server.url.replace(server.token, "x" * len(server.token))
        status, _ = post(wrong_token + "api/proofread", body, {"X-File-Name": "cv.pdf"})
        assert status == 404
        elsewhere = {"X-File-Name": "cv.pdf", "Origin": "http://evil.example"}
        status, _ = post(server.url + "api/proofread", body, elsewhere)
        assert status == 403
        listing = json.load(urllib.request.urlopen(server.url + "api/jobs", timeout=30))
        assert listing["jobs"] == []
    assert upstream.requests == []
