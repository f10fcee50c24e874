"""Failing closed: a detector that fails sends nothing; an upstream that cannot be reached,
answers garbage or breaks off gives a clear error and keeps what was placed, marked
incomplete; the input is never modified. Born-digital pages, Tesseract for the OCR pass."""

from __future__ import annotations

import json
import socket

import pytest

from cv_cases import DETECTOR_OPTIONS, ENGLISH
from cv_pages import write_born_digital
from fake_upstream import Answer
from redacto.engines.scripted import ScriptedEngine
from redacto.inputs import BadInputError
from redacto.proofread import MISTAKES_JSON, PROOFREAD_PDF, ProofreadOptions, UpstreamConfig
from redacto.proofread import proofread_file as proofread

pytestmark = pytest.mark.slow  # the text-layer page is OCR'd too, for text inside images


@pytest.fixture(scope="module")
def cv(tmp_path_factory):
    return write_born_digital(ENGLISH.lines, tmp_path_factory.mktemp("cv") / "cv.pdf")


def options(url: str) -> ProofreadOptions:
    return ProofreadOptions(
        upstream=UpstreamConfig(url, timeout_s=10), ocr="tesseract", pipeline=DETECTOR_OPTIONS
    )


def written(out_dir):
    return json.loads((out_dir / MISTAKES_JSON).read_text(encoding="utf-8"))


def test_a_stream_broken_off_keeps_what_was_placed_marked_incomplete(cv, upstream, tmp_path):
    upstream.answer = Answer(lines=ENGLISH.answer, break_after=len(ENGLISH.answer[0]) + 10)
    outcome = proofread(cv, tmp_path, options(upstream.url), ENGLISH.engine())
    assert outcome.exit_code == 1
    result = written(tmp_path)
    assert result["complete"] is False and "broke off mid-stream" in result["error"]
    assert [m["error_text"] for m in result["mistakes"]] == ["recieved"]
    assert result["mistakes"][0]["located"] is True
    assert (tmp_path / PROOFREAD_PDF).is_file()


def test_garbage_is_an_error_not_an_empty_proofread(cv, upstream, tmp_path):
    upstream.answer = Answer(lines=["Sure! Here are the mistakes I found:", "- recieved"])
    outcome = proofread(cv, tmp_path, options(upstream.url), ENGLISH.engine())
    result = written(tmp_path)
    assert outcome.exit_code == 1 and result["complete"] is False
    assert "no mistake object (2 unreadable lines)" in result["error"]


def test_a_few_unreadable_lines_are_counted_beside_the_mistakes(cv, upstream, tmp_path):
    upstream.answer = Answer(lines=["```json", ENGLISH.answer[0], "oops", "```"])
    outcome = proofread(cv, tmp_path, options(upstream.url), ENGLISH.engine())
    assert outcome.exit_code == 0
    assert written(tmp_path)["unreadable_lines"] == 1


def test_an_upstream_that_cannot_be_reached(cv, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    detector = ENGLISH.engine()
    outcome = proofread(cv, tmp_path, options(f"http://127.0.0.1:{port}"), detector)
    result = written(tmp_path)
    assert outcome.exit_code == 1 and result["mistakes"] == []
    assert result["error"].startswith("nothing was sent: cannot reach the upstream")
    assert detector.requests == []  # found out before any model time


def test_a_bad_upstream_url_is_bad_input_and_writes_nothing(cv, tmp_path):
    with pytest.raises(BadInputError, match="http:// or https://"):
        proofread(cv, tmp_path / "out", options("localhost:8000"), ENGLISH.engine())
    assert not (tmp_path / "out").exists()


def test_ocr_that_cannot_start_leaves_no_stale_pdf(cv, upstream, tmp_path):
    (tmp_path / PROOFREAD_PDF).write_bytes(b"an earlier run's")
    unknown = ProofreadOptions(upstream=UpstreamConfig(upstream.url), ocr="no-such-ocr")
    outcome = proofread(cv, tmp_path, unknown, ENGLISH.engine())
    assert outcome.exit_code == 1
    assert written(tmp_path)["error"].startswith("cannot read the input")
    assert not (tmp_path / PROOFREAD_PDF).exists()


def test_a_detector_that_fails_sends_nothing(cv, upstream, tmp_path):
    upstream.answer = Answer(lines=ENGLISH.answer)
    broken = ScriptedEngine({})  # no reply at all: the detect call raises
    outcome = proofread(cv, tmp_path, options(upstream.url), broken)
    # only the question which model the server has, asked before any model time
    assert [(r.path, r.body) for r in upstream.requests] == [("/v1/models", {})]
    result = written(tmp_path)
    assert outcome.exit_code == 1 and result["error"].startswith("nothing was sent")
