"""The validator bench: built clean and leaky redactions, judged through the pipeline's call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from redacto.cli import app
from redacto.corpus import RENDER_CACHE_DIR, load_suite, render_page
from redacto.document import Box, Category, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.evaluation.inputs import PageReader
from redacto.evaluation.validator_bench import (
    DEV_SPLIT,
    SUMMARY_FILE,
    THRESHOLDS_FILE,
    bench_documents,
    case_reading,
    choose_thresholds,
    dev_templates,
    load_results,
    run_validator_bench,
    verdict_cases,
)
from redacto.evaluation.validator_ocr import ocr_cases
from redacto.evaluation.validator_tiers import shown_output, tier_hits
from redacto.tuning import TrainingExample


def oracle_engine(cases: list[TrainingExample]) -> ScriptedEngine:
    """Answers each case right, in order."""
    return ScriptedEngine({Step.VALIDATE: [case.answer for case in cases]})


def test_cases_are_clean_and_leaky_in_both_readings_and_balanced() -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    readings = {(c.read_as_text, c.answer.startswith("FAIL")) for c in cases}
    assert readings == {(False, False), (False, True), (True, False), (True, True)}
    fails = sum(c.answer.startswith("FAIL") for c in cases)
    assert fails == len(cases) - fails


@pytest.mark.slow
def test_an_oracle_scores_perfectly_and_a_yes_man_passes_every_leak(tmp_path: Path) -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    right = run_validator_bench(oracle_engine(cases), documents, tmp_path / "oracle")
    for tally in right.readings.values():
        assert tally.clean_pass_rate == 1.0 and tally.leaky_pass_rate == 0.0
    assert (tmp_path / "oracle" / SUMMARY_FILE).exists()

    yes = ScriptedEngine({Step.VALIDATE: ["PASS"] * len(cases)})
    summary = run_validator_bench(yes, documents, tmp_path / "yes")
    for tally in summary.readings.values():
        assert tally.leaky_pass_rate == 1.0
        assert set(tally.by_outcome) == {"pass", "pass-over", "fail-one", "fail-word"}

    # A rerun resumes: nothing is asked again (the scripted engine has no reply left).
    again = run_validator_bench(ScriptedEngine({}), documents, tmp_path / "yes")
    assert again.readings == summary.readings


def test_an_unparseable_answer_counts_as_fail(tmp_path: Path) -> None:
    documents = load_suite("smoke")[:1]
    cases = verdict_cases(documents)
    engine = ScriptedEngine({Step.VALIDATE: ["I think it is fine."] * len(cases)})
    summary = run_validator_bench(engine, documents, tmp_path)
    assert all(t.clean_passed == 0 and t.leaky_passed == 0 for t in summary.readings.values())


def margin_table(case: TrainingExample, leaky_margin: float = -2.0) -> dict[str, float]:
    """Log-likelihoods whose PASS − FAIL margin is +2 for a clean case, `leaky_margin` else."""
    margin = leaky_margin if case.answer.startswith("FAIL") else 2.0
    return {"PASS": -1.0, "FAIL": -1.0 - margin}


def scoring_oracle(cases: list[TrainingExample]) -> ScriptedEngine:
    """Answers each case right and scores it with `margin_table`."""
    return ScriptedEngine(
        {Step.VALIDATE: [case.answer for case in cases]},
        scores={Step.VALIDATE: [margin_table(case) for case in cases]},
    )


def test_a_scoring_engine_gives_each_case_its_margin_and_each_reading_a_curve(tmp_path: Path):
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    engine = scoring_oracle(cases)
    summary = run_validator_bench(engine, documents, tmp_path)
    # Each call is scored as the pipeline's scored rule scores it: the same prompt.
    asked = [(r.system, r.user) for r in engine.requests]
    assert [(r.system, r.user) for r in engine.score_requests] == asked
    assert {r.candidates for r in engine.score_requests} == {("PASS", "FAIL")}
    results = load_results(tmp_path, summary.cases)
    assert [r.case for r in results] == [c.id for c in cases]
    assert {(r.expected.value, r.margin) for r in results} == {("PASS", 2.0), ("FAIL", -2.0)}
    assert set(summary.curves) == {"text", "page-text"}
    for reading, curve in summary.curves.items():
        assert curve.auc == 1.0 and curve.best is not None
        assert curve.best.threshold == 0.0 and curve.best.clean_pass_rate == 1.0
        assert curve.clean == summary.readings[reading].clean


def test_an_engine_that_cannot_score_leaves_no_margins(tmp_path: Path):
    documents = load_suite("smoke")[:1]
    summary = run_validator_bench(oracle_engine(verdict_cases(documents)), documents, tmp_path)
    assert summary.curves == {}
    assert all(r.margin is None for r in load_results(tmp_path, summary.cases))


@pytest.mark.slow
def test_a_threshold_chosen_on_dev_is_read_on_test(tmp_path: Path):
    """Dev separates at 0, between -2 and +2; on test one leaky case scores 3.0: the dev
    threshold lets it through, and the test figures say so."""
    dev_docs, test_docs = load_suite("smoke")[:1], load_suite("smoke")[1:2]
    dev = run_validator_bench(scoring_oracle(verdict_cases(dev_docs)), dev_docs, tmp_path / "d")
    test_cases = verdict_cases(test_docs)
    engine = scoring_oracle(test_cases)
    leaky = next(i for i, c in enumerate(test_cases) if c.answer.startswith("FAIL"))
    engine._score_queues[Step.VALIDATE][leaky] = {"PASS": -1.0, "FAIL": -4.0}
    test = run_validator_bench(engine, test_docs, tmp_path / "t")
    choices = choose_thresholds(
        load_results(tmp_path / "d", dev.cases), load_results(tmp_path / "t", test.cases)
    )
    reading = "page-text" if test_cases[leaky].read_as_text else "text"
    chosen = choices[reading]
    assert chosen.threshold == 0.0 and chosen.dev is not None and chosen.test is not None
    assert chosen.dev.leaky_pass_rate == 0.0
    assert chosen.test.leaky_pass_rate == pytest.approx(1 / chosen.test.leaky)
    assert chosen.test.clean_pass_rate == 1.0
    # On test alone no threshold passes a clean case without that leaky one.
    assert chosen.test_best is None
    other = choices["text" if reading == "page-text" else "page-text"]
    assert other.test is not None and other.test.leaky_pass_rate == 0.0


def test_the_dev_split_is_held_out_train_templates_one_per_category():
    corpus = load_suite("main")
    dev = bench_documents(corpus, DEV_SPLIT)
    templates = {d.template for d in dev}
    assert {d.split for d in dev} == {"train"}
    assert len(templates) == len({d.category for d in corpus}) == 7
    assert not templates & {d.template for d in corpus if d.split == "test"}
    assert templates == dev_templates(corpus)
    one_each = bench_documents(corpus, "test", per_template=1)
    assert len(one_each) == len({d.template for d in one_each}) == 14
    test_split = [d for d in corpus if d.split == "test"]
    two_each = [
        d
        for i, d in enumerate(test_split)
        if [e.template for e in test_split[:i]].count(d.template) < 2
    ]
    assert bench_documents(corpus, "test", per_template=2) == two_each
    assert len(two_each) == 28
    assert bench_documents(corpus, "test", per_template=2, limit=3) == two_each[:3]


@pytest.mark.slow
def test_the_command_chooses_on_dev_and_reports_on_test(tmp_path: Path):
    corpus = load_suite("main")
    dev_docs = bench_documents(corpus, DEV_SPLIT, limit=1)
    test_docs = bench_documents(corpus, "test", limit=1)
    cases = verdict_cases(dev_docs) + verdict_cases(test_docs)
    script = tmp_path / "replies.json"
    replies = [case.answer for case in cases]
    tables = [margin_table(case) for case in cases]
    script.write_text(json.dumps({"validate": replies, "scores": {"validate": tables}}))
    out = tmp_path / "out"
    args = ["eval", "validator", "--model", f"scripted:{script}", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--dev-split", "dev", "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert "text, LLM: PASS on 2/2 clean (100.0%), on 0/2 leaky (0.0%)" in result.output
    assert "text, rules+NER: PASS on " in result.output
    assert "text, LLM and rules+NER: PASS on " in result.output
    assert "text, scored: AUC 1.000" in result.output
    assert "text: threshold chosen on dev: margin ≥ 0.000: PASS on 100.0% clean, 0.0% leaky;" in (
        result.output
    )
    thresholds = json.loads((out / THRESHOLDS_FILE).read_text(encoding="utf-8"))
    assert thresholds["page-text"]["threshold"] == 0.0
    assert (out / "dev" / SUMMARY_FILE).exists() and (out / SUMMARY_FILE).exists()


def test_a_test_only_suite_is_no_dev_suite(tmp_path: Path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"validate": []}))
    args = ["eval", "validator", "--model", f"scripted:{script}", "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(
        app, [*args, "--dev-suite", "outside-styled", "--dev-split", "test", "--limit", "1"]
    )
    assert result.exit_code == 2
    assert "test-only" in result.output
    assert not (tmp_path / "o").exists()


def test_the_command_reads_the_page_through_a_real_ocr_only(tmp_path: Path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"validate": []}))
    args = ["eval", "validator", "--model", f"scripted:{script}", "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(app, [*args, "--ocr", "gold", "--tiers-only", "--limit", "1"])
    assert result.exit_code == 2
    assert "ppocr or tesseract" in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_margins_only_scores_each_case_and_asks_for_no_reply(tmp_path: Path):
    documents = load_suite("smoke")[:1]
    cases = verdict_cases(documents)
    engine = scoring_oracle(cases)
    summary = run_validator_bench(engine, documents, tmp_path, margins_only=True)
    assert engine.requests == [] and len(engine.score_requests) == len(cases)
    results = load_results(tmp_path, summary.cases)
    assert all(r.said is None and r.answer is None and r.margin is not None for r in results)
    assert all(tally.clean == tally.leaky == 0 for tally in summary.readings.values())
    assert all(curve.auc == 1.0 for curve in summary.curves.values())
    # A full run later asks each case for its reply (and scores it again with it).
    full = run_validator_bench(scoring_oracle(cases), documents, tmp_path)
    for tally in full.readings.values():
        assert tally.clean_pass_rate == 1.0 and tally.leaky_pass_rate == 0.0


@pytest.mark.slow
def test_the_second_opinion_judges_every_case_alone_and_with_the_llm(tmp_path: Path) -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    yes = ScriptedEngine({Step.VALIDATE: ["PASS"] * len(cases)})
    summary = run_validator_bench(yes, documents, tmp_path / "yes")
    assert set(summary.tiers) == set(summary.combined) == set(summary.readings)
    for reading, tiers in summary.tiers.items():
        both = summary.combined[reading]
        assert (tiers.clean, tiers.leaky) == (both.clean, both.leaky)
        # The LLM passes everything, so together they pass exactly what the tiers pass.
        assert (both.clean_passed, both.leaky_passed) == (tiers.clean_passed, tiers.leaky_passed)
        assert tiers.leaky_passed < tiers.leaky, "the tiers find some left value"
    results = load_results(tmp_path / "yes", summary.cases)
    assert all(r.tiers_found is not None for r in results)

    alone = run_validator_bench(ScriptedEngine({}), documents, tmp_path / "tiers", tiers_only=True)
    assert alone.tiers == summary.tiers and alone.combined == {}
    assert all(t.clean == t.leaky == 0 for t in alone.readings.values())


@pytest.mark.parametrize(
    ("output", "found"),
    [
        ("Call [NAME_1] Moreau today about the invoice.", ["Moreau"]),
        ("Call [NAME_1] [NAME_2] today about the invoice.", []),
        ("Write to [EMAIL_1] or jane.moreau@example.org today.", ["jane.moreau@example.org"]),
    ],
)
def test_the_tiers_read_a_shown_output_with_its_placeholders_masked(output, found) -> None:
    hits = tier_hits(output, Category.GENERAL)
    assert sorted({h.value for h in hits}) == found  # the rules and NER may both name one


@pytest.mark.slow
def test_the_lexicon_judges_every_case_alone_with_the_tiers_and_with_the_llm(tmp_path) -> None:
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents)
    yes = ScriptedEngine({Step.VALIDATE: ["PASS"] * len(cases)})
    summary = run_validator_bench(yes, documents, tmp_path / "yes")
    results = load_results(tmp_path / "yes", summary.cases)
    assert all(r.lexicon_words is not None for r in results)
    assert set(summary.lexicon) == set(summary.tiers_lexicon) == set(summary.combined_lexicon)
    for reading, lexicon in summary.lexicon.items():
        tiers, both = summary.tiers_lexicon[reading], summary.combined_lexicon[reading]
        # A reader more can only take PASS away; the LLM passes everything here.
        assert tiers.leaky_passed <= min(lexicon.leaky_passed, summary.tiers[reading].leaky_passed)
        assert tiers.clean_passed <= lexicon.clean_passed
        assert (both.clean_passed, both.leaky_passed) == (tiers.clean_passed, tiers.leaky_passed)
        assert lexicon.leaky_passed < lexicon.leaky, "some left value is no dictionary word"
    # Each row is exactly its readers' PASS together, case by case.
    for reading in summary.lexicon:
        mine = [r for r in results if r.reading == reading]
        assert summary.tiers_lexicon[reading].leaky_passed == sum(
            r.tiers_found == 0 and not r.lexicon_words for r in mine if r.expected.value == "FAIL"
        )

    alone = run_validator_bench(ScriptedEngine({}), documents, tmp_path / "t", tiers_only=True)
    assert alone.lexicon == summary.lexicon and alone.tiers_lexicon == summary.tiers_lexicon
    assert alone.combined_lexicon == {}


def test_a_bench_file_without_lexicon_readings_is_read_again_not_asked_again(tmp_path) -> None:
    documents = load_suite("smoke")[:1]
    cases = verdict_cases(documents)
    yes = ScriptedEngine({Step.VALIDATE: ["PASS"] * len(cases)})
    summary = run_validator_bench(yes, documents, tmp_path)
    # A results file written before the lexicon was read: the LLM's answers stay.
    path = tmp_path / "verdicts.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        line.pop("lexicon_words", None)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    again = run_validator_bench(ScriptedEngine({}), documents, tmp_path)
    assert again.readings == summary.readings and again.lexicon == summary.lexicon


@pytest.mark.parametrize(
    ("output", "words"),
    [
        ("Call [NAME_1] today about the invoice.", []),
        ("Call [NAME_1] Wiik today about the invoice.", ["Wiik"]),
        ("Write to [EMAIL_1] or see wiik-photography.net today.", ["wiik-photography.net"]),
        ("Order 48213 ships on [DATE_1].", ["48213"]),
    ],
)
def test_the_lexicon_reads_a_shown_output_with_its_placeholders_masked(output, words) -> None:
    from redacto.evaluation.validator_lexicon import lexicon_words

    assert lexicon_words(output, Category.GENERAL) == words


def test_the_allowance_curve_lets_up_to_n_unexplained_words_through(tmp_path) -> None:
    from redacto.evaluation.validator_bench import REFUSED, allowance_margins

    documents = load_suite("smoke")[:2]
    summary = run_validator_bench(ScriptedEngine({}), documents, tmp_path, tiers_only=True)
    results = load_results(tmp_path, summary.cases)
    curves = summary.allowance["rules+NER+lexicon"]
    assert "LLM and rules+NER and lexicon" not in summary.allowance  # the LLM was not asked
    for reading, points in curves.items():
        mine = [r for r in results if r.reading == reading]
        exact = {-int(p.threshold): p for p in points}
        assert sorted(exact) == list(range(11))
        # N = 0 is the row itself; each N passes exactly the outputs with at most N words.
        row = summary.tiers_lexicon[reading]
        assert exact[0].clean_pass_rate == row.clean_pass_rate
        for n, point in exact.items():
            clean = [r for r in mine if r.expected.value == "PASS"]
            passed = [r for r in clean if r.tiers_found == 0 and len(r.lexicon_words or []) <= n]
            assert point.clean_pass_rate == len(passed) / len(clean)
        margins = allowance_margins(results, reading, lambda r: r.tiers_pass)
        assert sum(m.margin == REFUSED for m in margins) == sum(r.tiers_found != 0 for r in mine)


def test_the_page_read_by_an_ocr_of_gold_words_is_the_page_read_as_text() -> None:
    """With the gold words as its OCR, `page-gold` shows exactly what `page-text` shows: the
    OCR reading hides words by box, the page as text by index, and they must agree."""
    documents = load_suite("smoke")[:2]
    cases = verdict_cases(documents, ocr="gold")
    by_id = {case.id: case for case in cases}
    read = [case for case in cases if case_reading(case) == "page-gold"]
    assert {case.id.rsplit("-page-gold-", 1)[1] for case in read} == {
        "pass",
        "pass-over",
        "fail-one",
        "fail-word",
    }
    for case in read:
        text = by_id[case.id.replace("page-gold", "page-text")]
        assert shown_output(case.user) == shown_output(text.user)
        assert case.answer.startswith("FAIL") == text.answer.startswith("FAIL")


@pytest.mark.slow
def test_the_page_through_ppocr_hides_a_redacted_values_ocr_words_and_shows_kept_ones(
    tmp_path: Path,
) -> None:
    documents = load_suite("smoke")[:1]  # `Troy Alvarez` is the value fail-one leaves
    summary = run_validator_bench(
        ScriptedEngine({}), documents, tmp_path, tiers_only=True, ocr="ppocr"
    )
    results = {r.case: r for r in load_results(tmp_path, summary.cases)}
    ocr = {c: r for c, r in results.items() if r.reading == "page-ppocr"}
    assert {r.outcome for r in ocr.values()} == {"pass", "pass-over", "fail-one", "fail-word"}
    assert summary.lexicon["page-ppocr"].clean == 2
    assert summary.tiers_lexicon["page-ppocr"].leaky == 2

    page = render_page(documents[0], RENDER_CACHE_DIR)
    words = PageReader("ppocr").read(page)
    value = [w for w in page.words if w.text in ("Troy", "Alvarez")][:2]
    over = {e.text for e in words if any(_near(e.box, w.box) for w in value)}
    assert over, "PP-OCR reads the name"
    kept = {e.text for e in words if e.text.strip(":").lower() == "patient"}
    cases = {case.id: shown_output(case.user) for case in ocr_cases(documents, "ppocr")}
    clean = cases["smoke-medical-test-000/validate-page-ppocr-pass"]
    leaky = cases["smoke-medical-test-000/validate-page-ppocr-fail-one"]
    assert not any(word in clean.split() for word in over)
    assert all(word in leaky.split() for word in over)
    assert kept and all(word in clean.split() and word in leaky.split() for word in kept)
    assert "[NAME_1]" in clean


def _near(box: Box | None, gold: Box) -> bool:
    assert box is not None
    width = min(box.x1, gold.x1) - max(box.x0, gold.x0)
    height = min(box.y1, gold.y1) - max(box.y0, gold.y0)
    return width > 0 and height > 0 and width * height >= 0.5 * gold.area
