"""The validator alone, on redactions whose right verdict is known.

A pipeline run shows the validator only what detect left behind, so a model that redacts
well gives it few leaky outputs to judge and the false-PASS rate rests on a handful. Here
the validator judges built redactions of held-out documents, the same four kinds its
training data is made of (`redacto.tuning.redactions`) but of documents it never trained
on: complete and over-redacted (the right answer is PASS), one value or one word of a value
left readable (FAIL). Each call is the pipeline's own validate call, rendered by the same
code (`build_examples`) and sent through the same `StepContext` with the model's settings.

Per reading (text mode, the page read as text, and with `ocr` the page read through that
OCR engine, `validator_ocr`) the summary gives the bar a trusted PASS must clear: PASS on
clean outputs (high), PASS on leaky ones (at most 1 %).

Where the engine can score, every call is also scored the way the scored verdict rule
scores it (`pipeline.validate.score_verdict`): its margin log P(PASS) − log P(FAIL) is kept,
and the summary holds each reading's curve (`evaluation.verdict_curve`): PASS rates on clean
and leaky outputs at every threshold, and the best threshold within the bar.
`choose_thresholds` picks each reading's threshold on a dev run and reads it on the test run.

Validate's second opinion (`pipeline.second_opinion`) is judged on the same cases: the rules
and the NER tier read each output (`validator_tiers`), and the summary gives PASS rates for
the tiers alone and for the LLM and the tiers together (PASS only when both find nothing).
The residual check (`validator_lexicon`, docs/lexicon.md) reads them too: the summary gives
the lexicon alone, with the tiers, and with the LLM and the tiers (PASS only when every
reader passes and no word is unexplained).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument
from redacto.document import ImageReading, Mode, Step
from redacto.engines import Engine
from redacto.evaluation.results import OcrChoice
from redacto.evaluation.summary import ratio
from redacto.evaluation.validator_lexicon import lexicon_words
from redacto.evaluation.validator_ocr import ocr_cases
from redacto.evaluation.validator_tiers import shown_output, tier_hits
from redacto.evaluation.verdict_curve import (
    MAX_LEAKY_PASS,
    CurvePoint,
    Margin,
    VerdictCurve,
    rates_at,
    verdict_curve,
)
from redacto.pipeline.parsing import VerdictParse
from redacto.pipeline.policy import options_for_model
from redacto.pipeline.state import PipelineOptions, StepContext
from redacto.pipeline.validate import score_verdict
from redacto.prompts import PromptLibrary
from redacto.report import Verdict
from redacto.tuning.dataset import TrainingExample, build_examples

RESULTS_FILE = "verdicts.jsonl"
SUMMARY_FILE = "verdicts-summary.json"
THRESHOLDS_FILE = "verdict-thresholds.json"
DEV_SPLIT = "dev"
"""Not a corpus split: the train documents of `dev_templates`, one train template per
category, for choosing a threshold apart from the test split."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VerdictResult(_Model):
    """One built redaction, the verdict it should get, and what the validator said."""

    case: str
    """The training example id it is built like: `<document>/validate-<reading>-<outcome>`."""
    document_id: str
    reading: str
    outcome: str
    expected: Verdict
    said: Verdict | None
    """The free reply's verdict; None when only the margin was asked for (`margins_only`,
    and a real output, whose free verdict is in its eval run)."""
    answer: str | None
    """The validator's reply (the user's own benchmark output, never logged)."""
    ms: float
    margin: float | None = None
    """log P(PASS) − log P(FAIL) for this call, where the engine can score."""
    tiers_found: int | None = None
    """Values the rules and the NER tier found readable in the output (validate's second
    opinion, `validator_tiers`): PASS for them is 0. None when not asked."""
    lexicon_words: list[str] | None = None
    """The words of the output no reader could explain (the residual check,
    `validator_lexicon`): PASS for it is none. None when not read yet."""
    run_verdict: Verdict | None = None
    """A real output's final validator verdict in its eval run (the LLM and the second
    opinion, as the pipeline decided); None for a built case."""

    @property
    def tiers_pass(self) -> bool | None:
        """The rules and NER found nothing readable; None when they did not read it."""
        return None if self.tiers_found is None else self.tiers_found == 0

    @property
    def lexicon_pass(self) -> bool | None:
        """No word of the output is unexplained; None when the lexicon did not read it."""
        return None if self.lexicon_words is None else not self.lexicon_words


class VerdictTally(_Model):
    """The validator's verdicts on one reading's clean and leaky redactions."""

    clean: int = 0
    clean_passed: int = 0
    leaky: int = 0
    leaky_passed: int = 0
    by_outcome: dict[str, list[int]] = {}
    """outcome → [redactions, PASS verdicts]."""

    @property
    def clean_pass_rate(self) -> float | None:
        return ratio(self.clean_passed, self.clean)

    @property
    def leaky_pass_rate(self) -> float | None:
        return ratio(self.leaky_passed, self.leaky)

    def add(self, result: VerdictResult) -> None:
        """Count the LLM's free verdict (a result without one is not counted)."""
        if result.said is not None:
            self.count(result, result.said is Verdict.PASS)

    def count(self, result: VerdictResult, passed: bool) -> None:
        """Count `result` as passed or not, by its expected verdict and its outcome."""
        if result.expected is Verdict.PASS:
            self.clean += 1
            self.clean_passed += passed
        else:
            self.leaky += 1
            self.leaky_passed += passed
        counts = self.by_outcome.setdefault(result.outcome, [0, 0])
        counts[0] += 1
        counts[1] += passed


class VerdictSummary(_Model):
    """Per reading; `ms_mean` is the mean time of one validate call (its scoring included)."""

    model: str
    documents: int
    readings: dict[str, VerdictTally]
    ms_mean: float | None
    curves: dict[str, VerdictCurve] = {}
    """Per reading, where the engine scored: the scored verdict's curve on these outputs."""
    cases: list[str] = []
    """The ids of the cases judged, in order (`load_results` reads their results)."""
    tiers: dict[str, VerdictTally] = {}
    """Per reading: the second opinion alone (the rules and NER find nothing = PASS)."""
    combined: dict[str, VerdictTally] = {}
    """Per reading: the LLM's PASS and the second opinion's together, as validate decides."""
    lexicon: dict[str, VerdictTally] = {}
    """Per reading: the residual check alone (no word unexplained = PASS)."""
    tiers_lexicon: dict[str, VerdictTally] = {}
    """Per reading: the rules, NER and the residual check together."""
    combined_lexicon: dict[str, VerdictTally] = {}
    """Per reading: the LLM, the rules and NER, and the residual check together."""
    allowance: dict[str, dict[str, list[CurvePoint]]] = {}
    """Row (`rules+NER+lexicon`, and `LLM and rules+NER and lexicon` where the LLM answered)
    → reading → the PASS rates when up to N unexplained words are let through, N = 0 to
    `MOST_ALLOWED` (`allowance_margins`: the point of N has threshold −N)."""
    real: dict[str, dict[str, VerdictTally]] = {}
    """Row (`REAL_ROWS`) → reading → tally, on the pipeline's real outputs (`--outputs`)."""


class ThresholdChoice(_Model):
    """A reading's threshold chosen on a dev run and what it does on the test run."""

    threshold: float | None
    """The dev curve's best threshold; None when no threshold met the bar there."""
    dev: CurvePoint | None
    test: CurvePoint | None
    """The test run's PASS rates at the dev threshold: the figures to report."""
    test_best: CurvePoint | None
    """The test curve's own best point, for reference only: chosen on the figures it reports."""


def dev_templates(documents: Sequence[CorpusDocument]) -> set[str]:
    """One train template per category (the last by name): the dev split's templates.

    A fair dev figure needs an adapter trained without them (`redacto.tuning` takes every
    train document today, so on the shipped adapters these figures are optimistic)."""
    chosen: dict[str, str] = {}
    for document in documents:
        if document.split == "train":
            category = document.category.value
            chosen[category] = max(chosen.get(category, ""), document.template)
    return set(chosen.values())


def bench_documents(
    documents: Sequence[CorpusDocument],
    split: str,
    per_template: int | None = None,
    limit: int | None = None,
) -> list[CorpusDocument]:
    """A suite's documents of `split` (or `DEV_SPLIT`), the first `per_template` of each
    template, then the first `limit`, in suite order."""
    if split == DEV_SPLIT:
        held_out = dev_templates(documents)
        chosen = [d for d in documents if d.split == "train" and d.template in held_out]
    else:
        chosen = [d for d in documents if d.split == split]
    if per_template is not None:
        seen: dict[str, int] = {}
        kept = []
        for document in chosen:
            seen[document.template] = seen.get(document.template, 0) + 1
            if seen[document.template] <= per_template:
                kept.append(document)
        chosen = kept
    return chosen[:limit] if limit else chosen


def verdict_cases(
    documents: Sequence[CorpusDocument],
    render_dir: Path = RENDER_CACHE_DIR,
    ocr: OcrChoice | None = None,
) -> list[TrainingExample]:
    """The validate calls to judge: text mode, and the page read as text, of each document;
    with `ocr`, also the page read through that OCR engine (`validator_ocr`, reading
    `page-<ocr>`), after them."""
    examples = build_examples(documents, render_dir=render_dir, image_readings=(ImageReading.TEXT,))
    cases = [
        e for e in examples if e.step is Step.VALIDATE and (e.mode is Mode.TEXT or e.read_as_text)
    ]
    if ocr is not None:
        cases.extend(ocr_cases(documents, ocr, render_dir))
    return cases


def case_reading(case: TrainingExample) -> str:
    """`text`, `page-text` or `page-<ocr>`: the reading a validate case belongs to."""
    if not case.read_as_text:
        return "text"
    # `<document>/validate-page-text-…`, `<document>/validate-page-ppocr-…`
    return "-".join(case.id.split("/", 1)[1].split("-")[1:3])


def judge(
    context: StepContext,
    case: TrainingExample,
    margins_only: bool = False,
    *,
    ask: bool = True,
) -> VerdictResult:
    """Ask the validator about one built redaction; its answer is read as the pipeline does.
    With `margins_only` (an engine that scores) the call is scored and no reply generated;
    with `ask` false no model call is made at all (the second opinion alone)."""
    started = time.perf_counter()
    margin = None
    if ask and context.engine.supports_scoring:
        margin = score_verdict(context.engine, case.system, case.user).margin
    said, answer = None, None
    if ask and not (margins_only and margin is not None):
        reply = context.call(Step.VALIDATE, case.system, case.user)
        parse = VerdictParse()
        for line in reply.text.splitlines():
            parse.feed(line)
        said, answer = parse.final(), reply.text
    name = case.id.split("/", 1)[1]
    reading = case_reading(case)
    outcome = name.split(f"validate-{reading}-", 1)[1]
    if outcome.startswith("chunk"):  # `chunk2-fail-one`: a long text's chunk
        outcome = outcome.split("-", 1)[1]
    expected = Verdict.FAIL if case.answer.startswith("FAIL") else Verdict.PASS
    return VerdictResult(
        case=case.id,
        document_id=case.document_id,
        reading=reading,
        outcome=outcome,
        expected=expected,
        said=said,
        answer=answer,
        ms=(time.perf_counter() - started) * 1000,
        margin=margin,
    )


def run_validator_bench(
    engine: Engine,
    documents: Sequence[CorpusDocument],
    out: Path,
    limit: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    margins_only: bool = False,
    tiers_only: bool = False,
    ocr: OcrChoice | None = None,
) -> VerdictSummary:
    """Judge every built redaction of `documents` (the first `limit`), resuming from what
    `out/verdicts.jsonl` already holds; writes the summary next to it. `margins_only`:
    see `judge` (a result kept without its reply is judged again without the option).
    Every case also gets the second opinion (`validator_tiers`); `tiers_only` asks the
    model nothing, so only the tiers' rates are filled. `ocr` adds the page read through
    that engine (see `verdict_cases`)."""
    out.mkdir(parents=True, exist_ok=True)
    cases = verdict_cases(list(documents)[:limit] if limit else documents, ocr=ocr)
    path = out / RESULTS_FILE
    done = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                result = VerdictResult.model_validate_json(line)
                done[result.case] = result
    options = options_for_model(PipelineOptions(), engine)
    context = StepContext(engine=engine, prompts=PromptLibrary.load(), options=options)
    with path.open("a", encoding="utf-8") as stream:
        for number, case in enumerate(cases, 1):
            recorded = done.get(case.id)
            ask = not tiers_only
            unscored = (
                ask and engine.supports_scoring and recorded is not None and recorded.margin is None
            )
            unanswered = ask and not margins_only and recorded is not None and recorded.said is None
            if recorded is None or unscored or unanswered:
                recorded = done[case.id] = judge(context, case, margins_only, ask=ask)
            if recorded.tiers_found is None or recorded.lexicon_words is None:
                recorded = done[case.id] = read_by_tiers(recorded, case)
                stream.write(recorded.model_dump_json() + "\n")
                stream.flush()
            if on_progress is not None:
                on_progress(number, len(cases))
    results = [done[case.id] for case in cases]
    readings: dict[str, VerdictTally] = {}
    for result in results:
        readings.setdefault(result.reading, VerdictTally()).add(result)
    rows = built_rows(results)
    curves = {
        reading: verdict_curve(margins)
        for reading in readings
        if (margins := reading_margins(results, reading))
    }
    summary = VerdictSummary(
        model=engine.identity.name,
        documents=len({r.document_id for r in results}),
        readings=readings,
        ms_mean=ratio(sum(r.ms for r in results), len(results)),
        curves=curves,
        cases=[case.id for case in cases],
        tiers=rows["rules+NER"],
        combined=rows["LLM and rules+NER"],
        lexicon=rows["lexicon"],
        tiers_lexicon=rows["rules+NER+lexicon"],
        combined_lexicon=rows["LLM and rules+NER and lexicon"],
        allowance=allowance_curves(results),
    )
    (out / SUMMARY_FILE).write_text(
        json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
    )
    return summary


def read_by_tiers(result: VerdictResult, case: TrainingExample) -> VerdictResult:
    """`result` with the second opinion's and the residual check's readings of its output."""
    shown = shown_output(case.user)
    update: dict[str, object] = {}
    if result.tiers_found is None:
        update["tiers_found"] = len(tier_hits(shown, case.category))
    if result.lexicon_words is None:
        update["lexicon_words"] = lexicon_words(shown, case.category)
    return result.model_copy(update=update)


BUILT_ROWS: dict[str, Callable[[VerdictResult], bool | None]] = {
    "rules+NER": lambda r: r.tiers_pass,
    "LLM and rules+NER": lambda r: _all(_said_pass(r), r.tiers_pass),
    "lexicon": lambda r: r.lexicon_pass,
    "rules+NER+lexicon": lambda r: _all(r.tiers_pass, r.lexicon_pass),
    "LLM and rules+NER and lexicon": lambda r: _all(_said_pass(r), r.tiers_pass, r.lexicon_pass),
}
"""A built case's verdict per row (PASS when every reader passes); None: not judged (the
LLM not asked, a reader not run)."""

REAL_ROWS: dict[str, Callable[[VerdictResult], bool | None]] = {
    "run's verdict": lambda r: None if r.run_verdict is None else r.run_verdict is Verdict.PASS,
    "rules+NER": lambda r: r.tiers_pass,
    "lexicon": lambda r: r.lexicon_pass,
    "rules+NER+lexicon": lambda r: _all(r.tiers_pass, r.lexicon_pass),
    "run's verdict and lexicon": lambda r: _all(
        None if r.run_verdict is None else r.run_verdict is Verdict.PASS, r.lexicon_pass
    ),
}
"""A real output's verdict per row. `run's verdict` is the pipeline's own final word (the
LLM and the rules and NER, as validate decided in the run): today's verdict."""


def _said_pass(result: VerdictResult) -> bool | None:
    return None if result.said is None else result.said is Verdict.PASS


def _all(*passes: bool | None) -> bool | None:
    if any(p is None for p in passes):
        return None
    return all(passes)


def tally_rows(
    results: Sequence[VerdictResult], rows: dict[str, Callable[[VerdictResult], bool | None]]
) -> dict[str, dict[str, VerdictTally]]:
    """Row → reading → tally of `results`, each judged by the row (unjudged ones skipped)."""
    tallies: dict[str, dict[str, VerdictTally]] = {name: {} for name in rows}
    for result in results:
        for name, passes in rows.items():
            passed = passes(result)
            if passed is not None:
                tallies[name].setdefault(result.reading, VerdictTally()).count(result, passed)
    return tallies


def merged(*tallies: VerdictTally) -> VerdictTally:
    """One tally counting every tally's outputs."""
    total = VerdictTally()
    for tally in tallies:
        total.clean += tally.clean
        total.clean_passed += tally.clean_passed
        total.leaky += tally.leaky
        total.leaky_passed += tally.leaky_passed
        for outcome, (count, passed) in tally.by_outcome.items():
            counts = total.by_outcome.setdefault(outcome, [0, 0])
            counts[0] += count
            counts[1] += passed
    return total


REFUSED = -1e6
"""The margin of an output another reader failed: no allowance of unexplained words passes it."""


def allowance_margins(
    results: Sequence[VerdictResult], reading: str, others: Callable[[VerdictResult], bool | None]
) -> list[Margin]:
    """Per result of `reading` that the other readers judged: −(its unexplained words) where
    they passed it, `REFUSED` where they did not, so PASS at threshold −N − ½ means: the
    other readers pass and at most N words are unexplained."""
    margins = []
    for result in results:
        passed = others(result)
        if result.reading != reading or passed is None or result.lexicon_words is None:
            continue
        margin = -float(len(result.lexicon_words)) if passed else REFUSED
        margins.append(Margin(margin=margin, clean=result.expected is Verdict.PASS))
    return margins


MOST_ALLOWED = 10


def allowance_curves(results: Sequence[VerdictResult]) -> dict[str, dict[str, list[CurvePoint]]]:
    """The allowance curves of `results`, N = 0 to `MOST_ALLOWED`: rules+NER+lexicon, and
    with the LLM where it said."""
    rows = {
        "rules+NER+lexicon": BUILT_ROWS["rules+NER"],
        "LLM and rules+NER and lexicon": BUILT_ROWS["LLM and rules+NER"],
    }
    curves: dict[str, dict[str, list[CurvePoint]]] = {}
    for name, others in rows.items():
        for reading in sorted({r.reading for r in results}):
            margins = allowance_margins(results, reading, others)
            if margins:
                points = [rates_at(margins, -float(n)) for n in range(MOST_ALLOWED + 1)]
                curves.setdefault(name, {})[reading] = points
    return curves


def built_rows(results: Sequence[VerdictResult]) -> dict[str, dict[str, VerdictTally]]:
    """Row (`BUILT_ROWS`) → reading → tally of built cases."""
    return tally_rows(results, BUILT_ROWS)


def add_real(summary: VerdictSummary, real: Sequence[VerdictResult], out: Path) -> VerdictSummary:
    """`summary` with the real outputs' rows (`REAL_ROWS`), written back to `out`."""
    summary = summary.model_copy(update={"real": tally_rows(real, REAL_ROWS)})
    (out / SUMMARY_FILE).write_text(
        json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
    )
    return summary


def reading_margins(results: Sequence[VerdictResult], reading: str) -> list[Margin]:
    """The scored margins of one reading's results (those the engine scored)."""
    return [
        Margin(margin=r.margin, clean=r.expected is Verdict.PASS)
        for r in results
        if r.reading == reading and r.margin is not None
    ]


def load_results(out: Path, cases: Sequence[str]) -> list[VerdictResult]:
    """The results of `cases` (a summary's) in `out/verdicts.jsonl`, the latest of each."""
    path = out / RESULTS_FILE
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    latest = {
        result.case: result
        for result in (VerdictResult.model_validate_json(line) for line in lines if line.strip())
    }
    return [latest[case] for case in cases if case in latest]


def choose_thresholds(
    dev: Sequence[VerdictResult],
    test: Sequence[VerdictResult],
    max_leaky_pass: float = MAX_LEAKY_PASS,
) -> dict[str, ThresholdChoice]:
    """Per reading: the best threshold of the dev results' curve, read on the test results."""
    choices: dict[str, ThresholdChoice] = {}
    for reading in sorted({r.reading for r in test} | {r.reading for r in dev}):
        dev_margins, test_margins = reading_margins(dev, reading), reading_margins(test, reading)
        if not dev_margins and not test_margins:
            continue
        best = verdict_curve(dev_margins, max_leaky_pass).best if dev_margins else None
        test_curve = verdict_curve(test_margins, max_leaky_pass) if test_margins else None
        choices[reading] = ThresholdChoice(
            threshold=best.threshold if best else None,
            dev=best,
            test=rates_at(test_margins, best.threshold) if best and test_margins else None,
            test_best=test_curve.best if test_curve else None,
        )
    return choices


def write_thresholds(choices: dict[str, ThresholdChoice], out: Path) -> Path:
    """Write the choices next to the test run's results."""
    path = out / THRESHOLDS_FILE
    payload = {reading: choice.model_dump(mode="json") for reading, choice in choices.items()}
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return path
