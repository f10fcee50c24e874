"""The redactions validate examples are made from: what the validator must PASS, and what
it must FAIL, in equal numbers.

A validator that only ever saw complete redactions PASS and incomplete ones FAIL learns
that "FAIL" is the likelier word. Real outputs differ in two ways the earlier data never
showed: a clean output usually hides more than it should (a kept value, a plain word), and a
leaky one usually leaves a single value, or a single word of one, readable. So per document
and mode there are two PASS variants and two FAIL variants:

- `pass`: every gold value hidden → `PASS`;
- `pass-over`: every gold value hidden, and up to two kept values and two plain words → `PASS`;
- `fail-one`: one value left readable (preferably one no rule of the category finds) →
  `FAIL` and that value;
- `fail-word`: one word of a multi-word value left readable (without one: every third
  value) → `FAIL` and that word.

A document with nothing to find gives its PASS variants on its own text (hidden: nothing,
or only the over-redacted words), and no FAIL.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from redacto.corpus import CorpusDocument
from redacto.document import Detection, Source

LEAVE_EVERY = 3
"""The `fail-word` fallback leaves every third distinct value readable."""
OVER_REDACTED_KEPT = 2
OVER_REDACTED_WORDS = 2
_PLAIN_WORD = re.compile(r"\b[^\W\d_]{4,}\b")

ValueKey = Callable[[Detection], str]


@dataclass(frozen=True)
class Variant:
    """One redaction to show the validator: what is hidden, and what it must name."""

    outcome: str
    hidden: list[Detection]
    left: list[Detection]


def validate_variants(
    document: CorpusDocument,
    detections: list[Detection],
    key: ValueKey,
    rule_labels: set[str],
    labels: tuple[str, ...],
) -> Iterator[Variant]:
    """The four variants for text-valued detections (text mode, the page read as text).

    `detections` carry their `value`; `labels` are the category's labels, the over-redacted
    words' placeholders are named from them (a real model's over-redactions carry any label).
    """
    extra = over_redactions(document, labels)
    yield Variant("pass", detections, [])
    if extra:
        yield Variant("pass-over", [*detections, *extra], [])
    if not detections:
        return
    yield Variant("fail-one", *leave_one(detections, key, rule_labels, document.id))
    yield Variant("fail-word", *_leave_a_word(detections, key))


def over_redactions(document: CorpusDocument, labels: tuple[str, ...]) -> list[Detection]:
    """Up to two preserved values and two plain words of the document, as detections under
    a label chosen by the document's id: what a clean but over-eager output hides."""
    rng = random.Random(zlib.crc32(document.id.encode("utf-8")))
    taken = [(s.start, s.end) for s in document.pii] + [(s.start, s.end) for s in document.preserve]
    kept = [document.span_text(s) for s in document.preserve]
    plain = [
        match.group(0)
        for match in _PLAIN_WORD.finditer(document.text)
        if not any(start < match.end() and match.start() < end for start, end in taken)
    ]
    pii_words = {w.lower() for s in document.pii for w in document.span_text(s).split()}
    plain = sorted({w for w in plain if w.lower() not in pii_words})
    chosen = rng.sample(kept, min(OVER_REDACTED_KEPT, len(kept)))
    chosen += rng.sample(plain, min(OVER_REDACTED_WORDS, len(plain)))
    return [
        Detection(label=rng.choice(labels), source=Source.DETECT, round=1, value=value)
        for value in dict.fromkeys(chosen)
    ]


def distinct_values(detections: list[Detection], key: ValueKey) -> dict[str, str]:
    """Each distinct value's key and its first label, in reading order."""
    values: dict[str, str] = {}
    for detection in detections:
        values.setdefault(key(detection), detection.label)
    return values


def split_off(
    detections: list[Detection], key: ValueKey, left_values: set[str]
) -> tuple[list[Detection], list[Detection]]:
    """(hidden, left readable). Whole values are left out, so a value hidden elsewhere
    cannot hide the one left readable (the pipeline numbers and locates by value)."""
    hidden = [d for d in detections if key(d) not in left_values]
    left = [d for d in detections if key(d) in left_values]
    return hidden, left


def leave_some(
    detections: list[Detection], key: ValueKey
) -> tuple[list[Detection], list[Detection]]:
    """Every third distinct value stays readable (the first, if there are fewer than three)."""
    values = list(distinct_values(detections, key))
    return split_off(detections, key, set(values[LEAVE_EVERY - 1 :: LEAVE_EVERY] or values[:1]))


def leave_one(
    detections: list[Detection], key: ValueKey, rule_labels: set[str], seed: str
) -> tuple[list[Detection], list[Detection]]:
    """One distinct value stays readable, chosen by `seed` among those whose label no rule
    finds (names, addresses: what a model's own detection misses), else among all."""
    values = distinct_values(detections, key)
    candidates = [v for v, label in values.items() if label not in rule_labels] or list(values)
    chosen = candidates[zlib.crc32(seed.encode("utf-8")) % len(candidates)]
    return split_off(detections, key, {chosen})


def _leave_a_word(
    detections: list[Detection], key: ValueKey
) -> tuple[list[Detection], list[Detection]]:
    """The last word of the first multi-word value stays readable, the rest of it hidden
    ("Dawn ⏎ Manning": the photo's wrapped names leaked this way); without one, every
    third value."""
    for detection in detections:
        words = (detection.value or "").split()
        if len(words) < 2 or any(
            word.lower() in _other_words(detections, detection) for word in words
        ):
            continue
        hidden, _ = split_off(detections, key, {key(detection)})
        head = Detection(
            label=detection.label,
            source=Source.DETECT,
            round=1,
            value=" ".join(words[:-1]),
        )
        tail = Detection(label=detection.label, source=Source.DETECT, round=1, value=words[-1])
        return [*hidden, head], [tail]
    return leave_some(detections, key)


def _other_words(detections: list[Detection], this: Detection) -> set[str]:
    """Words of the other values: a word they share would be hidden with them."""
    return {
        word.lower()
        for detection in detections
        if detection is not this
        for word in (detection.value or "").split()
    }
