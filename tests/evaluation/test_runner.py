"""The runner end to end: real pipeline, real renderer, scripted engine answering from gold.

The script is an "oracle" built from the gold labels, except that it misses the phone
number of the second document while the validator still answers PASS: so the expected
figures are known — one leaked word per mode, one false PASS per mode.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_cases import DOCUMENT
from typer.testing import CliRunner

from redacto.corpus.render import render_page
from redacto.corpus.schema import CorpusDocument, GoldSpan, PreserveSpan
from redacto.document import Category, ImageReading, Mode, Step
from redacto.evaluation.compare import compare_runs
from redacto.evaluation.pipeline_system import PipelineSystem, hidden_spans
from redacto.evaluation.results import RunConfig, RunError, read_results
from redacto.evaluation.run import run_evaluation

SECOND = CorpusDocument(
    id="financial-0001",
    category=Category.FINANCIAL,
    document_type="statement",
    split="test",
    template="hand",
    text="Account holder Maria Lopez, phone 212-555-0147, owes $120.00 to First Bank.",
    pii=(
        GoldSpan(start=15, end=26, label="NAME"),
        GoldSpan(start=34, end=46, label="PHONE"),
    ),
    preserve=(PreserveSpan(start=53, end=60, kind="amount"),),
)
DOCUMENTS = [DOCUMENT, SECOND]
MODES = (Mode.IMAGE, Mode.TEXT)


def oracle_replies(
    documents: list[CorpusDocument], cache: Path, skip_label: dict[str, str]
) -> dict[str, list[str]]:
    """Replies for documents × modes in the runner's order; `skip_label` drops one label."""
    replies: dict[str, list[str]] = {"classify": [], "detect": [], "redact": [], "validate": []}
    for document in documents:
        kept = [s for s in document.pii if skip_label.get(document.id) != s.label]
        for mode in MODES:
            replies["classify"].append(
                f"DOCUMENT_TYPE: {document.document_type}\nCATEGORY: {document.category.value}"
            )
            if mode is Mode.IMAGE:
                page = render_page(document, cache)
                indices = [
                    position
                    for position, word in enumerate(page.words)
                    for span in kept
                    if word.start < span.end and span.start < word.end
                ]
                labels = {
                    position: span.label
                    for position, word in enumerate(page.words)
                    for span in kept
                    if word.start < span.end and span.start < word.end
                }
                replies["detect"].append("\n".join(f"{i}:{labels[i]}" for i in indices))
            else:
                replies["detect"].append(
                    "\n".join(f"{s.label}: {document.span_text(s)}" for s in kept)
                )
                text, counters = document.text, {}
                for span in sorted(kept, key=lambda s: s.start, reverse=True):
                    counters[span.label] = counters.get(span.label, 0) + 1
                for span in sorted(kept, key=lambda s: s.start, reverse=True):
                    number = counters[span.label]
                    counters[span.label] -= 1
                    text = text[: span.start] + f"[{span.label}_{number}]" + text[span.end :]
                replies["redact"].append(text)
            replies["validate"].append("PASS")
    return replies


def write_script(path: Path, replies: dict[str, list[str]]) -> str:
    path.write_text(json.dumps(replies), encoding="utf-8")
    return f"scripted:{path}"


@pytest.mark.slow
def test_run_scores_resumes_and_reports(tmp_path: Path) -> None:
    cache, out = tmp_path / "pages", tmp_path / "run"
    config = RunConfig(suite="hand", system="scripted", modes=MODES, rules=False)
    skip = {SECOND.id: "PHONE"}

    # First pass: only the first document (limit 1).
    first = write_script(tmp_path / "a.json", oracle_replies([DOCUMENT], cache, skip))
    system = PipelineSystem(first, rules=False)
    run_evaluation(system, DOCUMENTS, config.model_copy(update={"limit": 1}), out, cache_dir=cache)
    assert all(system.engine.remaining(step) == 0 for step in Step)
    assert len(read_results(out)) == 2

    # Resume: the script holds replies for the second document only, so redoing the
    # first one would exhaust it and fail.
    second = write_script(tmp_path / "b.json", oracle_replies([SECOND], cache, skip))
    seen: list[tuple[int, int]] = []
    summary = run_evaluation(
        PipelineSystem(second, rules=False),
        DOCUMENTS,
        config,
        out,
        cache_dir=cache,
        on_progress=lambda done, total, _: seen.append((done, total)),
    )
    assert seen[0] == (2, 4) and seen[-1] == (4, 4)
    results = read_results(out)
    assert len(results) == 4
    assert all(r.prediction.error is None for r in results)

    for mode in MODES:
        mode_summary = summary.modes[mode]
        counts = mode_summary.overall.counts
        # 3 + 4 PII words ("212-555-0147" is one word); only the skipped phone leaks.
        assert (counts.pii_words, counts.protected_words) == (6, 5), mode
        assert mode_summary.overall.leaky_documents == 1
        assert mode_summary.overall.preserve_violation_rate == 0.0
        assert mode_summary.classification.accuracy == 1.0
        assert (mode_summary.validator.passes, mode_summary.validator.false_passes) == (2, 1)
        assert mode_summary.by_label["PHONE"].entity_recall == 0.5
    assert summary.modes[Mode.IMAGE].overall.box_coverage is not None
    assert summary.image_vs_text is not None

    report = (out / "report.html").read_text(encoding="utf-8")
    assert "<svg" in report and "data:image/jpeg;base64," in report
    assert "financial-0001" in (out / "report.md").read_text(encoding="utf-8")

    with pytest.raises(RunError, match="different configuration"):
        run_evaluation(
            PipelineSystem(second, rules=True),
            DOCUMENTS,
            config.model_copy(update={"rules": True}),
            out,
            cache_dir=cache,
        )


def test_an_engine_that_fails_is_scored_as_nothing_redacted(tmp_path: Path) -> None:
    empty = write_script(tmp_path / "empty.json", {})
    config = RunConfig(suite="hand", system="scripted", modes=(Mode.TEXT,), rules=False)
    summary = run_evaluation(
        PipelineSystem(empty, rules=False),
        [DOCUMENT],
        config,
        tmp_path / "run",
        cache_dir=tmp_path / "pages",
    )
    assert summary.modes[Mode.TEXT].overall.leak_rate == 1.0
    assert summary.modes[Mode.TEXT].validator.status_counts == {"ERROR": 1}


@pytest.mark.parametrize(
    ("original", "redacted", "expected"),
    [
        ("Mrs. Chen called", "[NAME_1] called", [(0, 9)]),
        ("a b c", "a b c", []),
        ("Call 555-0101, today", "Call [PHONE_1], today", [(5, 14)]),
        ("keep this", None, []),
    ],
)
def test_hidden_spans_align_the_output_word_by_word(original, redacted, expected) -> None:
    assert hidden_spans(original, redacted) == expected


@pytest.mark.slow
def test_cli_run_and_compare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import redacto.cli.eval  # noqa: F401 - registers `eval` until cli/__init__ imports it
    import redacto.corpus.suites as suites
    from redacto.cli._app import app
    from redacto.corpus.suites import write_suite

    monkeypatch.setattr(suites, "SUITES_DIR", tmp_path / "suites")
    monkeypatch.setattr(suites, "RENDER_CACHE_DIR", tmp_path / "pages")
    write_suite("hand", DOCUMENTS, tmp_path / "suites")
    script = write_script(
        tmp_path / "s.json", oracle_replies(DOCUMENTS, tmp_path / "pages", {SECOND.id: "PHONE"})
    )
    leaky = write_script(
        tmp_path / "l.json", oracle_replies(DOCUMENTS, tmp_path / "pages", {SECOND.id: "NAME"})
    )
    runner = CliRunner()
    for name, uri, extra in (("a", script, []), ("b", leaky, ["--peer", str(tmp_path / "a")])):
        result = runner.invoke(
            app,
            [
                "eval",
                "run",
                "--suite",
                "hand",
                "--model",
                uri,
                "--mode",
                "both",
                "--no-rules",
                # The model alone: the NER tier (on by default in the eval) finds the name.
                "--detectors",
                "model",
                "--out",
                str(tmp_path / name),
                *extra,
            ],
        )
        assert result.exit_code == 0, result.output
        assert (tmp_path / name / "summary.json").exists()
    # The peer run's headline rows sit beside run b's own.
    assert f"| {script}: image |" in (tmp_path / "b" / "report.md").read_text(encoding="utf-8")
    result = runner.invoke(app, ["eval", "compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert "| text | token recall |" in result.output
    comparison = compare_runs(tmp_path / "a", tmp_path / "b")
    # Missing the two-word name instead of the one-word phone: document 2 got worse.
    assert {(d.document_id, d.verdict) for d in comparison.documents} == {
        ("financial-0001", "worse")
    }
    # Every output of the changed document differs; the other document's are identical.
    assert comparison.changed_outputs == [
        ("financial-0001", Mode.IMAGE),
        ("financial-0001", Mode.TEXT),
    ]
    assert "outputs identical on 2, different on 2" in " ".join(result.output.split())
    assert compare_runs(tmp_path / "a", tmp_path / "a").changed_outputs == []
    missing = runner.invoke(app, ["eval", "compare", str(tmp_path / "a"), str(tmp_path / "x")])
    assert missing.exit_code == 2


def test_cli_run_names_the_build_command_for_an_unbuilt_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from redacto.cli import app

    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path / "build"))
    result = CliRunner().invoke(
        app, ["eval", "run", "--suite", "smoke", "--model", "gemma-3-270m", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "redacto model build gemma-3-270m" in " ".join(result.output.split())


@pytest.mark.slow
def test_a_torn_last_line_is_dropped_and_redone(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = RunConfig(suite="hand", system="scripted", modes=(Mode.TEXT,), rules=False)
    # The oracle answers image then text; keep the text-mode replies only.
    replies = oracle_replies([DOCUMENT], tmp_path / "pages", {})
    text_only = {
        "classify": replies["classify"][1:],
        "detect": replies["detect"][1:],
        "redact": replies["redact"],
        "validate": replies["validate"][1:],
    }
    run_evaluation(
        PipelineSystem(write_script(tmp_path / "1.json", text_only), rules=False),
        [DOCUMENT],
        config,
        out,
        cache_dir=tmp_path / "pages",
    )
    results_file = out / "results.jsonl"
    whole = results_file.read_text(encoding="utf-8")
    results_file.write_text(whole[: len(whole) // 2], encoding="utf-8")  # killed mid-write
    assert read_results(out) == []
    summary = run_evaluation(
        PipelineSystem(write_script(tmp_path / "2.json", text_only), rules=False),
        [DOCUMENT],
        config,
        out,
        cache_dir=tmp_path / "pages",
    )
    assert summary.modes[Mode.TEXT].overall.token_recall == 1.0
    assert len(results_file.read_text(encoding="utf-8").splitlines()) == 1


def test_every_eval_command_has_help_text() -> None:
    from redacto.cli.eval import eval_app

    names = {command.name for command in eval_app.registered_commands}
    assert names == {"run", "presidio", "compare", "validator", "strict"}
    assert all((command.callback.__doc__ or "").strip() for command in eval_app.registered_commands)


@pytest.mark.slow
def test_gold_category_skips_classify_and_is_not_scored_as_classification(tmp_path: Path) -> None:
    cache = tmp_path / "pages"
    replies = oracle_replies(DOCUMENTS, cache, {})
    replies["classify"] = []  # a classify call would exhaust the script and fail the run
    system = PipelineSystem(write_script(tmp_path / "r.json", replies), gold_category=True)
    config = RunConfig(
        suite="hand", system="scripted", modes=MODES, rules=False, gold_category=True
    )
    summary = run_evaluation(system, DOCUMENTS, config, tmp_path / "run", cache_dir=cache)
    assert all(r.prediction.error is None for r in read_results(tmp_path / "run"))
    for mode in MODES:
        assert summary.modes[mode].classification.scored == 0
        assert summary.modes[mode].overall.leak_rate == 0.0
    assert "gold category given" in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")


def test_the_eval_can_choose_the_reading_and_the_rounds(tmp_path: Path) -> None:
    # One round: the validator's FAIL ends the run instead of adding a second round.
    replies = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["NONE"],
        "validate": ["FAIL\nNAME: nobody"],
    }
    system = PipelineSystem(
        write_script(tmp_path / "s.json", replies),
        rules=False,
        image_reading=ImageReading.TEXT,
        max_rounds=1,
    )
    assert "image read as text" in system.identity and "at most 1 round(s)" in system.identity
    prediction = system.predict(DOCUMENT, Mode.TEXT, None)
    assert prediction.rounds == 1
    assert [step.step for step in prediction.steps].count(Step.VALIDATE) == 1


def test_every_answer_is_kept_and_invented_values_are_counted(tmp_path: Path) -> None:
    """Detect names one real value and one that is on no page; the validator names another
    invented one. The results keep both with their reasons; the summary counts 2 of 3."""
    cache, out = tmp_path / "pages", tmp_path / "run"
    replies = {
        "classify": ["DOCUMENT_TYPE: statement\nCATEGORY: Financial"],
        "detect": ["NAME: Maria Lopez\nNAME: Mrs. Chen\nPHONE: 212-555-0147"],
        "redact": ["Account holder [NAME_1], phone [PHONE_1], owes $120.00 to First Bank."],
        "validate": ["FAIL\nPHONE: 07700 900123"],
    }
    config = RunConfig(suite="hand", system="scripted", modes=(Mode.TEXT,), rules=False)
    script = write_script(tmp_path / "s.json", replies)
    summary = run_evaluation(
        PipelineSystem(script, rules=False), [SECOND], config, out, cache_dir=cache
    )
    (result,) = read_results(out)
    named = {(item.step, item.label, item.value) for item in result.prediction.named}
    assert named == {
        (Step.DETECT, "NAME", "Maria Lopez"),
        (Step.DETECT, "PHONE", "212-555-0147"),
    }
    rejected = {(e.step, e.line, e.reason.value) for e in result.prediction.rejected}
    assert (Step.DETECT, "NAME: Mrs. Chen", "not in the document") in rejected
    assert (Step.VALIDATE, "PHONE: 07700 900123", "not in the document") in rejected
    answers = summary.modes[Mode.TEXT].answers
    assert answers is not None
    assert (answers.lines, answers.invented) == (4, 2)
    assert "invention rate" in (out / "report.md").read_text(encoding="utf-8")
