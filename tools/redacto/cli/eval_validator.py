"""`redacto eval validator`: the validator alone on built clean and leaky redactions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer

from redacto.cli.eval import _err, eval_app

if TYPE_CHECKING:
    from redacto.evaluation.results import OcrChoice
    from redacto.evaluation.validator_bench import (
        ThresholdChoice,
        VerdictResult,
        VerdictSummary,
        VerdictTally,
    )
    from redacto.evaluation.verdict_curve import CurvePoint


@eval_app.command("validator")
def validator_command(
    model: Annotated[str, typer.Option(help="Model name, .litertlm path or engine URI.")],
    out: Annotated[Path, typer.Option(help="Folder for verdicts.jsonl (resumes) and summary.")],
    suite: Annotated[str, typer.Option(help="Corpus suite.")] = "main",
    suites_dir: Annotated[
        Path | None,
        typer.Option(
            help="Read the suites from this folder instead of eval/suites (a suite built "
            "on demand, e.g. devtools/generated/third_party_suite.py's)."
        ),
    ] = None,
    split: Annotated[str, typer.Option(help="Split of the suite.")] = "test",
    limit: Annotated[int | None, typer.Option(help="The first N documents only.")] = None,
    per_template: Annotated[
        int | None, typer.Option(help="The first N documents of each template only.")
    ] = None,
    dev_split: Annotated[
        str | None,
        typer.Option(
            help="Where the engine can score: choose each reading's threshold on this split "
            "first ('dev': one held-out train template per category) and report it on "
            "--split. Its results go to OUT/dev."
        ),
    ] = None,
    dev_suite: Annotated[
        str | None, typer.Option(help="Suite of --dev-split (default: --suite).")
    ] = None,
    max_leaky: Annotated[
        float, typer.Option(help="The bar: the highest PASS rate on leaky outputs allowed.")
    ] = 0.01,
    margins_only: Annotated[
        bool,
        typer.Option(
            help="Where the engine can score: score each call and generate no reply (the "
            "scored rule's verdict; no free-answer PASS rates)."
        ),
    ] = False,
    tiers_only: Annotated[
        bool,
        typer.Option(
            help="Ask the model nothing: only validate's second opinion (the rules and the "
            "NER tier reading each output) is judged."
        ),
    ] = False,
    ocr: Annotated[
        str | None,
        typer.Option(
            help="Also judge each page read through this OCR engine ('ppocr', the product's "
            "default, or 'tesseract'): reading page-<ocr>, each page read once (ppocr: "
            "about 5-12 CPU-s a page). Built cases only."
        ),
    ] = None,
    outputs: Annotated[
        list[Path] | None,
        typer.Option(
            help="A finished `redacto eval run` folder (repeatable): also read the "
            "pipeline's real outputs there with the rules, NER and the lexicon (beside the "
            "run's own verdict), and where the engine can score, count them in each "
            "reading's curve."
        ),
    ] = None,
) -> None:
    """Ask the validator about complete, over-redacted and leaky redactions of held-out
    documents; prints PASS rates on clean and on leaky ones, per reading. Where the engine can
    score, also the scored verdict's margins: the curve, its best threshold, and with
    --dev-split that threshold chosen on the dev split and read on --split."""
    from redacto.corpus import load_suite, refuse_test_only
    from redacto.evaluation.validator_bench import (
        add_real,
        bench_documents,
        choose_thresholds,
        load_results,
        run_validator_bench,
        write_thresholds,
    )
    from redacto.evaluation.validator_outputs import read_outputs, score_outputs
    from redacto.models import open_model

    if ocr is not None and ocr not in ("ppocr", "tesseract"):
        _err.print(f"[red]--ocr is ppocr or tesseract, not {ocr!r}[/red]")
        raise typer.Exit(2)
    reader = cast("OcrChoice | None", ocr)
    if dev_split is not None:
        try:
            refuse_test_only(dev_suite or suite, "choosing a validator threshold")
        except ValueError as error:
            _err.print(f"[red]{error}[/red]")
            raise typer.Exit(2) from error
    try:
        engine = open_model(model)
    except Exception as error:  # a missing build, a bad URI, a file the runtime refuses
        _err.print(f"[red]cannot open the model:[/red] {type(error).__name__}: {error}")
        raise typer.Exit(2) from error
    documents = bench_documents(load_suite(suite, suites_dir), split, per_template, limit)
    dev_out = out / "dev"
    try:
        dev = None
        if dev_split is not None and engine.supports_scoring:
            corpus = load_suite(dev_suite or suite, suites_dir)
            dev_documents = bench_documents(corpus, dev_split, per_template, limit)
            dev = run_validator_bench(
                engine, dev_documents, dev_out, margins_only=margins_only, ocr=reader
            )
        elif dev_split is not None:
            _err.print("the engine cannot score: no margins, no threshold to choose")
        summary = run_validator_bench(
            engine,
            documents,
            out,
            margins_only=margins_only,
            tiers_only=tiers_only,
            ocr=reader,
        )
        real: list[VerdictResult] = []
        if outputs:
            summary = add_real(
                summary, read_outputs(engine, outputs, load_suite(suite, suites_dir)), out
            )
        if outputs and engine.supports_scoring and not tiers_only:
            real = score_outputs(engine, outputs, load_suite(suite, suites_dir), out / "outputs")
        elif outputs and not tiers_only:
            _err.print("the engine cannot score: no margins on the real outputs")
    finally:
        engine.close()
    _print_summary(summary, max_leaky)
    if dev is not None:
        choices = choose_thresholds(
            load_results(dev_out, dev.cases), load_results(out, summary.cases), max_leaky
        )
        _print_choices(choices, dev_split or "", split)
        typer.echo(f"wrote {write_thresholds(choices, out)}")
    if real:
        built = load_results(out, summary.cases)
        _print_with_outputs(built, real, dev.cases if dev else None, dev_out, max_leaky)


def _tally(tally: VerdictTally) -> str:
    return (
        f"PASS on {tally.clean_passed}/{tally.clean} clean ({_rate(tally.clean_pass_rate)}),"
        f" on {tally.leaky_passed}/{tally.leaky} leaky ({_rate(tally.leaky_pass_rate)})"
    )


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _point(point: CurvePoint | None) -> str:
    if point is None:
        return "none"
    return (
        f"margin ≥ {point.threshold:.3f}: PASS on {_rate(point.clean_pass_rate)} clean,"
        f" {_rate(point.leaky_pass_rate)} leaky"
    )


def _print_summary(summary: VerdictSummary, max_leaky: float) -> None:
    from redacto.evaluation.validator_bench import merged

    for name, tallies in (
        ("LLM", summary.readings),
        ("rules+NER", summary.tiers),
        ("LLM and rules+NER", summary.combined),
        ("lexicon", summary.lexicon),
        ("rules+NER+lexicon", summary.tiers_lexicon),
        ("LLM and rules+NER and lexicon", summary.combined_lexicon),
    ):
        for reading, tally in tallies.items():
            if tally.clean + tally.leaky:
                typer.echo(f"{reading}, {name}: {_tally(tally)}")
    for name, curves in summary.allowance.items():
        for reading, points in curves.items():
            allowed = _allowance(points, max_leaky)
            typer.echo(f"{reading}, {name}, up to N unexplained words let through: {allowed}")
    for name, tallies in summary.real.items():
        for reading, tally in tallies.items():
            typer.echo(f"{reading}, real outputs, {name}: {_tally(tally)}")
    for name, built, real in (
        ("today (LLM and rules+NER; the run's verdict)", summary.combined, "run's verdict"),
        (
            "with the lexicon (LLM and rules+NER and lexicon; the run's verdict and lexicon)",
            summary.combined_lexicon,
            "run's verdict and lexicon",
        ),
        (
            "bound without the LLM (rules+NER+lexicon; the run's verdict and lexicon)",
            summary.tiers_lexicon,
            "run's verdict and lexicon",
        ),
    ):
        for reading, tally in built.items():
            if reading in summary.real.get(real, {}) and tally.clean + tally.leaky:
                both = merged(tally, summary.real[real][reading])
                typer.echo(f"{reading}, real + built, {name}: {_tally(both)}")
    for reading in summary.readings:
        curve = summary.curves.get(reading)
        if curve is not None:
            auc = "—" if curve.auc is None else f"{curve.auc:.3f}"
            typer.echo(
                f"{reading}, scored: AUC {auc}; best within {max_leaky:.0%} leaky, chosen on these"
                f" outputs: {_point(curve.best)}"
            )


def _allowance(points: list[CurvePoint], max_leaky: float, most: int = 5) -> str:
    """`N=0 a % / b %, …` for N up to `most`, then the largest N within the bar."""
    shown = [
        f"N={-int(p.threshold)} {_rate(p.clean_pass_rate)} / {_rate(p.leaky_pass_rate)}"
        for p in points
        if -p.threshold <= most
    ]
    within = [
        -int(p.threshold)
        for p in points
        if (p.leaky_pass_rate or 0.0) <= max_leaky and p.clean_pass_rate
    ]
    best = f"N={max(within)}" if within else "none"
    return ", ".join(shown) + f"; the most within {max_leaky:.0%} leaky: {best}"


def _print_choices(choices: dict[str, ThresholdChoice], dev_split: str, split: str) -> None:
    for reading, choice in choices.items():
        typer.echo(
            f"{reading}: threshold chosen on {dev_split}: {_point(choice.dev)};"
            f" on {split}: {_point(choice.test)}"
        )


def _print_with_outputs(
    built: list[VerdictResult],
    real: list[VerdictResult],
    dev_cases: list[str] | None,
    dev_out: Path,
    max_leaky: float,
) -> None:
    """Per reading: the real outputs alone and with the built cases, each curve's best point
    and, where a dev run chose one, the rates at its threshold."""
    from redacto.evaluation.validator_bench import choose_thresholds, load_results
    from redacto.report import Verdict

    dev = load_results(dev_out, dev_cases) if dev_cases else []
    for label, results in (("real outputs", real), ("real + built", [*built, *real])):
        for reading, choice in choose_thresholds(dev, results, max_leaky).items():
            clean = sum(r.expected is Verdict.PASS for r in results if r.reading == reading)
            leaky = sum(r.expected is Verdict.FAIL for r in results if r.reading == reading)
            if not clean + leaky:
                continue
            typer.echo(
                f"{reading}, {label} ({clean} clean, {leaky} leaky): best within the bar,"
                f" chosen on them: {_point(choice.test_best)}; at the dev threshold:"
                f" {_point(choice.test)}"
            )
