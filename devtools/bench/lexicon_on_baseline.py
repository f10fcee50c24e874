"""The residual check on a committed text-mode baseline's outputs: leaky/clean × flagged.

    python -m devtools.bench.lexicon_on_baseline SUITE eval/baselines/RUN/results.jsonl

Each text-mode result's document (`eval/suites/SUITE.jsonl`) is masked at the run's
predicted spans (`pipeline.second_opinion.MaskedText`, as validate masks it) and read by
`redacto.lexicon.residual_words` under the category the run used, the language detected.
*Leaky* is the eval's own `DocumentScore.leaked`; *combined PASS* is the validator's PASS
with no unexplained word. Prints the counts, the unexplained words by kind, and the leaky
documents no word flagged. The figures go to docs/lexicon.md.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from redacto.document import Category, Span
from redacto.evaluation.scorer import DocumentScore
from redacto.lexicon import residual_words, unexplained
from redacto.pipeline.second_opinion import MaskedText


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("results", type=Path)
    args = parser.parse_args()
    lines = Path(f"eval/suites/{args.suite}.jsonl").read_text(encoding="utf-8").splitlines()
    texts = {row["id"]: row for row in map(json.loads, lines)}
    flagged: Counter[tuple[str, str]] = Counter()
    passed: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    missed = []
    for line in args.results.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["mode"] != "text":
            continue
        score = DocumentScore.model_validate(row["score"])
        document = texts[row["document_id"]]
        spans = [Span(start=s["start"], end=s["end"]) for s in row["prediction"]["spans"]]
        masked = MaskedText.of(document["text"], spans)
        category = Category(score.predicted_category or document["category"])
        words = unexplained(residual_words(masked.text, category))
        state = "leaky" if score.leaked else "clean"
        flagged[(state, "flagged" if words else "not flagged")] += 1
        passed[(state, "validator PASS")] += int(score.validator_passed)
        passed[(state, "combined PASS")] += int(score.validator_passed and not words)
        kinds.update(str(word.kind) for word in words)
        if score.leaked and not words:
            missed.append(row["document_id"])
    print("documents:", dict(sorted(flagged.items())))
    print("PASS:", dict(sorted(passed.items())))
    print("unexplained words by kind:", dict(kinds))
    print("leaky and not flagged:", missed)


if __name__ == "__main__":
    main()
