"""`redacto.Redactor` on texts: one typed result, fail closed, the model opened once and
closed by the context manager, nothing written, and `redacto redact` a layer over it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from redactor_cases import TEXT, TEXT_REPLIES

import redacto
from cli_runs import all_files, digest, redact, timeless
from disk_watch import DiskWatch, watch_disk
from redacto import BadInputError, Redactor, RedactorClosedError, Status
from redacto.document import DEFAULT_DETECTORS, Detector, Source
from redacto.engines.scripted import ScriptedEngine
from redacto.report import ReviewReason
from scripted_models import trusting


def test_a_text_is_redacted_in_memory_into_one_typed_result(counted, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    watch_disk(tmp_path, monkeypatch)
    with Redactor("counted:letter") as redactor:
        DiskWatch.on = True
        try:
            result = redactor.redact_text(TEXT)
        finally:
            DiskWatch.on = False
    assert DiskWatch.seen == []
    assert [path.name for path in tmp_path.iterdir()] == ["tmp"]
    assert result.status is Status.PASS and result.passed
    assert result.text == "Patient [NAME_1]\r\nCall [PHONE_1] about the fracture.\r\n"
    assert result.image is None and result.pdf is None and result.boxes == ()
    assert {d.label for d in result.detections} == {"NAME", "PHONE"}
    assert Source.RULE in {d.source for d in result.detections}
    # Spans point into the text as given, with its \r\n endings, as report.json's do.
    for detection in result.detections:
        assert detection.span is not None and detection.value is not None
        assert TEXT[detection.span.start : detection.span.end] == detection.value
    assert result.review_reasons == () and result.unexplained == () and result.error is None
    assert result.report.input is not None and result.report.input.name == "text.txt"
    assert result.report.category.value == "Medical"


def test_the_default_detectors_are_the_cli_s_every_tier():
    assert frozenset(Detector) == DEFAULT_DETECTORS
    assert redacto.Redactor.__init__.__kwdefaults__["detectors"] is None
    from redacto.cli._options import DEFAULT_DETECTORS as CLI_DEFAULT

    assert Detector.parse_list(CLI_DEFAULT) == DEFAULT_DETECTORS


def test_the_model_is_opened_once_across_calls_and_closed_by_the_context_manager(counted):
    with Redactor("counted:letter", detectors="rules,model") as redactor:
        assert counted.opened == []  # opened by the first call that needs it
        results = [redactor.redact_text(TEXT) for _ in range(3)]
        assert len(counted.opened) == 1
        assert redactor.engine is counted.opened[0]
        assert counted.opened[0].closes == 0
    assert [result.status for result in results] == [Status.PASS] * 3
    assert counted.opened[0].closes == 1
    with pytest.raises(RedactorClosedError):
        redactor.redact_text(TEXT)
    redactor.close()  # twice is safe, and closes nothing again
    assert counted.opened[0].closes == 1


def test_an_engine_given_open_is_used_and_left_open_for_its_opener():
    class Engine(ScriptedEngine):
        closes = 0

        def close(self) -> None:
            self.closes += 1

    engine = Engine.from_mapping(dict(TEXT_REPLIES))
    assert isinstance(engine, Engine)
    with Redactor(engine, detectors=["rules", Detector.MODEL]) as redactor:
        result = redactor.redact_text(TEXT)
    assert result.status is Status.NEEDS_REVIEW  # an unknown model's PASS is never trusted
    assert ReviewReason.MODEL_NOT_MEASURED in result.review_reasons
    assert result.report.model.uri == "scripted:<memory>"
    assert engine.closes == 0


def test_a_model_that_cannot_open_is_an_error_result_not_an_exception(tmp_path):
    with Redactor(f"litertlm:{tmp_path / 'missing.litertlm'}", detectors="rules,model") as r:
        result = r.redact_text(TEXT)
    assert result.status is Status.ERROR and not result.passed
    assert result.error is not None and "cannot open the model" in result.error
    assert result.text is None and result.image is None and result.pdf is None
    assert [file.name for file in result.files()] == ["report.json"]


def test_a_model_that_stops_answering_ends_error_with_nothing_claimed():
    engine = trusting({"classify": ["CATEGORY: Medical"]})  # detect has no reply left
    with Redactor(engine, detectors="rules,model") as redactor:
        result = redactor.redact_text(TEXT)
    assert result.status is Status.ERROR
    assert result.error is not None and result.text is None and result.image is None


@pytest.mark.parametrize(
    ("call", "argument", "message"),
    [
        ("redact_text", "   \n", "empty"),
        ("redact_image", b"not a picture", "photo.png"),
        ("redact_pdf", b"%PDF-1.7 but nothing else", "document.pdf"),
        ("redact", "missing.png", "no such file"),
        ("redact", "notes.docx", "unsupported file type"),
        ("redact_image", "letter.txt", "not a photo"),
        ("redact_pdf", "letter.txt", "not a PDF"),
    ],
)
def test_bad_input_raises_a_typed_error_and_writes_nothing(
    counted, tmp_path, monkeypatch, call, argument, message
):
    monkeypatch.chdir(tmp_path)
    Path("letter.txt").write_text(TEXT, encoding="utf-8")
    Path("notes.docx").write_bytes(b"PK\x03\x04")
    before = all_files(tmp_path)
    with Redactor("counted:letter") as redactor, pytest.raises(BadInputError, match=message):
        getattr(redactor, call)(argument)
    assert all_files(tmp_path) == before
    assert counted.opened == []  # bad input is found before any model time


def test_a_wrong_type_is_a_type_error():
    with Redactor("counted:unused", detectors="rules,model") as redactor:
        with pytest.raises(TypeError, match="str"):
            redactor.redact_text(b"bytes")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="bytes or a path"):
            redactor.redact_image(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"detectors": "rules,eyes"}, "unknown detectors"),
        ({"category": "Astrology"}, "unknown category"),
        ({"language": "xx"}, "unknown language"),
    ],
)
def test_unknown_options_are_refused_at_once(options, message):
    with pytest.raises(ValueError, match=message):
        Redactor("counted:unused", **options)


def test_a_category_by_name_skips_classify(counted):
    with Redactor("counted:letter", category="field service", detectors="rules,model") as r:
        result = r.redact_text("Call 408-555-0199 about pump P-220.")
    assert result.report.category.value == "Field Service" and result.report.category_given
    assert "classify" not in [step.step for step in result.report.steps]


def test_the_input_file_is_only_read(counted, tmp_path):
    letter = tmp_path / "letter.txt"
    letter.write_bytes(TEXT.encode("utf-8"))
    before = all_files(tmp_path)
    with Redactor("counted:letter") as redactor:
        result = redactor.redact(letter)
    assert all_files(tmp_path) == before
    assert result.report.input is not None and result.report.input.sha256 == digest(letter)
    assert result.text == "Patient [NAME_1]\r\nCall [PHONE_1] about the fracture.\r\n"


def test_redacto_redact_writes_what_the_api_returns(counted, tmp_path):
    letter = tmp_path / "letter.txt"
    letter.write_bytes(TEXT.encode("utf-8"))
    out = tmp_path / "out"
    ran = redact(letter, "--model", "counted:letter", "--out", out)
    assert ran.exit_code == 0, ran.output
    with Redactor("counted:letter") as redactor:
        files = redactor.redact(letter).files()
    assert [file.name for file in files] == sorted(path.name for path in out.iterdir())
    for file in files:
        written = (out / file.name).read_bytes()
        if file.name == "report.json":
            assert timeless(json.loads(file.data)) == timeless(json.loads(written))
        else:
            assert file.data == written


def test_write_writes_the_cli_s_files_and_only_when_asked(counted, tmp_path):
    with Redactor("counted:letter") as redactor:
        result = redactor.redact_text(TEXT, name="letter.md")
    assert list(tmp_path.iterdir()) == []
    outcome = result.write(tmp_path / "out")
    assert [path.name for path in outcome.written] == ["redacted.txt", "report.json"]
    assert outcome.exit_code == 0
    assert (tmp_path / "out" / "redacted.txt").read_bytes() == result.text.encode()  # type: ignore[union-attr]


@pytest.mark.slow
def test_importing_redacto_loads_no_pipeline_until_the_api_is_used():
    script = (
        "import sys, redacto; before = 'redacto.pipeline' in sys.modules; "
        "redacto.Redactor; print(before, 'redacto.pipeline' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["False", "True"]
    with pytest.raises(AttributeError):
        redacto.NoSuchThing  # noqa: B018
