"""The outside-styled suite: the outside dev set re-typed the way people type in a chat.

A harder suite built from presidio-evaluator's templates (branch `harder-outside`, never
merged: those templates are the source of the held-out texts behind `shared/FINDINGS.md`)
found that **writing style**, not the templates, is what the default model misses: it read
97.8 % of identifier words written normally, 77.6 % all in lower case, 84.4 % in lower case
without punctuation and 90.3 % with the names alone in lower case. This suite carries that
finding on the team's own texts: the `outside` suite's `test` split (its dev set, 120
texts, `redacto.corpus.outside`, never trained on), each text re-typed in one of three
styles (seeded, 40 texts each):

- `chat_lower`: the whole text in lower case;
- `chat_bare`: lower case, and the sentence punctuation (`. , ! ? ; : " “ ” « » ( )`)
  dropped where it stands at a word's edge (`7.15` keeps its point), with the spaces that
  leaves doubled; never a character inside a gold or preserve span (the `.` and `@` of an
  e-mail, the `-` or `(` of a phone, the `,` of an address stay);
- `names_lower`: only the characters of the NAME spans in lower case.

Gold spans are carried character by character onto the new text, so each span covers the
same characters as before, re-typed. The style logic follows `_restyle` of the harder-outside
branch's `foreign.py`; nothing of presidio's templates or values is used.

It is a **test** suite (`redacto.corpus.TEST_ONLY_SUITES`): training and threshold fitting
refuse it. Its source, the outside dev set, is a dev set, so this is a harder dev view, not
a held-out judge; never tune anything to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from redacto.corpus.generate import document_seed
from redacto.corpus.schema import CorpusDocument, GoldSpan, PreserveSpan

STYLES = ("chat_lower", "chat_bare", "names_lower")
"""How a text is re-typed: all lower case; lower case without sentence punctuation; only the
names in lower case."""

SENTENCE_PUNCTUATION = frozenset('.,!?;:"“”«»()')
"""What `chat_bare` drops (foreign.py's set, with French quotes)."""

_SPACES = frozenset(" \t\u00a0\u202f")


def lower(text: str) -> str:
    """Lower case as a phone keyboard types it: `İ` is `i` (Python's `lower` adds a
    combining dot), everything else as `str.lower`."""
    return text.replace("İ", "i").lower()


@dataclass
class _Unit:
    """One source character: what it becomes, and the span it is inside (None: none)."""

    text: str
    source: int
    span: str | None
    kept: bool = True


def _units(document: CorpusDocument) -> list[_Unit]:
    inside: list[str | None] = [None] * len(document.text)
    for span in document.pii:
        for index in range(span.start, span.end):
            inside[index] = span.label
    for preserve in document.preserve:
        for index in range(preserve.start, preserve.end):
            inside[index] = f"preserve:{preserve.kind}"
    return [_Unit(char, index, inside[index]) for index, char in enumerate(document.text)]


def _drop_punctuation(units: list[_Unit]) -> None:
    """Drop sentence punctuation outside every span where a run of it touches a space or
    the text's ends on either side (`Bob.`, `(note)`, `Tél :`; not `7.15`)."""

    def loose(index: int) -> bool:
        return units[index].span is None and units[index].text in SENTENCE_PUNCTUATION

    def edge(index: int) -> bool:
        return index < 0 or index >= len(units) or units[index].text.isspace()

    for index in range(len(units)):
        if not loose(index):
            continue
        before, after = index - 1, index + 1
        while before >= 0 and loose(before):
            before -= 1
        while after < len(units) and loose(after):
            after += 1
        if edge(before) or edge(after):
            units[index].kept = False


def _tidy_spaces(units: list[_Unit]) -> None:
    """Spaces outside spans that dropping left doubled, or at a line's or the text's start
    or end, go too."""

    def free_space(unit: _Unit) -> bool:
        return unit.span is None and unit.text in _SPACES

    kept = [unit for unit in units if unit.kept]
    previous = ""
    for position, unit in enumerate(kept):
        if free_space(unit):
            following = next((u.text for u in kept[position + 1 :] if not free_space(u)), "")
            if previous in ("", "\n") or previous in _SPACES or following in ("", "\n"):
                unit.kept = False
                continue
        previous = unit.text


def restyle(document: CorpusDocument, style: str, document_id: str) -> CorpusDocument:
    """`document` re-typed in `style`, its spans carried onto the new text."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; known: {', '.join(STYLES)}")
    units = _units(document)
    for unit in units:
        if style in ("chat_lower", "chat_bare") or (style == "names_lower" and unit.span == "NAME"):
            unit.text = lower(unit.text)
    if style == "chat_bare":
        _drop_punctuation(units)
        _tidy_spaces(units)
    position: dict[int, int] = {}
    text = ""
    for unit in units:
        position[unit.source] = len(text)
        if unit.kept:
            text += unit.text
    position[len(units)] = len(text)

    def moved(start: int, end: int) -> tuple[int, int]:
        if not all(unit.kept for unit in units[start:end]):  # never: spans are not touched
            raise AssertionError(f"{document.id}: a character of span {start}:{end} dropped")
        return position[start], position[end - 1] + len(units[end - 1].text)

    pii = tuple(
        GoldSpan(start=s, end=e, label=span.label)
        for span in document.pii
        for s, e in [moved(span.start, span.end)]
    )
    preserve = tuple(
        PreserveSpan(start=s, end=e, kind=span.kind)
        for span in document.preserve
        for s, e in [moved(span.start, span.end)]
    )
    return document.model_copy(
        update={
            "id": document_id,
            "template": f"{document.template}:{style}",
            "text": text,
            "pii": pii,
            "preserve": preserve,
        }
    )


def assign_styles(name: str, seed: int, count: int) -> list[str]:
    """One style per text, seeded; each style on `count / 3` texts (±1)."""
    order = list(range(count))
    random.Random(document_seed(seed, name, "styles")).shuffle(order)
    styles = [""] * count
    for rank, index in enumerate(order):
        styles[index] = STYLES[rank % len(STYLES)]
    return styles


def generate_styled_suite(
    name: str, seed: int, source: list[CorpusDocument]
) -> list[CorpusDocument]:
    """`source`'s documents (the outside dev set) each re-typed in its seeded style; ids keep
    the source's number (`outside-test-007` → `<name>-test-007`)."""
    styles = assign_styles(name, seed, len(source))
    documents = []
    for document, style in zip(source, styles, strict=True):
        number = document.id.rsplit("-", 1)[-1]
        documents.append(restyle(document, style, f"{name}-{document.split}-{number}"))
    return documents
