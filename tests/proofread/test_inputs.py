"""A photo (a PDF of the photo, the same highlights), a text file (placed in the text, no
PDF), an input proofread in memory (`proofread`: nothing written), the command line
itself, and the model tier on a real (tiny) LiteRT-LM model."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from cli_runs import digest, script
from cv_cases import DETECTOR_OPTIONS, ENGLISH, line
from cv_pages import ENGLISH_EMAIL, ENGLISH_NAME, ENGLISH_PHONE, scan_image, write_born_digital
from fake_upstream import Answer
from redacto.cli import app
from redacto.cli.proofread import API_KEY_VARIABLE as CLI_KEY_VARIABLE
from redacto.document import Category
from redacto.inputs import ReadOptions, read_input
from redacto.pipeline import PipelineOptions
from redacto.proofread import (
    API_KEY_VARIABLE,
    MISTAKES_JSON,
    PROOFREAD_PDF,
    PlaceStrategy,
    ProofreadOptions,
    UpstreamConfig,
    proofread,
    proofread_file,
    write_proofreading,
)

CV_TEXT = (
    f"{ENGLISH_NAME}\nEmail: {ENGLISH_EMAIL}\nPhone: {ENGLISH_PHONE}\n\n"
    f"Data analyst who recieved a master degree.\nIn 2021 {ENGLISH_NAME} recieved an award.\n"
)
TEXT_ANSWER = [
    line("recieved", "received", "In 2021 [NAME_1]"),
    line("Statistcs", "Statistics", "Python, SQL and"),
]


@pytest.mark.slow  # OCR of the photo
def test_a_photo_becomes_a_pdf_of_the_photo_with_the_highlights(upstream, tmp_path):
    photo = tmp_path / "cv.png"
    scan_image(ENGLISH.lines).save(photo)
    upstream.answer = Answer(lines=ENGLISH.answer)
    options = ProofreadOptions(
        upstream=UpstreamConfig(upstream.url), ocr="tesseract", pipeline=DETECTOR_OPTIONS
    )
    outcome = proofread_file(photo, tmp_path / "out", options, ENGLISH.engine())
    assert outcome.exit_code == 0
    info = subprocess.run(
        ["pdfinfo", str(tmp_path / "out" / PROOFREAD_PDF)], capture_output=True, text=True
    ).stdout
    # one page, A4's long side for the photo's long side (1700 x 1389 pixels)
    assert re.search(r"Pages:\s+1\n", info) and re.search(r"Page size:\s+842 x 687\.96", info)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "72",
            str(tmp_path / "out" / PROOFREAD_PDF),
            str(tmp_path / "p"),
        ],
        check=True,
    )
    pixels = np.asarray(Image.open(tmp_path / "p-1.png").convert("RGB")).astype(int)
    highlighted = (pixels[..., 0] > 200) & (pixels[..., 1] > 150) & (pixels[..., 2] < 120)
    located = [m for m in outcome.result.mistakes if m.located]
    assert [m.error_text for m in located] == ["recieved", "quartely", "Germna"]
    for mistake in located:
        for x0, y0, x1, y1 in mistake.boxes:
            assert highlighted[round(y0) : round(y1), round(x0) : round(x1)].mean() > 0.3


def test_a_text_file_is_placed_in_its_text_without_a_pdf(upstream, tmp_path):
    source = tmp_path / "cv.txt"
    source.write_text(CV_TEXT, encoding="utf-8")
    upstream.answer = Answer(lines=TEXT_ANSWER)
    engine = ENGLISH.engine()
    options = ProofreadOptions(
        upstream=UpstreamConfig(upstream.url),
        pipeline=PipelineOptions(category=Category.GENERAL, model_redact=False),
    )
    outcome = proofread_file(source, tmp_path / "out", options, engine)
    first, second = outcome.result.mistakes
    assert (first.located, first.strategy, first.page, first.boxes) == (
        True,
        PlaceStrategy.CONTEXT,
        1,
        [],
    )
    assert not second.located
    assert not (tmp_path / "out" / PROOFREAD_PDF).exists()
    assert ENGLISH_NAME not in upstream.requests[-1].text()


@pytest.mark.slow  # the text-layer page is OCR'd too
def test_an_input_read_is_proofread_in_memory_then_written_byte_for_byte(tmp_path, monkeypatch):
    source = read_input(
        write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf"), ReadOptions(ocr="tesseract")
    )
    options = ProofreadOptions(upstream=None, pipeline=DETECTOR_OPTIONS)
    before = sorted(tmp_path.rglob("*"))
    with monkeypatch.context() as patch:
        for name, module in (("mkstemp", tempfile), ("replace", os)):
            patch.setattr(module, name, _refuse)
        proofreading = proofread(source, options, ENGLISH.engine())
    assert sorted(tmp_path.rglob("*")) == before
    assert [file.name for file in proofreading.files] == [PROOFREAD_PDF, MISTAKES_JSON]
    assert proofreading.result.complete and proofreading.result.proofreader == "hunspell:en_US"
    assert proofreading.files[0].data.startswith(b"%PDF-")

    out = tmp_path / "out"
    out.mkdir()
    (out / PROOFREAD_PDF).write_bytes(b"an earlier run's")
    outcome = write_proofreading(proofreading, out, source.path)
    assert outcome.written == (out / PROOFREAD_PDF, out / MISTAKES_JSON)
    for file in proofreading.files:
        assert (out / file.name).read_bytes() == file.data
    assert json.loads(proofreading.files[1].data) == outcome.result.model_dump(mode="json")


def _refuse(*args, **kwargs):
    raise AssertionError("proofread touched the file system")


def test_the_command_prints_each_mistake_and_says_what_was_sent(upstream, tmp_path, monkeypatch):
    monkeypatch.setenv(API_KEY_VARIABLE, "sk-from-the-environment")
    source = tmp_path / "cv.txt"
    source.write_text(CV_TEXT, encoding="utf-8")
    before = digest(source)
    upstream.answer = Answer(lines=TEXT_ANSWER)
    model = script(
        tmp_path,
        detect=[f"NAME: {ENGLISH_NAME}", "NONE"],
        redact=["(no rewrite)"],
        validate=["PASS"],
    )
    result = CliRunner().invoke(
        app,
        [
            "proofread",
            str(source),
            "--out",
            str(tmp_path / "out"),
            "--upstream",
            upstream.url,
            "--model",
            model,
            "--category",
            "general",
            "--language",
            "en",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "p1: 'recieved' → 'received'" in result.output
    assert "not located: 'Statistcs' → 'Statistics'" in result.output
    assert "value(s) replaced by placeholders" in result.output and ", 0 sent;" in result.output
    assert str(tmp_path / "out" / MISTAKES_JSON) in result.output
    assert upstream.requests[-1].headers["Authorization"] == "Bearer sk-from-the-environment"
    assert "sk-from-the-environment" not in result.output
    assert digest(source) == before
    assert CLI_KEY_VARIABLE == API_KEY_VARIABLE


def test_the_command_refuses_a_missing_input_and_writes_nothing(tmp_path):
    result = CliRunner().invoke(
        app, ["proofread", str(tmp_path / "none.pdf"), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 2 and "no such file" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # a real LiteRT-LM model (the tiny one) runs the model tier
def test_the_model_tier_on_a_real_litertlm_model(tiny_model_path: Path, upstream, tmp_path):
    from redacto.engines import open_engine

    source = tmp_path / "cv.txt"
    source.write_text(CV_TEXT, encoding="utf-8")
    upstream.answer = Answer(lines=TEXT_ANSWER)
    options = ProofreadOptions(
        upstream=UpstreamConfig(upstream.url),
        pipeline=PipelineOptions(category=Category.GENERAL, max_rounds=1),
    )
    with open_engine(f"litertlm:{tiny_model_path}") as engine:
        outcome = proofread_file(source, tmp_path / "out", options, engine)
    assert outcome.exit_code == 0
    sent = upstream.requests[-1].text()
    # the random tiny model names nothing useful; the rules tier still hides these
    assert ENGLISH_EMAIL not in sent and ENGLISH_PHONE not in sent
    assert outcome.result.values_replaced >= 2
    written = json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert written["complete"] is True
