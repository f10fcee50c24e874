"""Texts for tests that compare two ways of running the rules: every corpus text, and the
texts of the shared rule vectors."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITES = sorted((ROOT / "eval" / "suites").glob("*.jsonl"))
VECTORS = sorted((ROOT / "tests" / "vectors" / "rules").glob("*.json"))


@cache
def corpus_texts() -> tuple[str, ...]:
    """Every suite document's text, then every rule vector's."""
    texts = [
        json.loads(line)["text"] for suite in SUITES for line in suite.read_text().splitlines()
    ]
    vectors = [json.loads(path.read_text()) for path in VECTORS]
    texts += [vector["text"] for vector in vectors if "text" in vector]
    return tuple(texts)
