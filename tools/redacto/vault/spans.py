"""Write placeholders into a text: the one span merging of the proxy and proofread.

Detectors report spans that may overlap (the rules' e-mail inside the NER's address, the
same name twice); every value the vault knows is found again wherever it occurs. The
spans become runs that do not overlap, and each run becomes its value's placeholder.
"""

from __future__ import annotations

from collections.abc import Iterable

from redacto.vault.book import Vault

Span = tuple[int, int, str, str]
"""start, end, label, and the value its placeholder stands for ("": the span is dropped,
a later piece of a value whose placeholder stands in an earlier text)."""


def label_of(token: str) -> str:
    """`NAME` of `[NAME_1]`."""
    return token[1:-1].rsplit("_", 1)[0]


def merge_spans(text: str, spans: Iterable[Span]) -> list[Span]:
    """Overlapping spans become one (its label: the longest piece's; its value: the text
    it covers, unless the spans were one and the same), in order."""
    merged: list[Span] = []
    for start, end, label, value in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][1]:
            first_start, first_end, first_label, first_value = merged[-1]
            longer = label if end - start > first_end - first_start else first_label
            if (start, end) != (first_start, first_end):
                first_value = text[first_start : max(first_end, end)]
            merged[-1] = (first_start, max(first_end, end), longer, first_value)
        else:
            merged.append((start, end, label, value))
    return merged


def replace_spans(text: str, spans: Iterable[Span], vault: Vault) -> tuple[str, int]:
    """`text` with every span, and every value `vault` knows, replaced by its placeholder
    (numbered now, in reading order, if new); and how many runs were replaced."""
    found = list(spans)
    found += [
        (start, end, label_of(token), text[start:end])
        for start, end, token in vault.hide_known(text)
    ]
    if not found:
        return text, 0
    merged = merge_spans(text, found)
    out, position = [], 0
    for start, end, label, value in merged:
        out.append(text[position:start])
        if value:
            out.append(vault.placeholder_for(label, value))
        position = end
    out.append(text[position:])
    return "".join(out), len(merged)
