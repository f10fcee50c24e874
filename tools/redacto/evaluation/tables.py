"""The report's tables as plain rows, rendered once as Markdown and once as HTML.

Keeping the numbers in one place means `report.md` and `report.html` can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from redacto.evaluation.results import RunSummary
from redacto.evaluation.summary import Metrics, ModeSummary
from redacto.pipeline.state import MAX_ROUNDS


@dataclass(frozen=True)
class Table:
    """A titled table of already formatted cells."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""

    def markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        if self.note:
            lines += [self.note, ""]
        lines.append("| " + " | ".join(self.header) + " |")
        lines.append("|" + "|".join("---" for _ in self.header) + "|")
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines) + "\n"


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def num(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


_QUALITY_HEADER = [
    "docs",
    "token R",
    "token P",
    "token F2",
    "entity R",
    "entity P",
    "entity F2",
    "leak rate",
    "leaky docs",
    "over-redaction",
    "preserve viol.",
    "box coverage",
    "nicked words",
]


def _quality_cells(metrics: Metrics) -> list[str]:
    return [
        str(metrics.documents),
        pct(metrics.token_recall),
        pct(metrics.token_precision),
        pct(metrics.token_f2),
        pct(metrics.entity_recall),
        pct(metrics.entity_precision),
        pct(metrics.entity_f2),
        pct(metrics.leak_rate),
        str(metrics.leaky_documents),
        pct(metrics.over_redaction_rate),
        pct(metrics.preserve_violation_rate),
        pct(metrics.box_coverage),
        pct(metrics.nicked_rate),
    ]


def _run_label(run: RunSummary) -> str:
    """A peer row's name: its system, and the choices that set it apart from a plain run."""
    config = run.info.config
    choices = [f"{config.image_reading.value} reading"] if config.image_reading else []
    if config.max_rounds != MAX_ROUNDS:
        choices.append(f"{config.max_rounds} round(s)")
    if config.constrained_decoding:
        choices.append(f"constrained decoding {config.constrained_decoding.value}")
    return f"{config.system} ({', '.join(choices)})" if choices else config.system


def headline_table(summary: RunSummary, peer: RunSummary | None = None) -> Table:
    """One row per mode (and per mode of a peer run, e.g. Presidio): the first numbers."""
    runs = [("", summary)] + ([(f"{_run_label(peer)}: ", peer)] if peer else [])
    rows = []
    for prefix, run in runs:
        for mode, mode_summary in run.modes.items():
            rows.append(
                [
                    prefix + mode.value,
                    *_quality_cells(mode_summary.overall),
                    pct(mode_summary.classification.accuracy),
                    pct(mode_summary.validator.false_pass_rate),
                    num(mode_summary.cost.rounds_mean, 2),
                    num(mode_summary.cost.pages_per_minute, 2),
                    str(mode_summary.cost.parse_errors),
                    str(mode_summary.cost.errors),
                ]
            )
    return Table(
        "Headline",
        [
            "mode",
            *_QUALITY_HEADER,
            "class. acc.",
            "false PASS",
            "rounds",
            "pages/min",
            "parse errors",
            "errors",
        ],
        rows,
        note="R recall, P precision, F2 weighs recall 4× precision. Leak rate = gold PII words "
        "left readable; false PASS = PASS verdicts on documents that still leaked."
        + (
            f" Peer rows: {peer.info.config.suite}"
            f"{'/' + peer.info.config.split if peer and peer.info.config.split else ''}, "
            f"{peer.documents} documents."
            if peer
            else ""
        ),
    )


def category_table(mode_summary: ModeSummary) -> Table:
    rows = [[category, *_quality_cells(m)] for category, m in mode_summary.by_category.items()]
    return Table(f"Per category ({mode_summary.mode.value})", ["category", *_QUALITY_HEADER], rows)


def label_table(mode_summary: ModeSummary) -> Table:
    rows = [
        [
            label,
            str(m.counts.words),
            pct(m.token_recall),
            str(m.counts.entities),
            pct(m.entity_recall),
            str(m.counts.predicted),
            pct(m.precision),
        ]
        for label, m in mode_summary.by_label.items()
    ]
    return Table(
        f"Per label ({mode_summary.mode.value})",
        ["label", "gold words", "token R", "gold entities", "entity R", "predicted", "P"],
        rows,
        note="Recall by gold label; precision by the label the system gave (if it gives any).",
    )


def confusion_table(mode_summary: ModeSummary) -> Table:
    confusion = mode_summary.classification.confusion
    predicted = sorted({p for row in confusion.values() for p in row})
    rows = [
        [gold] + [str(confusion[gold].get(p, 0)) for p in predicted] for gold in sorted(confusion)
    ]
    return Table(
        f"Classification ({mode_summary.mode.value}): gold ↓ predicted →",
        ["gold", *predicted],
        rows,
        note=f"accuracy {pct(mode_summary.classification.accuracy)} over "
        f"{mode_summary.classification.scored} documents",
    )


def validator_table(summary: RunSummary) -> Table:
    rows = []
    for mode, ms in summary.modes.items():
        v = ms.validator
        statuses = ", ".join(f"{k} {n}" for k, n in sorted(v.status_counts.items()))
        rows.append(
            [
                mode.value,
                str(v.passes),
                str(v.false_passes),
                pct(v.false_pass_rate),
                str(v.leaky_documents),
                pct(v.leaky_passed_rate),
                str(v.clean_documents),
                pct(v.clean_passed_rate),
                pct(v.leaky_left_nothing_rate),
                pct(v.clean_left_nothing_rate),
                statuses or "—",
            ]
        )
    return Table(
        "Validator",
        [
            "mode",
            "PASS",
            "false PASS",
            "false-PASS rate",
            "leaky docs",
            "leaky & PASS",
            "clean docs",
            "clean & PASS",
            "leaky & nothing usable named",
            "clean & nothing usable named",
            "status",
        ],
        rows,
    )


def answers_table(summary: RunSummary) -> Table | None:
    """Per mode: how many detect and validate answer lines named a value not on the page."""
    rows = [
        [mode.value, str(a.documents), str(a.lines), str(a.invented), pct(a.invention_rate)]
        for mode, ms in summary.modes.items()
        if (a := ms.answers) is not None
    ]
    if not rows:
        return None
    return Table(
        "Answers: values named that are not in the document",
        ["mode", "docs", "answer lines", "invented", "invention rate"],
        rows,
        note="Answer lines: the detect and validate items the pipeline used plus every line "
        "it dropped; each run's results.jsonl keeps them (`named`, `rejected` with reasons).",
    )


def cost_table(summary: RunSummary) -> Table:
    """Per step and mode: calls, ms, tokens per page — image and text side by side."""
    rows = []
    for mode, ms in summary.modes.items():
        for step, cost in ms.cost.steps.items():
            rows.append(
                [
                    mode.value,
                    step,
                    str(cost.calls),
                    num(cost.ms_mean, 0),
                    num(cost.ms_per_page, 0),
                    num(cost.ttft_ms_mean, 0),
                    num(cost.prompt_tokens_per_page, 0),
                    num(cost.output_tokens_per_page, 0),
                    str(cost.parse_errors),
                ]
            )
        rows.append(
            [
                mode.value,
                "total",
                "",
                "",
                num(ms.cost.ms_per_page, 0),
                "",
                num(ms.cost.prompt_tokens_per_page, 0),
                num(ms.cost.output_tokens_per_page, 0),
                str(ms.cost.parse_errors),
            ]
        )
    return Table(
        "Cost per step",
        [
            "mode",
            "step",
            "calls",
            "ms/call",
            "ms/page",
            "TTFT ms",
            "prompt tok/page",
            "output tok/page",
            "parse errors",
        ],
        rows,
        note="Total ms/page is wall time per document (OCR included in image mode).",
    )


def ratio_table(summary: RunSummary) -> Table | None:
    ratio = summary.image_vs_text
    if ratio is None:
        return None
    rows = [
        ["prompt tokens / page", num(ratio.prompt_tokens_per_page, 2)],
        ["output tokens / page", num(ratio.output_tokens_per_page, 2)],
        ["ms / page", num(ratio.ms_per_page, 2)],
    ] + [[f"ms / page, {step}", num(value, 2)] for step, value in ratio.ms_per_step.items()]
    return Table(
        "Image ÷ text, same documents (measured)",
        ["quantity", "image ÷ text"],
        rows,
    )
