"""`redacto.inputs`: one shape for every input — read it, redact it in memory, write it."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image

import redacto.inputs.redaction as redaction_module
from redacto.document import Box, Element, Mode, Status
from redacto.inputs import (
    BadInputError,
    ImageInput,
    PdfInput,
    ReadOptions,
    TextInput,
    input_kind,
    read_input,
    redact,
    write,
)
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

NO_RULES = PipelineOptions(rules=False, model_redact=False)
TEXT = "Patient Jane Smith\r\nSeen today.\rCall 408-555-1234\r\nEnd"
RULES_ONLY = PipelineOptions(model_redact=False)


@pytest.fixture(scope="module")
def prompts():
    return PromptLibrary.load()


@pytest.fixture
def no_writes(monkeypatch):
    """Any temporary file or rename during the test is an error: `redact` writes nothing."""

    def refuse(*args, **kwargs):
        raise AssertionError("redact touched the file system")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr(os, "replace", refuse)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.png", ImageInput),
        ("a.JPG", ImageInput),
        ("a.jpeg", ImageInput),
        ("a.webp", ImageInput),
        ("a.pdf", PdfInput),
        ("a.Pdf", PdfInput),
        ("a.txt", TextInput),
        ("a.md", TextInput),
    ],
)
def test_the_kind_of_an_input_is_its_suffix(name, kind):
    assert input_kind(Path(name)) is kind


@pytest.mark.parametrize("name", ["a.docx", "a", "a.tiff"])
def test_other_suffixes_are_bad_input(name):
    with pytest.raises(BadInputError, match="unsupported file type"):
        input_kind(Path(name))


def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "note.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    return path


def test_text_is_redacted_in_the_n_text_and_written_in_its_own_endings(
    tmp_path, prompts, monkeypatch
):
    source = read_input(text_file(tmp_path))
    assert isinstance(source, TextInput) and "\r" not in source.document.text
    engine = trusting(
        {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"], "validate": ["PASS"]}
    )
    before = sorted(tmp_path.rglob("*"))
    with monkeypatch.context() as patch:
        patch.setattr(tempfile, "mkstemp", _refuse)
        patch.setattr(os, "replace", _refuse)
        redaction = redact(source, engine, prompts, options=RULES_ONLY)
    assert sorted(tmp_path.rglob("*")) == before
    assert redaction.redacted_text is not None and "\r" not in redaction.redacted_text
    (span,) = [d.span for d in redaction.report.detections if d.span is not None]
    assert source.document.text[span.start : span.end] == "408-555-1234"

    outcome = write(redaction, tmp_path / "out")
    assert [p.name for p in outcome.written] == ["redacted.txt", "report.json"]
    written = (tmp_path / "out" / "redacted.txt").read_bytes().decode("utf-8")
    assert written == TEXT.replace("Jane Smith", "[NAME_1]").replace("408-555-1234", "[PHONE_1]")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    (detection,) = [d for d in report["detections"] if d["span"]]
    assert TEXT[detection["span"]["start"] : detection["span"]["end"]] == "408-555-1234"
    assert report["input"]["name"] == "note.txt"


def _refuse(*args, **kwargs):
    raise AssertionError("redact touched the file system")


def photo(tmp_path: Path) -> tuple[Path, list[Element]]:
    path = tmp_path / "photo.png"
    Image.new("RGB", (240, 40), (255, 255, 255)).save(path)
    words = ["Patient", "Jane", "Smith"]
    elements = [
        Element(index=i, text=w, box=Box(x0=5 + 60 * i, y0=5, x1=55 + 60 * i, y1=25))
        for i, w in enumerate(words)
    ]
    return path, elements


def test_a_photo_is_burned_in_memory_and_written_once(tmp_path, prompts, no_writes):
    path, elements = photo(tmp_path)
    source = ImageInput.with_words(path, elements)
    engine = trusting(
        {"classify": ["CATEGORY: Medical"], "detect": ["1:NAME\n2:NAME"], "validate": ["PASS"]}
    )
    redaction = redact(source, engine, prompts, options=NO_RULES)
    assert redaction.report.status is Status.PASS
    assert [file.name for file in redaction.files] == ["redacted.png"]
    assert redaction.files[0].data.startswith(b"\x89PNG")


def test_an_error_run_makes_no_file_and_write_removes_stale_ones(tmp_path, prompts):
    path, elements = photo(tmp_path)
    source = ImageInput.with_words(path, elements)
    out = tmp_path / "out"
    out.mkdir()
    for stale in ("redacted.png", "redacted.pdf", "redacted.txt"):
        (out / stale).write_bytes(b"from an earlier run")
    redaction = redact(source, trusting({}), prompts, options=NO_RULES)
    assert redaction.report.status is Status.ERROR and redaction.files == ()
    outcome = write(redaction, out)
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    assert outcome.exit_code == 1


def test_write_refuses_to_replace_the_input(tmp_path, prompts):
    """Checked before the run too; here the input became one of the outputs meanwhile."""
    out = tmp_path / "out"
    out.mkdir()
    note = out / "redacted.txt"
    note.write_text("Jane Smith called.\n", encoding="utf-8")
    source = read_input(note)
    engine = trusting(
        {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"], "validate": ["PASS"]}
    )
    outcome = write(redact(source, engine, prompts, options=NO_RULES), out)
    assert outcome.report.status is Status.ERROR
    assert "cannot write the outputs" in (outcome.report.error or "")
    assert note.read_text(encoding="utf-8") == "Jane Smith called.\n"


def test_words_outside_the_photo_are_bad_input(tmp_path):
    path, elements = photo(tmp_path)
    outside = Element(index=3, text="x", box=Box(x0=0, y0=0, x1=500, y1=10))
    with pytest.raises(BadInputError, match="outside the image"):
        ImageInput.with_words(path, [*elements, outside])


def test_elements_file_replaces_ocr(tmp_path):
    path, elements = photo(tmp_path)
    listed = tmp_path / "words.json"
    listed.write_text(
        json.dumps(
            [{"text": e.text, "box": [e.box.x0, e.box.y0, e.box.x1, e.box.y1]} for e in elements]
        ),
        encoding="utf-8",
    )
    source = read_input(path, ReadOptions(elements_path=listed))
    assert source.mode is Mode.IMAGE and source.ocr_name is None
    assert [e.text for e in source.document.elements] == ["Patient", "Jane", "Smith"]


def test_a_run_stopped_before_its_report_leaves_no_earlier_report_beside_its_files(
    tmp_path, prompts, monkeypatch
):
    """An earlier run's PASS report must not vouch for files a later run wrote and was
    stopped (Ctrl-C, SIGTERM) before reporting on."""
    source = read_input(text_file(tmp_path))
    out = tmp_path / "out"
    first = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["NAME: Jane Smith"],
        "validate": ["PASS"],
    }
    write(redact(source, trusting(first), prompts, options=RULES_ONLY), out)
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["status"] == "PASS"

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(redaction_module, "_write_report", stopped)
    later = {**first, "detect": ["NAME: Smith"]}
    with pytest.raises(KeyboardInterrupt):
        write(redact(source, trusting(later), prompts, options=RULES_ONLY), out)
    assert sorted(p.name for p in out.iterdir()) == ["redacted.txt"]
    assert "Jane" in (out / "redacted.txt").read_text(encoding="utf-8")  # the later run's file
