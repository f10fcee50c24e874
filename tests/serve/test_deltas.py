"""Review edits replayed as deltas: one full review in a job's event log, then what changed.

The splice rule is a table; the server test makes 30 edits to a 200 KB text (with
characters outside the BMP, whose UTF-16 length differs from Python's) and checks that the
log a re-attaching page replays stays small and rebuilds the very view the last edit
answered.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig
from redacto.serve.deltas import apply_delta, review_delta
from serve_cases import TEXT_READING, SlowEngine, events, post, upload


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"edits": 0, "text": "abc"}, {"edits": 1, "text": "abc"}),
        ({"edits": 0, "text": "Jane Doe"}, {"edits": 1, "text": "[NAME_1] Doe"}),
        ({"edits": 0, "text": "😀 Jane 😀 Doe"}, {"edits": 2, "text": "😀 Jane 😀 [NAME_1]"}),
        ({"edits": 0, "text": "a😀b"}, {"edits": 1, "text": "a😁b"}),
        ({"edits": 0, "text": ""}, {"edits": 1, "text": "😀"}),
        ({"edits": 0, "marks": [1, 2, 3, 4]}, {"edits": 1, "marks": [1, 2, 9, 3, 4]}),
        ({"edits": 0, "marks": [1, 2, 3, 4]}, {"edits": 1, "marks": [1, 4]}),
        ({"edits": 0, "marks": [{"a": 1}], "x": None}, {"edits": 1, "marks": [], "x": "y"}),
        ({"edits": 3, "marks": [1, 1, 1]}, {"edits": 4, "marks": [1, 1]}),
    ],
)
def test_a_delta_rebuilds_the_new_view(old, new):
    delta = review_delta(old, new)
    assert delta["base"] == old["edits"]
    assert apply_delta(old, delta) == new
    assert json.loads(json.dumps(delta)) == delta


def test_a_delta_splices_strings_in_utf16_code_units_as_javascript_does():
    delta = review_delta({"edits": 0, "t": "😀 Jane"}, {"edits": 1, "t": "😀 [NAME_1]"})
    assert delta["splice"]["t"] == [3, 4, "[NAME_1]"]  # the emoji is two units in JS


@pytest.mark.slow
def test_thirty_edits_of_a_large_text_replay_as_one_review_and_small_deltas(tmp_path):
    # Plain words, no digits: the rules find nothing, so each edit's preview stays quick.
    lines = [
        f"Visit 😀: the patient in bed {_letters(n)} was seen on the ward." for n in range(4000)
    ]
    text = "Patient Jane Doe.\n" + "\n".join(lines) + "\n"
    assert len(text.encode()) > 200_000
    replies = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["NAME: Jane Doe\n"] * 400,
        "validate": ["PASS"] * 400,
    }
    note = tmp_path / "big.txt"
    note.write_text(text, encoding="utf-8")
    config = ServeConfig(ocr="tesseract", options=TEXT_READING)
    with ReviewServer(SlowEngine(replies), PromptLibrary.load(), config).start() as server:
        job = upload(server.url, note)
        assert events(server.url, job, until="review")[-1][0] == "review"
        answer: dict = {}
        for n in range(30):
            bed = text.index(f" bed {_letters(100 * n)} ") + 5
            edit = {"action": "add", "start": bed, "end": bed + 3, "label": "ID"}
            status, answer = post(f"{server.url}api/jobs/{job}/edit", json.dumps(edit).encode())
            assert status == 200, answer
        replay = read_events(server.url, job, count=len(events_so_far(server, job)))
    names = [name for name, _ in replay]
    assert names.count("review") == 1 and names.count("delta") == 30
    review = next(json.loads(data) for name, data in replay if name == "review")
    deltas = [json.loads(data) for name, data in replay if name == "delta"]
    rebuilt = review
    for delta in deltas:
        rebuilt = apply_delta(rebuilt, delta)
    assert rebuilt == answer
    assert answer["edits"] == 30
    review_bytes = sum(len(data) for name, data in replay if name == "review")
    delta_bytes = sum(len(data) for name, data in replay if name == "delta")
    assert review_bytes > 200_000
    # Each edit adds one bed: a mark, a placeholder in the text, a few counts.
    assert delta_bytes < 30 * 2_000, delta_bytes


def _letters(n: int) -> str:
    """n as three lower-case letters (aaa, aab, …): a word no other line holds."""
    return "".join(chr(ord("a") + n // 26**k % 26) for k in (2, 1, 0))


def events_so_far(server, job: str) -> list:
    return server.board.get(job).events


def read_events(url: str, job: str, count: int) -> list[tuple[str, str]]:
    """The first `count` events of the job's stream, as (name, raw data)."""
    seen: list[tuple[str, str]] = []
    name = ""
    with urllib.request.urlopen(f"{url}api/jobs/{job}/events", timeout=60) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                seen.append((name, line.removeprefix("data: ")))
                if len(seen) == count:
                    break
    return seen
