"""`ReviewSession`: reviewer edits over a finished run, previewed and approved through the
CLI's writer; every edit recorded, added detections with `source: reviewer`."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from redacto.document import Box, Element, Source, Status
from redacto.engines.scripted import ScriptedEngine
from redacto.inputs import ImageInput, InputFile, read_input, redact
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.serve.review import ReviewError, ReviewSession

NO_RULES = PipelineOptions(rules=False, model_redact=False)


@pytest.fixture(scope="module")
def prompts():
    return PromptLibrary.load()


def run(prompts, source: InputFile, **replies):
    """The run's report as the review server hands it over: as the pipeline left it (a
    text's spans in its `\\n` text), not as written."""
    engine = ScriptedEngine.from_mapping(replies)
    return redact(source, engine, prompts, options=NO_RULES).report


def photo(tmp_path):
    path = tmp_path / "photo.png"
    Image.new("RGB", (240, 40), (255, 255, 255)).save(path)
    words = ["Patient", "Jane", "Smith", "fracture"]
    elements = [
        Element(index=i, text=w, box=Box(x0=5 + 60 * i, y0=5, x1=55 + 60 * i, y1=25))
        for i, w in enumerate(words)
    ]
    return ImageInput.with_words(path, elements)


def test_toggling_words_rewrites_boxes_and_records_each_edit(tmp_path, prompts):
    source = photo(tmp_path)
    report = run(
        prompts,
        source,
        classify=["CATEGORY: Medical"],
        detect=["1:NAME\n2:NAME"],
        validate=["PASS"],
    )
    session = ReviewSession(source, report, prompts)
    session.toggle_element(2, "NAME")  # remove Smith
    session.toggle_element(3, "name")  # add "fracture" (labels are case-blind)
    session.toggle_element(3, "NAME")  # and take it back
    with pytest.raises(ReviewError):
        session.toggle_element(9, "NAME")
    with pytest.raises(ReviewError):
        session.toggle_element(0, "SPELL")
    outcome = session.approve(tmp_path / "out")
    written = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert [
        (e["action"], e["detection"]["index"], e["detection"]["source"])
        for e in written["review"]["edits"]
    ] == [("remove", 2, "detect"), ("add", 3, "reviewer"), ("remove", 3, "reviewer")]
    assert written["status"] == report.status.value
    assert [d["index"] for d in written["detections"]] == [1]
    assert written["count_shown"] == len(written["boxes"]) == 1
    image = Image.open(tmp_path / "out" / "redacted.png").convert("RGB")
    assert image.getpixel((90, 15)) == (0, 0, 0)  # Jane
    assert image.getpixel((150, 15)) != (0, 0, 0)  # Smith, unboxed by the reviewer
    assert (tmp_path / "out" / "redacted.txt").read_text(encoding="utf-8") == (
        "Patient [NAME_1] Smith fracture"
    )
    assert outcome.report.review is not None and outcome.report.review.approved


def test_text_spans_stay_in_the_users_line_endings(tmp_path, prompts):
    path = tmp_path / "note.txt"
    path.write_bytes(b"Ann met Bob.\r\nBob paid Ann.\r\nCall 555.\r\n")
    source = read_input(path)
    report = run(
        prompts,
        source,
        classify=["CATEGORY: General"],
        detect=["NAME: Ann\nNAME: Bob Zedekiah"],
        validate=["PASS"],
    )
    session = ReviewSession(source, report, prompts)
    assert [d.value for d in session.preview().redaction.not_located] == ["Bob Zedekiah"]
    session.dismiss(0)
    text = source.document.text
    start = text.index("Bob")
    session.add_span(start - 1, start + 4, "NAME")  # " Bob.": the space is trimmed
    session.add_span(text.index("555"), text.index("555") + 3, "PHONE")  # two CRLFs in
    session.remove_span(text.rindex("Ann"), text.rindex("Ann") + 1)  # every Ann goes
    with pytest.raises(ReviewError):
        session.remove_span(0, 1)
    session.approve(tmp_path / "out")
    out = (tmp_path / "out" / "redacted.txt").read_bytes()
    assert out == b"Ann met [NAME_1]\r\n[NAME_1] paid Ann.\r\nCall [PHONE_1].\r\n"
    written = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    added = [e["detection"] for e in written["review"]["edits"] if e["action"] == "add"]
    original = path.read_bytes().decode()
    assert [d["value"] for d in added] == ["Bob.", "555"]
    for detection in [*added, *written["detections"]]:
        span = detection["span"]
        if span is not None:  # a span points into the file, CRLFs and all
            assert original[span["start"] : span["end"]] == detection["value"]
    assert [d["span"] for d in written["detections"] if d["value"] == "555"] == [
        {"start": original.index("555"), "end": original.index("555") + 3}
    ]
    assert added[0]["source"] == Source.REVIEWER.value
    assert written["not_located"] == []


def test_a_run_that_ended_in_error_cannot_be_reviewed(tmp_path, prompts):
    source = photo(tmp_path)
    report = run(prompts, source, classify=["CATEGORY: Medical"])
    assert report.status is Status.ERROR
    with pytest.raises(ReviewError):
        ReviewSession(source, report, prompts)
