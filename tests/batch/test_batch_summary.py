"""The batch summary's rows: the reason column names the review reasons, with counts."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from redacto.batch.summary import SummaryRow, write_summary
from redacto.document import Category, Document, Mode, Span, Status
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.prompts import PromptLibrary
from redacto.report import ModelIdentity, ReviewReason, RunReport, UnexplainedWord


def report_with(words: list[str], reasons: list[ReviewReason]) -> RunReport:
    return RunReport(
        status=Status.NEEDS_REVIEW,
        mode=Mode.TEXT,
        category=Category.GENERAL,
        review_reasons=reasons,
        unexplained=[
            UnexplainedWord(value=w, kind="capitalised", span=Span(start=0, end=len(w)))
            for w in words
        ],
        model=ModelIdentity(uri="scripted:", name="scripted"),
    )


def test_the_reason_names_how_many_words_no_reader_could_explain(tmp_path: Path) -> None:
    report = report_with(
        ["Wiik", "Malthe", "PSC"],
        [ReviewReason.PASS_NOT_TRUSTED, ReviewReason.UNEXPLAINED_WORDS],
    )
    row = SummaryRow.of_report("a.txt", report, 1.0)
    assert row.reason == (
        "this model's validator PASS is not trusted; 3 words no reader could explain"
    )
    one = SummaryRow.of_report("b.txt", report_with(["Wiik"], [ReviewReason.UNEXPLAINED_WORDS]), 1)
    assert one.reason == "1 word no reader could explain"
    json_path, csv_path = write_summary(tmp_path, [row, one])
    rows = json.loads(json_path.read_text(encoding="utf-8"))["rows"]
    assert [r["reason"] for r in rows] == [row.reason, one.reason]
    with csv_path.open(encoding="utf-8") as handle:
        assert [r["reason"] for r in csv.DictReader(handle)] == [row.reason, one.reason]


def test_a_pipeline_run_s_row_counts_the_words_its_report_lists() -> None:
    engine = ScriptedEngine({"detect": ["NONE"], "validate": ["PASS"]})
    options = PipelineOptions(rules=False, category=Category.GENERAL)
    text = "Ask ex-Zombie Wiik and Malthe about the plan."
    report = run_pipeline(
        Document.from_text(text), engine, PromptLibrary.load(), options=options
    ).report
    assert [w.value for w in report.unexplained] == ["Wiik", "Malthe"]
    assert "2 words no reader could explain" in SummaryRow.of_report("c.txt", report, 1).reason
