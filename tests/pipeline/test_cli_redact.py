"""`redacto redact`: exit codes, what is written (and not), and the input left untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_runs import digest, redact, script

# Every word the redacted note shows is a dictionary word, so a PASS stands (the residual
# check, docs/lexicon.md: `MRN` itself is no dictionary word).
NOTE = "Mrs. Chen (chart 4471829) called 408-555-1234 about inquire@blucurrent. mail.\n"
REDACTED = "[NAME_1] (chart [MRN_1]) called [PHONE_1] about [EMAIL_1].\n"
DETECT = "NAME: Mrs. Chen\nMRN: 4471829\nPHONE: 408-555-1234\nEMAIL: inquire@blucurrent.mail"


@pytest.fixture
def note(tmp_path: Path) -> Path:
    path = tmp_path / "note.txt"
    path.write_text(NOTE, encoding="utf-8")
    return path


def test_pass_writes_redacted_text_and_report_and_exits_0(tmp_path, note):
    before = digest(note)
    model = script(
        tmp_path,
        classify=["DOCUMENT_TYPE: Note\nCATEGORY: Medical"],
        detect=[DETECT],
        redact=[REDACTED],
        validate=["PASS"],
    )
    out = tmp_path / "out"
    result = redact(note, "--model", model, "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["redacted.txt", "report.json"]
    assert (out / "redacted.txt").read_text(encoding="utf-8") == REDACTED
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "PASS" and report["category"] == "Medical"
    assert report["rounds"] == 1 and report["model"]["uri"] == model
    assert {step["step"] for step in report["steps"]} == {
        "classify",
        "detect",
        "redact",
        "validate",
    }
    for key in ("detections", "boxes", "count_shown", "parse_errors", "ocr", "document_type"):
        assert key in report
    assert digest(note) == before
    # The four the model names, and the NER tier's "Chen" (a value of its own; redact
    # places it inside "Mrs. Chen", so the text is the same).
    assert "Step 2/4: Detecting Medical identifiers… 5 found" in result.output
    assert "Mrs. Chen" not in result.stderr


def test_needs_review_writes_flagged_outputs_and_exits_10(tmp_path, note):
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=[DETECT],
        redact=[REDACTED],
        validate=["FAIL\nsomething is off"],
    )
    out = tmp_path / "out"
    result = redact(note, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 10, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "NEEDS_REVIEW"
    assert report["review_reasons"] == ["validator failed without naming anything usable"]
    assert (out / "redacted.txt").exists()


def test_engine_error_writes_only_the_report_and_exits_1(tmp_path, note):
    model = script(tmp_path, classify=["CATEGORY: Medical"], detect=[DETECT])  # no redact reply
    out = tmp_path / "out"
    out.mkdir()
    (out / "redacted.txt").write_text("from an earlier run", encoding="utf-8")
    result = redact(note, "--model", model, "--out", out)
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "ERROR" and "no reply left" in report["error"]


def test_a_model_file_that_does_not_exist_is_an_engine_error(tmp_path, note):
    out = tmp_path / "out"
    result = redact(note, "--model", tmp_path / "missing.litertlm", "--out", out)
    assert result.exit_code == 1
    assert "no model file" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "ERROR" and "no model file" in report["error"]


def passing_run(tmp_path: Path, note: Path, out: Path) -> None:
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=[DETECT],
        redact=[REDACTED],
        validate=["PASS"],
    )
    assert redact(note, "--model", model, "--out", out, "--no-rules").exit_code == 0


def cannot_open(tmp_path: Path) -> list[str | Path]:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    return ["--model", f"scripted:{broken}"]


@pytest.mark.parametrize(
    "failure",
    [
        lambda tmp_path: ["--model", "no-such-model"],
        lambda tmp_path: ["--model", tmp_path / "missing.litertlm"],
        cannot_open,
    ],
    ids=["unknown model name", "missing model file", "model cannot be opened"],
)
def test_an_early_engine_failure_leaves_no_earlier_pass_outputs_behind(tmp_path, note, failure):
    out = tmp_path / "out"
    passing_run(tmp_path, note, out)
    result = redact(note, *failure(tmp_path), "--out", out)
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "ERROR"
    assert report["input"] == {"name": note.name, "sha256": digest(note)}


def test_every_report_names_its_input_file_and_sha256(tmp_path, note):
    out = tmp_path / "out"
    passing_run(tmp_path, note, out)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["input"] == {"name": "note.txt", "sha256": digest(note)}


def test_an_unwritable_output_folder_is_bad_input_before_any_model_call(tmp_path, note):
    # /proc takes no new files, even for root (permission bits would not stop root).
    model = script(tmp_path, classify=[])  # a model call would run the script dry: exit 1
    result = redact(note, "--model", model, "--out", "/proc/redacto-out")
    assert result.exit_code == 2, result.output
    assert "cannot write there" in result.stderr
    under_a_file = redact(note, "--model", model, "--out", note / "out")
    assert under_a_file.exit_code == 2 and "is not a folder" in under_a_file.stderr


@pytest.mark.parametrize("link", ["hard", "symbolic"])
@pytest.mark.parametrize("name", ["redacted.txt", "report.json"])
def test_an_output_that_is_a_link_to_the_input_is_refused_and_the_input_kept(
    tmp_path, note, link, name
):
    out = tmp_path / "out"
    out.mkdir()
    if link == "hard":
        (out / name).hardlink_to(note)
    else:
        (out / name).symlink_to(note)
    before = digest(note)
    result = redact(note, "--model", script(tmp_path, classify=[]), "--out", out)
    assert result.exit_code == 2, result.output
    assert "is the input itself" in result.stderr
    assert digest(note) == before and note.read_text(encoding="utf-8") == NOTE


@pytest.mark.parametrize(
    "text",
    [
        NOTE.replace("\n", "\r\n") + "Second line.\r\n",
        NOTE.replace("\n", "\r") + "Second line.\r",
        NOTE.replace("\n", "\r\n") + "Second\rline.\nEnd",
    ],
    ids=["crlf", "cr", "mixed"],
)
def test_text_mode_keeps_the_files_line_endings_and_spans_point_into_them(tmp_path, text):
    note = tmp_path / "note.txt"
    note.write_bytes(text.encode("utf-8"))
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=[DETECT],
        redact=[REDACTED + "Second line.\n"],
        validate=["PASS"],
    )
    out = tmp_path / "out"
    result = redact(note, "--model", model, "--out", out)
    assert result.exit_code in (0, 10), result.output
    written = (out / "redacted.txt").read_bytes().decode("utf-8")
    placeholders = {
        "Mrs. Chen": "[NAME_1]",
        "4471829": "[MRN_1]",
        "408-555-1234": "[PHONE_1]",
        "inquire@blucurrent. mail": "[EMAIL_1]",
    }
    expected = text
    for value, placeholder in placeholders.items():
        expected = expected.replace(value, placeholder)
    assert written == expected
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    spans = [d for d in report["detections"] if d.get("span")]
    assert spans, "the rules should have placed at least one value by span"
    for detection in spans:
        span = detection["span"]
        assert text[span["start"] : span["end"]] == detection["value"]


def bad_inputs(tmp_path: Path) -> dict[str, tuple[list[str | Path], str]]:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9".encode("latin-1"))
    docx = tmp_path / "letter.docx"  # PDFs are inputs now (tests/pdf/)
    docx.write_bytes(b"PK\x03\x04")
    note = tmp_path / "n.txt"
    note.write_text(NOTE, encoding="utf-8")
    elements = tmp_path / "elements.json"
    elements.write_text("[]", encoding="utf-8")
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    own_out = tmp_path / "own"
    own_out.mkdir()
    clash = own_out / "report.json"
    clash.write_text(NOTE, encoding="utf-8")
    clash_md = own_out / "redacted.txt"
    clash_md.write_text(NOTE, encoding="utf-8")
    return {
        "missing": ([tmp_path / "nope.txt"], "no such file"),
        "unsupported": ([docx], "unsupported file type .docx"),
        "empty text": ([empty], "the file is empty"),
        "not utf-8": ([latin], "not UTF-8"),
        "elements for text": ([note, "--elements", elements], "the input is text"),
        "out is a file": ([note, "--out", a_file], "is not a folder"),
        "would overwrite input": ([clash_md, "--out", own_out], "overwrite the input"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "missing",
        "unsupported",
        "empty text",
        "not utf-8",
        "elements for text",
        "out is a file",
        "would overwrite input",
    ],
)
def test_bad_input_exits_2_and_writes_nothing(tmp_path, case):
    args, message = bad_inputs(tmp_path)[case]
    model = script(tmp_path, classify=["CATEGORY: General"])
    before = {p: digest(p) for p in tmp_path.rglob("*") if p.is_file()}
    if "--out" not in args:
        args = [*args, "--out", tmp_path / "out"]
    result = redact(*args, "--model", model)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    after = {p: digest(p) for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before  # nothing created, nothing changed


def test_a_given_category_is_used_without_asking_the_model(tmp_path, note):
    model = script(tmp_path, detect=[DETECT], redact=[REDACTED], validate=["PASS"])
    out = tmp_path / "out"
    result = redact(note, "--model", model, "--out", out, "--category", "legal")
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["category"] == "Legal" and report["category_given"] is True
    assert "classify" not in {step["step"] for step in report["steps"]}
    assert "Step 2/4: Detecting Legal identifiers… 5 found" in result.output
