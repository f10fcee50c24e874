"""Gold labels by construction: documents are written in a tiny markup and parsed into spans.

`[[NAME|Jane Smith]]` marks PII with its label, `{{diagnosis|Type 2 diabetes}}` marks text
that must be preserved. Templates build the markup with `pii()` and `keep()`; the hand-written
hard suite writes it directly, so a reviewer reads each gold decision in place.
"""

from __future__ import annotations

import re
import textwrap

from redacto.corpus.schema import GoldSpan, PreserveSpan

_MARK = re.compile(r"\[\[([A-Z_]+)\|(.+?)\]\]|\{\{([a-z_]+)\|(.+?)\}\}", re.DOTALL)


class MarkupError(ValueError):
    """The markup is malformed: an unclosed mark, an empty value or a value with edge spaces."""


def pii(label: str, value: str) -> str:
    """Mark `value` as PII with `label`."""
    return f"[[{label}|{value}]]"


def keep(kind: str, value: str) -> str:
    """Mark `value` as text to preserve, of `kind`."""
    return f"{{{{{kind}|{value}}}}}"


def parse_markup(markup: str) -> tuple[str, tuple[GoldSpan, ...], tuple[PreserveSpan, ...]]:
    """Plain text plus its PII and preserve spans. Indentation common to all lines is removed."""
    source = textwrap.dedent(markup).strip("\n")
    text_parts: list[str] = []
    pii_spans: list[GoldSpan] = []
    keep_spans: list[PreserveSpan] = []
    length = 0
    cursor = 0
    for match in _MARK.finditer(source):
        before = source[cursor : match.start()]
        text_parts.append(before)
        length += len(before)
        label, pii_value, kind, keep_value = match.groups()
        value = pii_value if label else keep_value
        if not value.strip() or value != value.strip():
            raise MarkupError(f"empty value or edge spaces in mark {match.group(0)!r}")
        if label:
            pii_spans.append(GoldSpan(start=length, end=length + len(value), label=label))
        else:
            keep_spans.append(PreserveSpan(start=length, end=length + len(value), kind=kind))
        text_parts.append(value)
        length += len(value)
        cursor = match.end()
    text_parts.append(source[cursor:])
    text = "".join(text_parts)
    if "[[" in text or "]]" in text or "{{" in text or "}}" in text:
        raise MarkupError("unbalanced mark left in the text")
    lines = [line.rstrip() for line in text.split("\n")]
    if any(len(line) != len(raw) for line, raw in zip(lines, text.split("\n"), strict=True)):
        raise MarkupError("trailing spaces at a line end would shift spans; remove them")
    return text, tuple(pii_spans), tuple(keep_spans)
