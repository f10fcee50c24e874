"""Line parsers for every model output format, one line at a time so they can stream.

Small models break JSON brackets, so every step answers in lines. Each parser turns one
line into a typed item, `None` (nothing to do: a blank line or `NONE`), or a
`LineRejected` saying why the line was dropped. Dropped lines become `ParseError`s in the
report; they never raise. The grammar is documented in docs/pipeline.md and mirrored by the
Kotlin parsers; tests/vectors/pipeline exercises both.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from redacto.document import PLACEHOLDER_PATTERN, Category
from redacto.report import RejectReason, Verdict


@dataclass(frozen=True)
class LineRejected:
    """A line that could not be used, and why."""

    line: str
    reason: RejectReason


@dataclass(frozen=True)
class IndexItem:
    """`1:NAME` — element 1 is a NAME (image mode)."""

    index: int
    label: str


@dataclass(frozen=True)
class TextItem:
    """`NAME: Mrs. Chen` — the value as the model wrote it (text mode)."""

    label: str
    value: str


_BULLET = re.compile(r"^\s*(?:[-*•]\s+)?")
_INDEX_LINE = re.compile(
    r"^\[?(?P<index>\d{1,7})\]?\s*:\s*\[?(?P<label>[A-Za-z][A-Za-z_]*)\]?\s*[.,;]?\s*(?:\(.*\))?$"
)
_TEXT_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z_ ]{0,40}?)\s*:\s*(?P<value>.*)$")
_QUOTES = "\"'“”‘’`"
_NONE_LINE = re.compile(r"^\(?none\)?\.?$", re.IGNORECASE)


def _clean(line: str) -> str:
    """Strip whitespace, a list bullet and markdown bold markers the models like to add."""
    stripped = _BULLET.sub("", line.strip()).replace("**", "")
    return stripped.strip()


def _normal_label(raw: str) -> str:
    return "_".join(raw.strip().upper().split())


def is_nothing(line: str) -> bool:
    """True for a blank line or the `NONE` answer: nothing to act on, nothing wrong."""
    cleaned = _clean(line)
    return not cleaned or bool(_NONE_LINE.match(cleaned))


def parse_index_line(
    line: str, labels: Collection[str], index_range: range
) -> IndexItem | LineRejected | None:
    """Parse an image-mode `INDEX:LABEL` line; indices must lie in this chunk's range."""
    if is_nothing(line):
        return None
    match = _INDEX_LINE.match(_clean(line))
    if match is None:
        return LineRejected(line, RejectReason.JUNK)
    label = _normal_label(match["label"])
    if label not in labels:
        return LineRejected(line, RejectReason.UNKNOWN_LABEL)
    index = int(match["index"])
    if index not in index_range:
        return LineRejected(line, RejectReason.OUT_OF_CHUNK)
    return IndexItem(index=index, label=label)


def parse_text_line(line: str, labels: Collection[str]) -> TextItem | LineRejected | None:
    """Parse a text-mode `LABEL: value` line."""
    if is_nothing(line):
        return None
    match = _TEXT_LINE.match(_clean(line))
    if match is None:
        return LineRejected(line, RejectReason.JUNK)
    label = _normal_label(match["label"])
    if label not in labels:
        return LineRejected(line, RejectReason.UNKNOWN_LABEL)
    value = match["value"].strip().strip(_QUOTES).strip()
    if not value:
        return LineRejected(line, RejectReason.EMPTY_VALUE)
    if PLACEHOLDER_PATTERN.search(value):
        return LineRejected(line, RejectReason.PLACEHOLDER_VALUE)
    return TextItem(label=label, value=value)


# --- classify -------------------------------------------------------------------------


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalpha())


_CATEGORY_BY_LETTERS = {_letters(category.value): category for category in Category}
_CLASSIFY_LINE = re.compile(
    r"^(?P<key>document[ _]?type|category)\s*:\s*(?P<value>.*)$", re.IGNORECASE
)


@dataclass
class ClassifyParse:
    """The classifier's answer so far; `category` stays None until a known one is read."""

    category: Category | None = None
    document_type: str = ""
    rejected: list[LineRejected] = field(default_factory=list)

    def feed(self, line: str) -> None:
        """Read one line of `DOCUMENT_TYPE: …` / `CATEGORY: …` output."""
        if is_nothing(line):
            return
        match = _CLASSIFY_LINE.match(_clean(line))
        if match is None:
            self.rejected.append(LineRejected(line, RejectReason.JUNK))
            return
        value = match["value"].strip().strip(_QUOTES).strip().rstrip(".").strip()
        if match["key"].lower() == "category":
            if self.category is not None:
                self.rejected.append(LineRejected(line, RejectReason.DUPLICATE))
                return
            category = _CATEGORY_BY_LETTERS.get(_letters(value))
            if category is None:
                self.rejected.append(LineRejected(line, RejectReason.UNKNOWN_CATEGORY))
                return
            self.category = category
        elif self.document_type:
            self.rejected.append(LineRejected(line, RejectReason.DUPLICATE))
        else:
            self.document_type = value


def parse_classify(text: str) -> ClassifyParse:
    """Parse a whole classifier reply (tests and non-streaming callers)."""
    parse = ClassifyParse()
    for line in text.splitlines():
        parse.feed(line)
    return parse


# --- validate -------------------------------------------------------------------------


_VERDICT_LINE = re.compile(
    r"^(?:verdict\s*:\s*)?(?P<word>pass|fail)\b[\s.!:,\-]*(?P<rest>.*)$", re.IGNORECASE
)


@dataclass
class VerdictParse:
    """The validator's answer so far. Anything but a clean `PASS` ends as FAIL (fail closed).

    The first non-blank line should be `PASS` or `FAIL` (an item may follow `FAIL:` on the
    same line). A reply without a verdict is FAIL and its lines are still read as items; a
    `PASS` followed by further content contradicts itself and is FAIL too.
    """

    verdict: Verdict | None = None
    stated: Verdict | None = None
    rejected: list[LineRejected] = field(default_factory=list)

    def feed(self, line: str) -> str | None:
        """Read one line; returns the text to parse as a missed item, if any."""
        cleaned = _clean(line)
        if not cleaned:
            return None
        if self.verdict is None:
            match = _VERDICT_LINE.match(cleaned)
            if match is None:
                self.verdict = Verdict.FAIL
                return line
            self.stated = Verdict(match["word"].upper())
            rest = match["rest"].strip()
            self.verdict = (
                Verdict.PASS if self.stated is Verdict.PASS and not rest else Verdict.FAIL
            )
            return rest or None
        self.verdict = Verdict.FAIL
        return line

    def final(self) -> Verdict:
        """The verdict once the reply has ended; no PASS/FAIL word at all is recorded."""
        if self.stated is None:
            self.rejected.append(LineRejected("", RejectReason.BAD_VERDICT))
        if self.verdict is None:
            self.verdict = Verdict.FAIL
        return self.verdict
