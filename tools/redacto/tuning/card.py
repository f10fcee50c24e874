"""The data card that sits beside a committed adapter: what it learned from, and how long."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from redacto.tuning.train import ADAPTER_FILES, STARTED_FROM, StepLog, TuneConfig, TuneResult

LOSS_ROWS = 10


def loss_table(steps: list[StepLog], rows: int = LOSS_ROWS) -> str:
    """A Markdown table of the mean training loss over equal runs of steps."""
    if not steps:
        return "(no steps)"
    size = max(1, -(-len(steps) // rows))
    lines = ["| steps | mean loss | mean s/step |", "|---|---|---|"]
    for start in range(0, len(steps), size):
        part = steps[start : start + size]
        loss = sum(s.loss for s in part) / len(part)
        seconds = sum(s.seconds for s in part) / len(part)
        lines.append(f"| {part[0].step}–{part[-1].step} | {loss:.3f} | {seconds:.1f} |")
    return "\n".join(lines)


def _started_from(config: TuneConfig) -> list[str]:
    """The card's row for the adapter the run started from, if it did (STARTED_FROM)."""
    record = config.run_dir / STARTED_FROM
    if not record.exists():
        return []
    started = json.loads(record.read_text())
    return [
        f"| started from | `{started['adapter']}`, sha256 {started['sha256'][:12]} (its own "
        "card, with the steps before these, is in the project's history) |"
    ]


def publish_adapter(
    result: TuneResult,
    config: TuneConfig,
    steps: list[StepLog],
    summary: dict[str, int],
    source: str,
    base: str,
    target: Path,
) -> None:
    """Copy the run's adapter to `target` and write its README (the data card)."""
    started = _started_from(config)
    target.mkdir(parents=True, exist_ok=True)
    for name in ADAPTER_FILES:
        shutil.copyfile(result.adapter_dir / name, target / name)
    size_mb = (target / "adapter_model.safetensors").stat().st_size / 1e6
    settings = "\n".join(
        [
            "| setting | value |",
            "|---|---|",
            f"| LoRA | rank {config.lora_rank}, alpha {config.lora_alpha}, on q/k/v/o and "
            "gate/up/down projections; embeddings and LM head frozen |",
            f"| optimiser | AdamW, lr {config.learning_rate}, warm-up {config.warmup_steps} "
            "steps, batch 1, grad-norm clip 1.0 |",
            "| loss | cross-entropy on the answer tokens and `<end_of_turn>` only, weighted "
            f"per {config.loss_weighting} (`TuneConfig.loss_weighting`) |",
            *started,
            f"| steps | {result.steps} (one example per step; "
            f"stopped by {result.stopped_because}) |",
            f"| wall time | {result.total_seconds / 60:.1f} min on {config.threads} CPU threads |",
            f"| peak memory | {result.peak_rss_mb / 1024:.2f} GiB RSS |",
            f"| adapter | {size_mb:.1f} MB safetensors |",
        ]
    )
    kinds = "\n".join(f"| {kind} | {count} |" for kind, count in summary.items())
    card = f"""# LoRA adapter for `{base}`: the pipeline's four steps

Built by `redacto model tune`; merged into the base by `redacto model build redacto-270m`
(base from PyPI + this adapter → merge → convert → int8). See docs/tuning.md.

## Training data

{source}: for each document, the exact (system, user) every pipeline step sends with
the prompts in `prompts/`, and the gold answer (classify lines; `INDEX:LABEL` per
150-element chunk of the rendered page's gold words; `LABEL: value` lines; the redacted
text numbered by the pipeline; validate `PASS` on complete and on over-redacted outputs,
`FAIL` + the missed items on ones that leave one value, or one word of a value, readable:
`redacto.tuning.redactions`). Held out: the `test` split (other templates and values).

| step-mode | examples |
|---|---|
{kinds}

{result.examples} examples fit in {config.max_length} tokens; {result.skipped_too_long} longer
ones were skipped.

## Training

{settings}

## Loss

{loss_table(steps)}
"""
    (target / "README.md").write_text(card, encoding="utf-8")
