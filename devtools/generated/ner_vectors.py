"""Write the NER tier's golden vectors from the real Rampart model; check them.

    python -m devtools.generated --check ner-vectors   # exit 1, naming each stale file
    python -m devtools.generated --write ner-vectors   # rewrite tests/vectors/ner/

One file per text of `ner_vector_texts.py` (English and French, long pages over one
window, Unicode edge cases). Each holds what every stage of the tier made of the text:
the WordPiece tokens (ids and code-point offsets) and their tokenizer words, the windows
with each token's best label and probability (and, for a short text, every logit), each
token's reading (best label, probability) and hit, the word hits, the joined spans and the
spans kept under the category. The Kotlin port tests its tokenizer on `tokens`, its
decoding on `windows` without running ONNX, and its runner on all of it. Format:
`tests/vectors/README.md`, "ner/".

Tokens, decisions and spans must match exactly; logits and probabilities are compared
within `TOLERANCE` (ONNX Runtime's kernels may round differently on another CPU).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from devtools.generated.ner_vector_texts import NER_TEXTS, NerText
from redacto.document import Category
from redacto.ner import ner_session, trace_ner
from redacto.ner.decode import THRESHOLD, softmax_best
from redacto.ner.runtime import WindowOutput
from redacto.prompts import PromptLibrary

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "ner"
DIGITS = 4
"""Decimals kept of each logit and probability: enough for every decision at 0.5."""
TOLERANCE = 2e-3

Json = dict[str, Any]
LOGITS_UP_TO = 128
"""Texts of at most this many tokens keep every logit (Kotlin checks its softmax on them);
longer ones keep each token's best label and probability, which is all decoding reads (the
four long pages would weigh 2 MB with their logits)."""


def _window(output: WindowOutput, with_logits: bool) -> Json:
    """One window: its token range, each token's best label id and probability, and (for a
    short text) the logits."""
    best = []
    for row in output.logits:
        label, probability = softmax_best([float(v) for v in row])
        best.append([label, round(probability, DIGITS)])
    window: Json = {"start": output.window.start, "end": output.window.end, "best": best}
    if with_logits:
        window["logits"] = [[round(float(v), DIGITS) for v in row] for row in output.logits]
    return window


def vector(case: NerText, prompts: PromptLibrary) -> Json:
    """The vector of one text, as the Python tier reads it now."""
    name, description, category_name, text = case
    category = Category(category_name)
    allowed = prompts.category_labels(category)
    session = ner_session()
    trace = trace_ner(text, category, allowed)
    reading = trace.reading
    _, word_ids = session.tokenize(text)
    return {
        "name": name,
        "description": description,
        "category": category.value,
        "allowed_labels": list(allowed),
        "text": text,
        "settings": {
            "window_tokens": session.window_tokens,
            "overlap_tokens": session.overlap_tokens,
            "threshold": THRESHOLD,
            "labels": list(session.labels),
            "cls_id": session.cls_id,
            "sep_id": session.sep_id,
        },
        "tokens": [[t.id, t.start, t.end] for t in reading.tokens],
        "word_ids": word_ids,
        "windows": [
            _window(output, len(reading.tokens) <= LOGITS_UP_TO) for output in reading.windows
        ],
        "readings": [
            [r.label, round(r.score, DIGITS), r.entity(THRESHOLD)] for r in reading.readings
        ],
        "word_hits": [[w.start, w.end, w.label, w.entity] for w in trace.words],
        "joined": [[s.start, s.end, s.label, list(s.entities)] for s in trace.joined],
        "spans": [[s.start, s.end, s.label, text[s.start : s.end]] for s in trace.kept],
    }


def render(data: Json) -> str:
    """One top-level key a line, one token or window a line: small files, readable diffs."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], list | dict):
            rows = ",\n  ".join(compact(row) for row in value)
            lines.append(f"{compact(key)}: [\n  {rows}\n ]")
        else:
            lines.append(f"{compact(key)}: {compact(value)}")
    return "{\n " + ",\n ".join(lines) + "\n}\n"


def _numbers_close(expected: Any, actual: Any) -> bool:
    """Equal, with floats within TOLERANCE, everything else exact."""
    if isinstance(expected, float) or isinstance(actual, float):
        return isinstance(expected, int | float) and abs(expected - actual) <= TOLERANCE
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            _numbers_close(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            _numbers_close(expected[k], actual[k]) for k in expected
        )
    return bool(expected == actual)


def same(stored: str | bytes, rendered: str | bytes) -> bool:
    """Whether a committed vector says what the tier makes now: tokens, decisions and spans
    exactly, logits and probabilities within `TOLERANCE`."""
    return _numbers_close(json.loads(stored), json.loads(rendered))


def outputs() -> dict[str, str]:
    """Every vector file (relative to the repository root) and its text."""
    prompts = PromptLibrary.load()
    relative = VECTORS.relative_to(ROOT).as_posix()
    return {f"{relative}/{case[0]}.json": render(vector(case, prompts)) for case in NER_TEXTS}
