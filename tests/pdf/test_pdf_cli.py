"""`redacto redact FILE.pdf`: the one command, bad PDFs, stale outputs, fail-closed writing."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cli_runs import all_files, digest, redact, script
from devtools.fixtures.pdf_builder import Doc, Page, text, write_objects
from redacto import inputs
from redacto.prompts import PromptLibrary
from scripted_models import trusting


def two_pages(path: Path) -> Path:
    return Doc(
        [
            Page(text(54, 340, "Patient: Jane Smith") + text(54, 310, "Diagnosis: fracture")),
            Page(text(54, 340, "Seen by Dr. Marlowe")),
        ]
    ).write(path)


@pytest.mark.slow
def test_redact_a_pdf_writes_redacted_pdf_txt_and_report(tmp_path):
    source = two_pages(tmp_path / "note.pdf")
    before = digest(source)
    # indices: 0 Patient: 1 Jane 2 Smith 3 Diagnosis: 4 fracture | 5 Seen 6 by 7 Dr. 8 Marlowe
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=["1:NAME\n2:NAME\n8:NAME"],
        validate=["PASS"],
    )
    out = tmp_path / "out"
    result = redact(source, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 0, result.output
    assert digest(source) == before
    assert sorted(p.name for p in out.iterdir()) == ["redacted.pdf", "redacted.txt", "report.json"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["input"] == {"name": "note.pdf", "sha256": before}
    assert [len(page["boxes"]) for page in report["pdf"]["pages"]] == [2, 1]
    assert report["pdf"]["verified"] is True
    assert (out / "redacted.txt").read_text(encoding="utf-8") == (
        "Patient: [NAME_1] [NAME_2] Diagnosis: fracture Seen by Dr. [NAME_3]"
    )
    pdf = pdfium.PdfDocument(str(out / "redacted.pdf"))
    assert len(pdf) == 2
    # the invisible text layer holds the kept words only
    assert [page.get_textpage().get_text_range() for page in pdf] == [
        "Patient:\r\nDiagnosis: fracture",
        "Seen by Dr.",
    ]
    assert report["pdf"]["text_layer"] is True
    assert [page["text_words"] for page in report["pdf"]["pages"]] == [3, 3]
    pdf.close()


@pytest.mark.slow
def test_no_text_layer_writes_the_page_images_alone(tmp_path):
    source = two_pages(tmp_path / "note.pdf")
    model = script(
        tmp_path, classify=["CATEGORY: Medical"], detect=["1:NAME\n2:NAME"], validate=["PASS"]
    )
    out = tmp_path / "out"
    result = redact(source, "--model", model, "--out", out, "--no-rules", "--no-text-layer")
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["pdf"]["verified"] is True and report["pdf"]["text_layer"] is False
    assert b"/Font" not in (out / "redacted.pdf").read_bytes()
    pdf = pdfium.PdfDocument(str(out / "redacted.pdf"))
    assert all(page.get_textpage().count_chars() == 0 for page in pdf)
    pdf.close()


def encrypted(path: Path) -> Path:
    """A PDF whose standard security handler wants a user password (not the empty one)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        b"<< /Filter /Standard /V 1 /R 2 /O <"
        + b"11" * 32
        + b"> /U <"
        + b"22" * 32
        + b"> /P -4 >>",
    ]
    return write_objects(path, objects, "/Root 1 0 R /Encrypt 4 0 R /ID [<00ff> <00ff>]")


def bad_pdf(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind.replace(' ', '-')}.pdf"
    if kind == "corrupt":
        path.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 64)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "zero pages":
        write_objects(
            path,
            [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"],
            "/Root 1 0 R",
        )
    elif kind == "a page tree without its page":
        write_objects(
            path,
            [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 1 >>"],
            "/Root 1 0 R",
        )
    elif kind == "encrypted":
        encrypted(path)
    else:  # a photo named .pdf
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    return path


@pytest.mark.parametrize(
    "kind",
    [
        "corrupt",
        "empty",
        "zero pages",
        "a page tree without its page",
        "encrypted",
        "png named pdf",
    ],
)
def test_bad_pdfs_exit_2_and_write_nothing(tmp_path, kind):
    path = bad_pdf(tmp_path, kind)
    model = script(tmp_path, classify=["CATEGORY: General"])
    before = all_files(tmp_path)
    result = redact(path, "--model", model, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "bad input" in result.stderr
    message = {
        "encrypted": "encrypted with a password",
        "zero pages": "no pages",
        "a page tree without its page": "page 1 cannot be read",
    }.get(kind, "not a PDF")
    assert message in result.stderr
    assert all_files(tmp_path) == before


def test_elements_file_with_a_pdf_is_bad_input(tmp_path):
    source = two_pages(tmp_path / "note.pdf")
    elements = tmp_path / "elements.json"
    elements.write_text("[]", encoding="utf-8")
    result = redact(source, "--elements", elements, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "is a PDF" in result.stderr


def test_an_output_named_like_the_input_pdf_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    source = two_pages(out / "redacted.pdf")
    before = digest(source)
    result = redact(source, "--model", script(tmp_path), "--out", out)
    assert result.exit_code == 2 and "overwrite the input" in result.stderr
    assert digest(source) == before


@pytest.mark.slow
def test_a_pdf_that_fails_its_check_after_writing_ends_error_and_claims_no_pdf(tmp_path):
    """The input changes between reading and writing (another program rewrote it): the
    boxes no longer fit its pages, so the run ends ERROR and no redacted.pdf is left, not
    even an earlier run's."""
    source = two_pages(tmp_path / "note.pdf")
    source_input = inputs.read_input(source)
    Doc([Page(text(54, 340, "Patient: Jane Smith"))]).write(source)  # one page now
    out = tmp_path / "out"
    out.mkdir()
    for stale in ("redacted.pdf", "redacted.txt"):
        (out / stale).write_text("from an earlier run", encoding="utf-8")
    engine = trusting(
        {"classify": ["CATEGORY: Medical"], "detect": ["1:NAME\n2:NAME"], "validate": ["PASS"]}
    )
    outcome = inputs.write(inputs.redact(source_input, engine, PromptLibrary.load()), out)
    assert outcome.exit_code == 1
    assert outcome.report.status.value == "ERROR"
    assert "failed its check after writing" in (outcome.report.error or "")
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    assert outcome.report.pdf is not None and not outcome.report.pdf.verified
