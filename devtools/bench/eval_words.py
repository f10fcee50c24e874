"""The words behind a finished `redacto eval run`: a headline row, then what it got wrong.

python -m devtools.bench.eval_words out/eval/styled-ner out/eval/styled-rules-ner
python -m devtools.bench.eval_words --top 8 --markdown --by-style out/eval/styled-*
python -m devtools.bench.eval_words --first 60 --by-style --style-suite outside-styled \
    eval/baselines/redacto-270m-step3446-outside-test-text   # the same texts, as written

Per run (text or image mode, whichever the run holds): token recall, precision and F2,
leaky documents, and the words redacted on the documents that have nothing to find; then
the most frequent over-redacted words (false words) and, per gold label, the most
frequent leaked words (missed words); with --by-style, token recall, precision and leaky
texts per writing style.
Read from `results.jsonl` (each document's misses, capped by the scorer at 40 per kind,
far above these short texts' counts) and the suite.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from redacto.corpus import load_suite
from redacto.evaluation.results import read_info, read_results, read_summary


def _word(text: str, start: int, end: int) -> str:
    return text[start:end].strip(".,;:!?\"'()").lower() or text[start:end]


def describe(
    run_dir: Path,
    top: int,
    markdown: bool,
    by_style: bool = False,
    first: int | None = None,
    style_suite: str | None = None,
) -> str:
    """A run's headline and its most frequent false and missed words; with `first`, only
    the run's first documents in suite order (the headline then summed from their tallies,
    so a run cut short, with no summary yet, can be read beside a longer one)."""
    info = read_info(run_dir)
    if info is None:
        raise SystemExit(f"{run_dir} holds no run.json: is it an eval run folder?")
    config = info.config
    suite = load_suite(config.suite)
    texts = {d.id: d.text for d in suite}
    styles = {d.id: d.template.rsplit(":", 1)[-1] for d in suite}
    if style_suite is not None:  # the source run's texts, grouped by their re-typed style
        styles = {
            d.id.replace(f"{style_suite}-", f"{config.suite}-", 1): d.template.rsplit(":", 1)[-1]
            for d in load_suite(style_suite)
        }
    per_style: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    empty = {d.id for d in suite if not d.pii}
    results = read_results(run_dir)
    if first is not None:
        in_split = [d.id for d in suite if config.split is None or d.split == config.split]
        chosen = set(in_split[:first])
        results = [r for r in results if r.document_id in chosen]
    false_words: Counter[str] = Counter()
    missed: dict[str, Counter[str]] = defaultdict(Counter)
    empty_docs = empty_words = empty_hit = 0
    for result in results:
        score = result.score
        text = texts[score.document_id]
        counts = per_style[styles.get(score.document_id, "?")]
        counts[0] += score.tally.pii_words
        counts[1] += score.tally.protected_words
        counts[2] += 1
        counts[3] += score.tally.protected_words < score.tally.pii_words
        counts[4] += score.tally.touched_pii_words
        counts[5] += score.tally.over_redacted_words
        if score.document_id in empty:
            empty_docs += 1
            empty_words += score.tally.over_redacted_words
            empty_hit += score.tally.over_redacted_words > 0
        for miss in score.misses:
            if miss.kind == "over_redaction":
                false_words[_word(text, miss.start, miss.end)] += 1
            elif miss.kind == "leak":
                missed[miss.label][_word(text, miss.start, miss.end)] += 1
    lines = []
    for mode, documents, recall, precision, f2, leaky in _headlines(run_dir, results, first):
        row = (
            f"{config.detectors} ({mode}) | {documents} | {_rate(recall)} | "
            f"{_rate(precision)} | {_rate(f2)} | {leaky} | "
            f"{empty_words} words on {empty_hit} of {empty_docs}"
        )
        lines.append(f"| {row} |" if markdown else row)
    if by_style:
        for style, counts in sorted(per_style.items()):
            words, protected, documents, leaky, touched, over = counts
            recall = _rate(protected / words if words else None)
            precision = _rate(touched / (touched + over) if touched + over else None)
            lines.append(
                f"  style {style}: {documents} texts, recall {recall} of {words} words, "
                f"precision {precision}, {leaky} leaky"
            )
    lines.append(f"  false words: {_top(false_words, top)}")
    for label in sorted(missed, key=lambda name: -sum(missed[name].values())):
        total = sum(missed[label].values())
        lines.append(f"  missed {label} ({total}): {_top(missed[label], top)}")
    return "\n".join(lines)


def _headlines(run_dir: Path, results: list, first: int | None) -> list[tuple]:
    """(mode, documents, recall, precision, F2, leaky documents) per mode: the summary's,
    or with `first` summed from the chosen documents' tallies as the summary sums them."""
    if first is None:
        return [
            (
                mode,
                m.overall.documents,
                m.overall.token_recall,
                m.overall.token_precision,
                m.overall.token_f2,
                m.overall.leaky_documents,
            )
            for mode, m in read_summary(run_dir).modes.items()
        ]
    rows = []
    for mode in sorted({r.mode for r in results}, key=str):
        tallies = [r.score.tally for r in results if r.mode == mode]
        words = sum(t.pii_words for t in tallies)
        protected = sum(t.protected_words for t in tallies)
        touched = sum(t.touched_pii_words for t in tallies)
        over = sum(t.over_redacted_words for t in tallies)
        recall = protected / words if words else None
        precision = touched / (touched + over) if touched + over else None
        f2 = (
            5 * precision * recall / (4 * precision + recall)
            if recall is not None and precision is not None and (precision or recall)
            else None
        )
        leaky = sum(t.protected_words < t.pii_words for t in tallies)
        rows.append((getattr(mode, "value", mode), len(tallies), recall, precision, f2, leaky))
    return rows


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _top(counts: Counter[str], top: int) -> str:
    return ", ".join(f"`{w}` {n}" if n > 1 else f"`{w}`" for w, n in counts.most_common(top))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="finished eval run folders")
    parser.add_argument("--top", type=int, default=10, help="words shown per list")
    parser.add_argument("--markdown", action="store_true", help="headline as a table row")
    parser.add_argument(
        "--by-style",
        action="store_true",
        help=(
            "token recall, precision and leaky texts per writing style (outside-styled: "
            "the last field of a document's template name)"
        ),
    )
    parser.add_argument(
        "--first",
        type=int,
        help="only the first N documents of the run's suite and split (runs of unequal --limit)",
    )
    parser.add_argument(
        "--style-suite",
        help=(
            "with --by-style on a run of the source suite (outside): group its texts by the "
            "style this suite (outside-styled) gave each"
        ),
    )
    arguments = parser.parse_args()
    print("run | docs | token R | token P | token F2 | leaky docs | false words, empty texts")
    for run_dir in arguments.runs:
        print(
            describe(
                run_dir,
                arguments.top,
                arguments.markdown,
                arguments.by_style,
                arguments.first,
                arguments.style_suite,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
