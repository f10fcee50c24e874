"""A suite built outside eval/suites: the i2b2 notes' converter and `--suites-dir`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from devtools.generated.third_party_suite import build, note_document
from redacto.cli import app
from redacto.corpus import load_suite, write_suite

NOTE = """<?xml version='1.0' encoding='utf8'?>
<deIdi2b2>
<TEXT><![CDATA[Record date: 2069-04-07
Mr. Villegas is seen today at Lakeside Hospital.
Xzavian G. Tavares, M.D.]]></TEXT>
<TAGS>
<DATE TYPE="DATE" end="23" id="P0" start="13" text="2069-04-07" />
<NAME TYPE="PATIENT" end="36" id="P1" start="28" text="Villegas" />
<LOCATION TYPE="HOSPITAL" end="71" id="P2" start="54" text="Lakeside Hospital" />
<NAME TYPE="DOCTOR" end="91" id="P3" start="73" text="Xzavian G. Tavares" />
</TAGS>
</deIdi2b2>
"""


def test_a_note_becomes_a_medical_test_document_with_i2b2_s_spans_as_our_labels():
    document = note_document("110-01", NOTE.encode())
    assert document.id == "i2b2-philter-test-110-01" and document.split == "test"
    assert document.category.value == "Medical"
    assert [(document.span_text(s), s.label) for s in document.pii] == [
        ("2069-04-07", "DATE"),
        ("Villegas", "NAME"),
        ("Xzavian G. Tavares", "NAME"),
    ]
    assert [(document.span_text(s), s.kind) for s in document.preserve] == [
        ("Lakeside Hospital", "institution")
    ]


def test_a_tag_off_its_text_or_of_an_unknown_type_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="does not match"):
        note_document("x", NOTE.replace('start="28"', 'start="27"').encode())
    with pytest.raises(ValueError, match="no label"):
        note_document("x", NOTE.replace('TYPE="DOCTOR"', 'TYPE="PROFESSION"').encode())
    other = tmp_path / "other.tar.gz"
    other.write_bytes(b"not the sdist")
    with pytest.raises(ValueError, match="sha256"):
        build(other)


@pytest.mark.slow
def test_the_validator_bench_reads_a_suite_from_another_folder(tmp_path: Path):
    suites = tmp_path / "suites"
    write_suite("elsewhere", list(load_suite("smoke")[:1]), suites)
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"validate": []}))
    args = ["eval", "validator", "--model", f"scripted:{script}", "--out", str(tmp_path / "o")]
    args += ["--suite", "elsewhere", "--suites-dir", str(suites), "--split", "test"]
    result = CliRunner().invoke(app, [*args, "--tiers-only"])
    assert result.exit_code == 0, result.output
    assert "text, rules+NER+lexicon: PASS on " in result.output
