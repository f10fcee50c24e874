"""What a runner (the batch worker) takes from `redacto.Redactor`: a whole `PipelineOptions`
(`with_options`), the model opened before any input (`open`), and an input's bytes of any
kind redacted by its name (`redact_bytes`), as `redact` redacts the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redactor_cases import TEXT

from cli_runs import render_short_page, timeless
from redacto import BadInputError, Redactor, RedactorClosedError, Status
from redacto.document import Detector, Source
from redacto.engines import EngineError
from redacto.models import chosen_identity
from redacto.pipeline import PipelineOptions


def test_bytes_named_as_a_file_give_what_the_file_gives(counted, tmp_path):
    letter = tmp_path / "letter.txt"
    letter.write_bytes(TEXT.encode("utf-8"))
    with Redactor("counted:letter", detectors="rules,model") as redactor:
        from_file = redactor.redact(letter)
        from_bytes = redactor.redact_bytes(letter.read_bytes(), Path("inbox") / "letter.txt")
    assert from_file.status is Status.PASS and from_bytes.status is Status.PASS
    assert (
        from_bytes.text
        == from_file.text
        == "Patient [NAME_1]\r\nCall [PHONE_1] about the fracture.\r\n"
    )
    assert from_bytes.report.input == from_file.report.input
    assert from_bytes.source == Path("inbox") / "letter.txt"
    files = {file.name: file.data for file in from_file.files()}
    for file in from_bytes.files():
        if file.name == "report.json":
            assert timeless(json.loads(file.data)) == timeless(json.loads(files[file.name]))
        else:
            assert file.data == files[file.name], file.name
    assert {file.name for file in from_bytes.files()} == set(files)


def test_bytes_whose_name_has_no_input_kind_are_bad_input(counted):
    with (
        Redactor("counted:letter", detectors="rules,model") as redactor,
        pytest.raises(BadInputError, match=r"unsupported file type \.docx"),
    ):
        redactor.redact_bytes(TEXT.encode("utf-8"), "letter.docx")
    assert counted.opened == []  # refused before any model time


def test_with_options_runs_every_knob_as_given(counted):
    tiers = frozenset({Detector.RULES, Detector.MODEL})
    sources = {}
    for rules in (True, False):
        options = PipelineOptions(rules=rules, detectors=tiers)
        with Redactor.with_options("counted:letter", options, text_layer=False) as redactor:
            assert redactor.options is options and redactor.text_layer is False
            result = redactor.redact_text(TEXT)
        sources[rules] = {detection.source for detection in result.detections}
    assert Source.RULE in sources[True]
    assert Source.RULE not in sources[False]  # `rules=False`, which the constructor lacks


def test_open_opens_the_model_before_any_input_once(counted):
    with Redactor("counted:letter", detectors="rules,model") as redactor:
        redactor.open()
        assert len(counted.opened) == 1 and redactor.engine is counted.opened[0]
        assert redactor.redact_text(TEXT).status is Status.PASS
        assert len(counted.opened) == 1
    with pytest.raises(RedactorClosedError):
        redactor.open()


def test_open_raises_where_a_call_would_give_an_error_result(tmp_path):
    missing = f"litertlm:{tmp_path / 'missing.litertlm'}"
    with Redactor(missing, detectors="rules,model") as redactor:
        with pytest.raises(EngineError):
            redactor.open()
        assert redactor.redact_text(TEXT).status is Status.ERROR


def test_a_run_failing_before_the_model_names_the_open_model_in_full(
    counted, tmp_path, monkeypatch
):
    import redacto.ocr
    from redacto.ocr import OcrError

    def broken(name: str):
        raise OcrError("the PP-OCR models could not be loaded")

    monkeypatch.setattr(redacto.ocr, "open_ocr", broken)
    page = render_short_page(tmp_path / "page.png")
    with Redactor("counted:letter", detectors="rules,model") as redactor:
        redactor.open()
        result = redactor.redact_image(Path(page))
    assert result.status is Status.ERROR
    assert counted.opened[0].identity != chosen_identity("counted:letter")
    assert result.report.model == counted.opened[0].identity
