"""The mask report says what it leaves readable: the words of the text the proofreader
reads that no reader could explain (the residual check, docs/lexicon.md) are listed in
`mistakes.json`, and under `--strict` hidden from the upstream too, their corrections
restored. The detector is the pipeline with a scripted model that names the person."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli_runs import script
from fake_upstream import Answer
from redacto.cli import app
from redacto.document import Category, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions
from redacto.proofread import MISTAKES_JSON, PlaceStrategy, ProofreadOptions, proofread_file
from redacto.proofread.upstream import UpstreamConfig

NAME = "Jane Smith"
EMAIL = "jane.doe@example.com"
CV = (
    f"{NAME}\nEmail: {EMAIL}\nPhone: 408-555-0199\n\n"
    "Data analyst who received a master degree.\n"
    "Last year Wiik and I wrote a report for the board.\n"
)
"""The detector names the person; the rules hide the e-mail and the phone; `Wiik`, a
colleague's surname, is no dictionary word and no reader names it."""
PIPELINE = PipelineOptions(category=Category.GENERAL, model_redact=False)


def detector() -> ScriptedEngine:
    return ScriptedEngine({Step.DETECT: [f"NAME: {NAME}", "NONE"], Step.VALIDATE: ["PASS"] * 3})


def test_offline_the_words_no_reader_explains_are_listed_and_placed(tmp_path):
    source = tmp_path / "cv.txt"
    source.write_text(CV, encoding="utf-8")
    options = ProofreadOptions(upstream=None, language="en", pipeline=PIPELINE, strict=True)
    outcome = proofread_file(source, tmp_path / "out", options, detector())
    written = json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert outcome.exit_code == 0 and written["complete"] is True
    # only the word the text shows: the hidden name, e-mail and phone (which would be
    # unexplained, and so would their placeholders) are not listed; offline --strict
    # hides nothing (nothing is sent)
    assert written["unexplained"] == [
        {
            "value": "Wiik",
            "kind": "capitalised",
            "hidden": False,
            "located": True,
            "page": 1,
            "boxes": [],
        }
    ]
    assert (written["category"], written["language"]) == ("General", "en")
    assert written["values_replaced"] == 3


def test_strict_hides_them_from_the_upstream_and_restores_them_in_the_mistakes(upstream, tmp_path):
    source = tmp_path / "cv.txt"
    source.write_text(CV, encoding="utf-8")
    upstream.answer = Answer(
        lines=[
            json.dumps(
                {
                    "error_text": "[NAME_2] and I wrote",
                    "correction": "[NAME_2] and I have written",
                    "context_before": "Last year",
                    "description": "Tense.",
                }
            )
        ]
    )
    options = ProofreadOptions(upstream=UpstreamConfig(upstream.url), pipeline=PIPELINE)
    readable = proofread_file(source, tmp_path / "readable", options, detector()).result
    assert "Wiik" in upstream.requests[-1].text() and NAME not in upstream.requests[-1].text()
    assert [(w.value, w.hidden) for w in readable.unexplained] == [("Wiik", False)]

    strict = ProofreadOptions(upstream=UpstreamConfig(upstream.url), pipeline=PIPELINE, strict=True)
    outcome = proofread_file(source, tmp_path / "strict", strict, detector())
    sent = upstream.requests[-1].text()
    assert "Wiik" not in sent and NAME not in sent and EMAIL not in sent
    assert "Last year [NAME_2] and I wrote" in sent
    (mistake,) = outcome.result.mistakes
    assert (mistake.error_text, mistake.correction) == (
        "Wiik and I wrote",
        "Wiik and I have written",
    )
    assert (mistake.located, mistake.strategy) == (True, PlaceStrategy.CONTEXT)
    assert [(w.value, w.hidden) for w in outcome.result.unexplained] == [("Wiik", True)]


def test_the_command_counts_them_and_prints_none_of_them(upstream, tmp_path):
    source = tmp_path / "cv.txt"
    source.write_text(CV, encoding="utf-8")
    upstream.answer = Answer(lines=[])
    model = script(
        tmp_path, detect=[f"NAME: {NAME}", "NONE"], redact=["(no rewrite)"], validate=["PASS"] * 3
    )
    common = ["--upstream", upstream.url, "--model", model, "--category", "general"]
    readable = CliRunner().invoke(
        app, ["proofread", str(source), "--out", str(tmp_path / "a"), *common]
    )
    strict = CliRunner().invoke(
        app, ["proofread", str(source), "--out", str(tmp_path / "b"), *common, "--strict"]
    )
    assert readable.exit_code == 0 and strict.exit_code == 0, readable.output + strict.output
    assert "1 word(s) no reader could explain: 0 hidden (--strict), 1 left readable" in (
        readable.output
    )
    assert "1 word(s) no reader could explain: 1 hidden (--strict), 0 left readable" in (
        strict.output
    )
    assert "Wiik" not in readable.output + strict.output
    assert "Wiik" in upstream.requests[1].text() and "Wiik" not in upstream.requests[-1].text()
