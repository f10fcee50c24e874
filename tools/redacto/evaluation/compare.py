"""`eval compare A B`: what got better or worse from run A to run B.

Per metric (each knows whether higher or lower is better) and per document (leaked words,
over-redacted words, preserve violations), and which documents' outputs differ at all
(`same_outputs`: everything the system decided, timing aside), so a change that should
not alter any output — a refactor — is checked against a committed baseline by one
command. Only modes and documents present in both runs are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from redacto.document import Frozen, Mode
from redacto.evaluation.prediction import Prediction
from redacto.evaluation.results import DocumentResult, read_results, read_summary
from redacto.evaluation.summary import ModeSummary

Verdict = Literal["better", "worse", "same", "n/a"]

# name → (how to read it from a mode summary, True when higher is better)
_METRICS: dict[str, tuple[Callable[[ModeSummary], float | None], bool]] = {
    "token recall": (lambda s: s.overall.token_recall, True),
    "token precision": (lambda s: s.overall.token_precision, True),
    "token F2": (lambda s: s.overall.token_f2, True),
    "entity recall": (lambda s: s.overall.entity_recall, True),
    "entity precision": (lambda s: s.overall.entity_precision, True),
    "entity F2": (lambda s: s.overall.entity_f2, True),
    "leak rate": (lambda s: s.overall.leak_rate, False),
    "leaky documents": (lambda s: s.overall.leaky_documents, False),
    "over-redaction rate": (lambda s: s.overall.over_redaction_rate, False),
    "preserve violation rate": (lambda s: s.overall.preserve_violation_rate, False),
    "box coverage": (lambda s: s.overall.box_coverage, True),
    "nicked words": (lambda s: s.overall.nicked_rate, False),
    "classification accuracy": (lambda s: s.classification.accuracy, True),
    "validator false-PASS rate": (lambda s: s.validator.false_pass_rate, False),
    "rounds (mean)": (lambda s: s.cost.rounds_mean, False),
    "ms per page": (lambda s: s.cost.ms_per_page, False),
    "prompt tokens per page": (lambda s: s.cost.prompt_tokens_per_page, False),
    "output tokens per page": (lambda s: s.cost.output_tokens_per_page, False),
    "pages per minute": (lambda s: s.cost.pages_per_minute, True),
    "parse errors": (lambda s: s.cost.parse_errors, False),
    "errors": (lambda s: s.cost.errors, False),
}

# Differences smaller than this (relative to the larger value) are noise, not news.
_TOLERANCE = 1e-9


class MetricChange(Frozen):
    mode: Mode
    metric: str
    a: float | None
    b: float | None
    verdict: Verdict


class DocumentChange(Frozen):
    """One document whose leaks, over-redactions or preserve violations changed."""

    document_id: str
    mode: Mode
    leaked: tuple[int, int]
    over_redacted: tuple[int, int]
    preserve_violations: tuple[int, int]
    verdict: Verdict


class Comparison(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: str
    b: str
    metrics: list[MetricChange]
    documents: list[DocumentChange]
    compared_documents: int
    changed_outputs: list[tuple[str, Mode]]
    """Documents (id, mode) whose outputs differ from A to B, timing aside."""

    def counts(self) -> dict[str, int]:
        """How many documents got better and worse."""
        return {
            verdict: sum(d.verdict == verdict for d in self.documents)
            for verdict in ("better", "worse")
        }


def _verdict(a: float | None, b: float | None, higher_is_better: bool) -> Verdict:
    if a is None or b is None:
        return "n/a"
    if abs(a - b) <= _TOLERANCE * max(abs(a), abs(b), 1.0):
        return "same"
    return "better" if (b > a) == higher_is_better else "worse"


def compare_runs(run_a: Path, run_b: Path) -> Comparison:
    """Compare two finished run directories, metric by metric and document by document."""
    summary_a, summary_b = read_summary(run_a), read_summary(run_b)
    metrics = [
        MetricChange(
            mode=mode, metric=name, a=read(sa), b=read(sb), verdict=_verdict(read(sa), read(sb), up)
        )
        for mode, sa in summary_a.modes.items()
        if (sb := summary_b.modes.get(mode)) is not None
        for name, (read, up) in _METRICS.items()
    ]
    results_a = {(r.document_id, r.mode): r for r in read_results(run_a)}
    results_b = {(r.document_id, r.mode): r for r in read_results(run_b)}
    shared = sorted(set(results_a) & set(results_b))
    changes = [_document_change(results_a[key], results_b[key]) for key in shared]
    return Comparison(
        a=str(run_a),
        b=str(run_b),
        metrics=metrics,
        documents=[change for change in changes if change.verdict != "same"],
        compared_documents=len(shared),
        changed_outputs=[
            key
            for key in shared
            if not same_outputs(results_a[key].prediction, results_b[key].prediction)
        ],
    )


def same_outputs(a: Prediction, b: Prediction) -> bool:
    """Whether two runs on one document gave the same outputs: spans or boxes, category,
    status, verdict, rounds, every answer line named or rejected, each model call's tokens.

    Timing is left out — the wall time, each call's time and time to first token — and so
    are the output tokens of a call stopped early (how many the model made before the stop
    took effect varies run to run; what it answered up to the stop does not).
    """
    return _outputs(a) == _outputs(b)


def _outputs(prediction: Prediction) -> object:
    untimed = prediction.model_dump(mode="json", exclude={"wall_ms"})
    for step in untimed["steps"]:
        del step["ms"], step["ttft_ms"]
        if step["stopped"]:
            del step["output_tokens"]
    return untimed


def _document_change(a: DocumentResult, b: DocumentResult) -> DocumentChange:
    def figures(result: DocumentResult) -> tuple[int, int, int]:
        tally = result.score.tally
        return (
            tally.pii_words - tally.protected_words,
            tally.over_redacted_words,
            tally.preserve_violations,
        )

    fa, fb = figures(a), figures(b)
    # Leaks decide first (a leak is the harm we exist to prevent); then the other two.
    verdict: Verdict = "same"
    for va, vb in zip(fa, fb, strict=True):
        if va != vb:
            verdict = "better" if vb < va else "worse"
            break
    return DocumentChange(
        document_id=a.document_id,
        mode=a.mode,
        leaked=(fa[0], fb[0]),
        over_redacted=(fa[1], fb[1]),
        preserve_violations=(fa[2], fb[2]),
        verdict=verdict,
    )


def comparison_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown: metrics table, then changed documents."""

    def show(value: float | None) -> str:
        return "—" if value is None else f"{value:.4g}"

    lines = [
        f"# {comparison.a} → {comparison.b}",
        "",
        "| mode | metric | A | B | |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {m.mode.value} | {m.metric} | {show(m.a)} | {show(m.b)} | {m.verdict} |"
        for m in comparison.metrics
    ]
    counts = comparison.counts()
    changed = comparison.changed_outputs
    lines += [
        "",
        f"{comparison.compared_documents} documents compared: {counts['better']} better, "
        f"{counts['worse']} worse (leaked words first, then over-redaction, then preserve); "
        f"outputs identical on {comparison.compared_documents - len(changed)}, "
        f"different on {len(changed)} (timing aside).",
    ]
    if changed:
        lines += ["", "Outputs differ: " + ", ".join(f"{i} ({m.value})" for i, m in changed) + "."]
    lines += [
        "",
        "| document | mode | leaked A→B | over-redacted A→B | preserve A→B | |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {d.document_id} | {d.mode.value} | {d.leaked[0]}→{d.leaked[1]} | "
        f"{d.over_redacted[0]}→{d.over_redacted[1]} | "
        f"{d.preserve_violations[0]}→{d.preserve_violations[1]} | {d.verdict} |"
        for d in sorted(comparison.documents, key=lambda d: (d.verdict, d.document_id))
    ]
    return "\n".join(lines) + "\n"
