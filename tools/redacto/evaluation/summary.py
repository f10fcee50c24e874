"""Turn per-document scores into rates: per mode, per category, per label, per step.

Rates are micro-averages (sums of counts, then one division), so a long document weighs
more than a short one — the same way a reader experiences leaks. A rate with nothing to
divide by is None, never 0 or 1.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from redacto.document import Category, Mode, Step
from redacto.evaluation.scorer import DocumentScore, LabelTally, Tally


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def ratio(numerator: float, denominator: float) -> float | None:
    """`numerator / denominator`, or None when there is nothing to divide by."""
    return numerator / denominator if denominator else None


def f_beta(precision: float | None, recall: float | None, beta: float = 2.0) -> float | None:
    """F-beta; beta 2 weighs recall four times as much as precision (a leak costs more)."""
    if precision is None or recall is None:
        return None
    if precision == 0 and recall == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


class Metrics(_Model):
    """The redaction-quality rates of a set of documents, with the counts behind them."""

    documents: int
    token_recall: float | None
    token_precision: float | None
    token_f2: float | None
    entity_recall: float | None
    entity_precision: float | None
    entity_f2: float | None
    leak_rate: float | None
    leaky_documents: int
    over_redaction_rate: float | None
    nicked_rate: float | None = None
    """Image mode: non-PII words partly under a box (a neighbour's letter hidden), per
    non-PII word; None in text mode."""
    preserve_violation_rate: float | None
    box_coverage: float | None
    counts: Tally

    @classmethod
    def of(cls, scores: Sequence[DocumentScore]) -> Metrics:
        tally = sum((score.tally for score in scores), Tally())
        token_recall = ratio(tally.protected_words, tally.pii_words)
        token_precision = ratio(
            tally.touched_pii_words, tally.touched_pii_words + tally.over_redacted_words
        )
        entity_recall = ratio(tally.found_entities, tally.pii_entities)
        entity_precision = ratio(tally.correct_predictions, tally.predicted_entities)
        return cls(
            documents=len(scores),
            token_recall=token_recall,
            token_precision=token_precision,
            token_f2=f_beta(token_precision, token_recall),
            entity_recall=entity_recall,
            entity_precision=entity_precision,
            entity_f2=f_beta(entity_precision, entity_recall),
            leak_rate=ratio(tally.pii_words - tally.protected_words, tally.pii_words),
            leaky_documents=sum(score.leaked for score in scores),
            over_redaction_rate=ratio(tally.over_redacted_words, tally.other_words),
            nicked_rate=ratio(tally.nicked_words, tally.image_other_words),
            preserve_violation_rate=ratio(tally.preserve_violations, tally.preserve_spans),
            box_coverage=ratio(tally.covered_pii_area, tally.pii_area),
            counts=tally,
        )


class LabelMetrics(_Model):
    """Recall by gold label; precision by predicted label (when the system names labels)."""

    token_recall: float | None
    entity_recall: float | None
    precision: float | None
    counts: LabelTally


class Classification(_Model):
    """Category accuracy and the confusion matrix `gold -> predicted -> count`."""

    accuracy: float | None
    scored: int
    confusion: dict[str, dict[str, int]]


class Validator(_Model):
    """How far the validator's PASS can be trusted.

    `false_pass_rate` = validator PASS verdicts on documents that still leaked / all its
    PASS verdicts: the chance that the validator's PASS is wrong. It is measured on the
    verdict, not the status, so a model whose PASS the pipeline does not trust (status
    capped at NEEDS_REVIEW) is still measured. `leaky_passed_rate` is the other
    view: of the documents that leaked, how many were waved through. `clean_passed_rate`
    is what a trustworthy PASS must also do: of the documents that leak nothing, how many
    the validator let finish without a person (the bar a manifest's trust is earned by:
    `leaky_passed_rate` near 0 and `clean_passed_rate` high, per mode).
    """

    verdicts: int
    passes: int
    false_passes: int
    false_pass_rate: float | None
    leaky_documents: int
    leaky_passed_rate: float | None
    status_counts: dict[str, int]
    clean_documents: int = 0
    clean_passed_rate: float | None = None
    leaky_left_nothing_rate: float | None = None
    """The "nothing usable left" reading of the same answers (`validator_left_nothing`):
    of the leaky documents, how many a PASS-iff-nothing-usable rule would have passed."""
    clean_left_nothing_rate: float | None = None


class Answers(_Model):
    """How often the model named what is not on the page: of the detect and validate
    answer lines (the items used plus the lines dropped), those naming a value that is not
    in the document. Counted over the documents whose scores keep answers."""

    documents: int
    lines: int
    invented: int
    invention_rate: float | None


class StepCost(_Model):
    """What one step costs: calls, time and tokens, totals and per page."""

    calls: int
    ms_total: float
    ms_mean: float | None
    ms_per_page: float | None
    ttft_ms_mean: float | None
    prompt_tokens: int
    output_tokens: int
    prompt_tokens_per_page: float | None
    output_tokens_per_page: float | None
    parse_errors: int


class Cost(_Model):
    """Cost of a mode: per step and in total, plus throughput."""

    pages: int
    steps: dict[str, StepCost]
    ms_per_page: float | None
    prompt_tokens_per_page: float | None
    output_tokens_per_page: float | None
    pages_per_minute: float | None
    parse_errors: int
    rounds_mean: float | None
    rounds_histogram: dict[str, int]
    errors: int


class ModeSummary(_Model):
    """All figures for one mode of one run."""

    mode: Mode
    overall: Metrics
    by_category: dict[str, Metrics]
    by_label: dict[str, LabelMetrics]
    classification: Classification
    validator: Validator
    cost: Cost
    answers: Answers | None = None
    """None for a system without answers (Presidio) and for runs older than the field."""


def summarize_mode(mode: Mode, scores: Sequence[DocumentScore]) -> ModeSummary:
    """All figures for the scores of one mode."""
    by_category: dict[str, list[DocumentScore]] = {}
    for score in scores:
        by_category.setdefault(score.category.value, []).append(score)
    return ModeSummary(
        mode=mode,
        overall=Metrics.of(scores),
        by_category={
            category.value: Metrics.of(by_category[category.value])
            for category in Category
            if category.value in by_category
        },
        by_label=_by_label(scores),
        classification=_classification(scores),
        validator=_validator(scores),
        cost=_cost(scores),
        answers=_answers(scores),
    )


def _answers(scores: Sequence[DocumentScore]) -> Answers | None:
    kept = [s for s in scores if s.answer_lines is not None and s.invented_lines is not None]
    if not kept:
        return None
    lines = sum(s.answer_lines or 0 for s in kept)
    invented = sum(s.invented_lines or 0 for s in kept)
    return Answers(
        documents=len(kept), lines=lines, invented=invented, invention_rate=ratio(invented, lines)
    )


def _by_label(scores: Iterable[DocumentScore]) -> dict[str, LabelMetrics]:
    totals: dict[str, LabelTally] = {}
    for score in scores:
        for label, counts in score.labels.items():
            totals[label] = totals.get(label, LabelTally()) + counts
    return {
        label: LabelMetrics(
            token_recall=ratio(counts.protected_words, counts.words),
            entity_recall=ratio(counts.found_entities, counts.entities),
            precision=ratio(counts.predicted_correct, counts.predicted),
            counts=counts,
        )
        for label, counts in sorted(totals.items())
    }


def _classification(scores: Iterable[DocumentScore]) -> Classification:
    confusion: dict[str, dict[str, int]] = {}
    scored = correct = 0
    for score in scores:
        if score.predicted_category is None:
            continue
        scored += 1
        correct += score.predicted_category is score.category
        row = confusion.setdefault(score.category.value, {})
        row[score.predicted_category.value] = row.get(score.predicted_category.value, 0) + 1
    return Classification(accuracy=ratio(correct, scored), scored=scored, confusion=confusion)


def _validator(scores: Sequence[DocumentScore]) -> Validator:
    judged = [score for score in scores if score.status is not None]
    passes = [score for score in judged if score.validator_passed]
    false_passes = sum(score.leaked for score in passes)
    leaky = [score for score in judged if score.leaked]
    clean = [score for score in judged if not score.leaked]
    return Validator(
        verdicts=len(judged),
        passes=len(passes),
        false_passes=false_passes,
        false_pass_rate=ratio(false_passes, len(passes)),
        leaky_documents=len(leaky),
        leaky_passed_rate=ratio(sum(s.validator_passed for s in leaky), len(leaky)),
        status_counts=dict(Counter(score.status.value for score in judged if score.status)),
        clean_documents=len(clean),
        clean_passed_rate=ratio(sum(s.validator_passed for s in clean), len(clean)),
        leaky_left_nothing_rate=_left_nothing_rate(leaky),
        clean_left_nothing_rate=_left_nothing_rate(clean),
    )


def _left_nothing_rate(scores: Sequence[DocumentScore]) -> float | None:
    left = [score.validator_left_nothing for score in scores]
    if not left or any(value is None for value in left):
        return None
    return ratio(sum(bool(value) for value in left), len(left))


def _cost(scores: Sequence[DocumentScore]) -> Cost:
    pages = len(scores)
    steps: dict[str, StepCost] = {}
    for step in Step:
        traces = [trace for score in scores for trace in score.steps if trace.step is step]
        if not traces:
            continue
        ms_total = sum(trace.ms for trace in traces)
        ttfts = [trace.ttft_ms for trace in traces if trace.ttft_ms is not None]
        prompt = sum(trace.prompt_tokens or 0 for trace in traces)
        output = sum(trace.output_tokens or 0 for trace in traces)
        steps[step.value] = StepCost(
            calls=len(traces),
            ms_total=ms_total,
            ms_mean=ms_total / len(traces),
            ms_per_page=ratio(ms_total, pages),
            ttft_ms_mean=statistics.fmean(ttfts) if ttfts else None,
            prompt_tokens=prompt,
            output_tokens=output,
            prompt_tokens_per_page=ratio(prompt, pages),
            output_tokens_per_page=ratio(output, pages),
            parse_errors=sum(trace.parse_errors for trace in traces),
        )
    wall_ms = sum(score.wall_ms for score in scores)
    return Cost(
        pages=pages,
        steps=steps,
        ms_per_page=ratio(wall_ms, pages),
        prompt_tokens_per_page=ratio(sum(s.prompt_tokens for s in steps.values()), pages),
        output_tokens_per_page=ratio(sum(s.output_tokens for s in steps.values()), pages),
        pages_per_minute=ratio(pages * 60_000, wall_ms),
        parse_errors=sum(score.parse_errors for score in scores),
        # Systems without rounds (Presidio) record no steps: no rounds to average.
        rounds_mean=statistics.fmean(s.rounds for s in scores) if steps else None,
        rounds_histogram=dict(sorted(Counter(str(s.rounds) for s in scores).items())),
        errors=sum(score.error is not None for score in scores),
    )


class ModeRatio(_Model):
    """Image mode's cost divided by text mode's, over the same documents (measured)."""

    documents: int
    prompt_tokens_per_page: float | None
    output_tokens_per_page: float | None
    ms_per_page: float | None
    ms_per_step: dict[str, float | None]


def mode_ratio(image: ModeSummary, text: ModeSummary) -> ModeRatio:
    """Image ÷ text for tokens and time per page and per step."""

    def divide(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b else None

    ms_per_step = {
        step: divide(image.cost.steps[step].ms_per_page, text.cost.steps[step].ms_per_page)
        for step in image.cost.steps
        if step in text.cost.steps
    }
    return ModeRatio(
        documents=min(image.cost.pages, text.cost.pages),
        prompt_tokens_per_page=divide(
            image.cost.prompt_tokens_per_page, text.cost.prompt_tokens_per_page
        ),
        output_tokens_per_page=divide(
            image.cost.output_tokens_per_page, text.cost.output_tokens_per_page
        ),
        ms_per_page=divide(image.cost.ms_per_page, text.cost.ms_per_page),
        ms_per_step=ms_per_step,
    )
