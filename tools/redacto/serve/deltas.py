"""Review updates as deltas: what changed in the review view since the reviewer's last edit.

A job's event log is replayed to every page that attaches, so it must not grow by a whole
review (the full redacted text, every mark) per edit. The log holds the review once, when
the run ends, and then one `delta` per edit: the fields that changed, each list or string
that changed as one splice (`[at, remove, insert]`: the common head and tail are kept).
A delta is never larger than the view itself, and usually a few hundred bytes.

String offsets count UTF-16 code units, as JavaScript's strings do, so the page applies a
splice with `slice` whatever characters the text holds. `apply_delta` is the same rule in
Python (the page's `applyDelta` in `static/app.js` mirrors it); the tests hold them to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

View = dict[str, Any]


def review_delta(old: View, new: View) -> View:
    """The delta that turns `old` into `new`; `base` is the edit count it applies to."""
    values: View = {}
    splices: View = {}
    for key, value in new.items():
        before = old.get(key)
        if value == before:
            continue
        if isinstance(value, str) and isinstance(before, str):
            splices[key] = _text_splice(before, value)
        elif isinstance(value, list) and isinstance(before, list):
            splices[key] = _list_splice(before, value)
        else:
            values[key] = value
    return {"base": old["edits"], "set": values, "splice": splices}


def apply_delta(view: View, delta: View) -> View:
    """`view` with `delta` applied (what the page does with each `delta` event)."""
    updated = {**view, **delta["set"]}
    for key, (at, remove, insert) in delta["splice"].items():
        before = view[key]
        if isinstance(before, str):
            units = before.encode("utf-16-le")
            spliced = units[: 2 * at] + insert.encode("utf-16-le") + units[2 * (at + remove) :]
            updated[key] = spliced.decode("utf-16-le")
        else:
            updated[key] = [*before[:at], *insert, *before[at + remove :]]
    return updated


def _text_splice(old: str, new: str) -> list[Any]:
    head = _common_head(old, new)
    tail = _common_head(old[head:][::-1], new[head:][::-1])
    removed = old[head : len(old) - tail]
    return [_utf16_len(old[:head]), _utf16_len(removed), new[head : len(new) - tail]]


def _list_splice(old: list[Any], new: list[Any]) -> list[Any]:
    head = _common_head(old, new)
    tail = _common_head(old[head:][::-1], new[head:][::-1])
    return [head, len(old) - head - tail, new[head : len(new) - tail]]


def _common_head(a: Sequence[Any], b: Sequence[Any]) -> int:
    """How many leading items `a` and `b` share (a binary search over slice comparisons,
    which run in C: a 200 KB text takes microseconds, not a Python loop per character)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
