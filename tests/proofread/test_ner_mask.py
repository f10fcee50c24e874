"""`redacto proofread` hides what the NER tier finds, as `redacto redact` does: by default
the three tiers read the document before anything is sent upstream."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli_runs import script
from fake_upstream import Answer
from redacto.cli import app

NOTE = "Please forward the minutes to Joana Ferreira by Friday.\nThe report was recieved late.\n"


@pytest.mark.parametrize(
    ("options", "sent"),
    [((), False), (("--detectors", "rules,model"), True)],
    ids=["all three tiers by default", "without the NER tier"],
)
def test_a_name_the_model_misses_is_not_sent_when_the_ner_tier_reads(
    upstream, tmp_path, options, sent
):
    source = tmp_path / "note.txt"
    source.write_text(NOTE, encoding="utf-8")
    upstream.answer = Answer(lines=[])
    model = script(tmp_path, detect=["NONE"], redact=["(no rewrite)"], validate=["PASS"])
    command = ["proofread", str(source), "--out", str(tmp_path / "out"), "--model", model]
    command += ["--upstream", upstream.url, "--category", "general", "--language", "en"]
    result = CliRunner().invoke(app, [*command, *options])
    assert result.exit_code == 0, result.output
    sent_text = "\n".join(request.text() for request in upstream.requests)
    assert "minutes to" in sent_text
    assert ("Ferreira" in sent_text) is sent
