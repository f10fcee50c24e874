"""Small inline-SVG charts for `report.html` (matplotlib, headless).

Without matplotlib the report is still written, just without charts.
"""

from __future__ import annotations

import io

from redacto.evaluation.results import RunSummary


def summary_plots(summary: RunSummary) -> list[str]:
    """SVG strings: recall and leak per category, recall per label, time per step."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    svgs = [
        _grouped_bars(
            plt,
            "Token recall per category",
            {
                mode.value: {c: m.token_recall for c, m in ms.by_category.items()}
                for mode, ms in summary.modes.items()
            },
            percent=True,
        ),
        _grouped_bars(
            plt,
            "Token recall per label",
            {
                mode.value: {label: m.token_recall for label, m in ms.by_label.items()}
                for mode, ms in summary.modes.items()
            },
            percent=True,
        ),
        _grouped_bars(
            plt,
            "Milliseconds per page, per step",
            {
                mode.value: {step: c.ms_per_page for step, c in ms.cost.steps.items()}
                for mode, ms in summary.modes.items()
            },
            percent=False,
        ),
    ]
    return [svg for svg in svgs if svg]


def _grouped_bars(
    plt, title: str, series: dict[str, dict[str, float | None]], *, percent: bool
) -> str:
    groups = sorted({key for values in series.values() for key in values})
    if not groups:
        return ""
    figure, axes = plt.subplots(figsize=(max(4.5, 0.7 * len(groups) + 2), 3.2), dpi=100)
    width = 0.8 / max(len(series), 1)
    for offset, (name, values) in enumerate(series.items()):
        heights = [(values.get(g) or 0.0) * (100 if percent else 1) for g in groups]
        positions = [i + offset * width for i in range(len(groups))]
        axes.bar(positions, heights, width=width, label=name)
    axes.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(groups))])
    axes.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    axes.set_title(title, fontsize=10)
    if percent:
        axes.set_ylim(0, 100)
        axes.set_ylabel("%")
    axes.legend(fontsize=8)
    figure.tight_layout()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    plt.close(figure)
    svg = buffer.getvalue()
    return svg[svg.index("<svg") :]
