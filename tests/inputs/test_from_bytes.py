"""Inputs read from memory (`read_input_bytes`, each kind's `from_bytes`): the same checks,
the same document, report and files as the same bytes read from a file — and no file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cli_runs import timeless
from redacto.document import Box, Element
from redacto.engines.scripted import ScriptedEngine
from redacto.inputs import (
    BadInputError,
    ReadOptions,
    Redaction,
    read_input,
    read_input_bytes,
    redact,
    write,
)
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary

REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"], "validate": ["PASS"]}
RULES_AND_LOCATOR = PipelineOptions(model_redact=False)


@pytest.fixture(scope="module")
def prompts() -> PromptLibrary:
    return PromptLibrary.load()


def photo(tmp_path: Path) -> tuple[Path, ReadOptions]:
    """A blank photo and an `--elements` file naming its three words (no OCR needed)."""
    path = tmp_path / "photo.png"
    Image.new("RGB", (240, 40), (255, 255, 255)).save(path)
    boxes = [Box(x0=5 + 60 * i, y0=5, x1=55 + 60 * i, y1=25) for i in range(3)]
    words = [
        Element(index=i, text=text, box=box)
        for i, (text, box) in enumerate(zip(["Patient", "Jane", "Smith"], boxes, strict=True))
    ]
    listed = tmp_path / "words.json"
    entries = [{"text": e.text, "box": [e.box.x0, e.box.y0, e.box.x1, e.box.y1]} for e in words]
    listed.write_text(json.dumps(entries), encoding="utf-8")
    return path, ReadOptions(elements_path=listed)


def text(tmp_path: Path) -> tuple[Path, ReadOptions]:
    path = tmp_path / "note.txt"
    path.write_bytes(b"Patient Jane Smith\r\nCall 408-555-1234\r\n")
    return path, ReadOptions()


def redacted(source, prompts: PromptLibrary) -> Redaction:
    engine = ScriptedEngine.from_mapping(REPLIES)
    return redact(source, engine, prompts, options=RULES_AND_LOCATOR)


@pytest.mark.parametrize("make", [photo, text], ids=["photo", "text"])
def test_bytes_read_as_their_file_is_read_give_the_same_files(tmp_path, prompts, make):
    path, options = make(tmp_path)
    from_file = read_input(path, options)
    from_memory = read_input_bytes(path.read_bytes(), Path(path.name), options)
    assert type(from_memory) is type(from_file)
    assert from_memory.document == from_file.document
    assert from_memory.info == from_file.info
    in_memory = redacted(from_memory, prompts).files_as_written()
    outcome = write(redacted(from_file, prompts), tmp_path / "out")
    assert [file.name for file in in_memory] == [written.name for written in outcome.written]
    for file, written in zip(in_memory, outcome.written, strict=True):
        if file.name == "report.json":
            assert timeless(json.loads(file.data)) == timeless(json.loads(written.read_text()))
        else:
            assert file.data == written.read_bytes(), file.name


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("note.txt", b"\xff\xfe not UTF-8", "note.txt: not UTF-8 text"),
        ("note.txt", b"  \n", "note.txt: the file is empty"),
        ("scan.png", b"", "scan.png: the file is empty"),
        ("scan.png", b"GIF89a not a PNG", "scan.png is not an image"),
        ("scan.pdf", b"%PDF-1.4 broken", "scan.pdf: not a PDF"),
        ("scan.docx", b"PK", "unsupported file type"),
    ],
)
def test_bad_bytes_are_bad_input_named_by_their_file(name, data, problem):
    with pytest.raises(BadInputError, match=problem):
        read_input_bytes(data, Path(name))
