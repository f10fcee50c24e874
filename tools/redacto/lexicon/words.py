"""The words of an output, cut the same way in Python and Kotlin.

A word is a run of characters between whitespace or `…` (the mask a redacted value reads as,
`pipeline.second_opinion.MASK`), with Unicode punctuation (general category P*) trimmed off
both ends except `@` and `%`, which say what the word is; a run with no letter or digit left
is no word. The dictionary is asked about the whole word first, then about its pieces: the
word cut at hyphens (`-`, `‐`, `‑`), slashes, apostrophes (`'`, `’`), full stops and `°`
(`e.g`, `n°`), each piece trimmed like a word. Apostrophes are compared as `'`, and every
word is NFC.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MASK = "…"
"""What a redacted value reads as (`pipeline.second_opinion.MASK`); it separates words."""

KEPT_EDGES = frozenset("@%")
"""Punctuation a word keeps at its ends: `jean@` is half an e-mail, `15%` a quantity."""

PIECE_BREAKS = frozenset("-‐‑/'.°")
"""Where a word is cut into pieces for the dictionary (after `’` is written `'`)."""


@dataclass(frozen=True)
class Word:
    """One word of a text: its characters (NFC, apostrophes as `'`) and where it stands."""

    text: str
    start: int
    end: int


def _edge(char: str) -> bool:
    if char in KEPT_EDGES:
        return False
    return char.isspace() or unicodedata.category(char).startswith("P")


def _bounds(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and _edge(text[start]):
        start += 1
    while end > start and _edge(text[end - 1]):
        end -= 1
    return start, end


def trim(token: str) -> str:
    """`token` without the punctuation at its ends (`KEPT_EDGES` stay)."""
    start, end = _bounds(token, 0, len(token))
    return token[start:end]


def normalised(word: str) -> str:
    """A word as it is compared: NFC, `’` written `'`."""
    return unicodedata.normalize("NFC", word).replace("’", "'")


def words(text: str) -> list[Word]:
    """Every word of `text`, in order (see the module's docstring)."""
    found: list[Word] = []
    start = None
    for position, char in enumerate([*text, " "]):
        breaks = char.isspace() or char == MASK
        if breaks and start is not None:
            lo, hi = _bounds(text, start, position)
            if any(c.isalnum() for c in text[lo:hi]):
                found.append(Word(normalised(text[lo:hi]), lo, hi))
            start = None
        elif not breaks and start is None:
            start = position
    return found


def pieces(word: str) -> list[str]:
    """The word cut at `PIECE_BREAKS`, each piece trimmed; empty pieces go."""
    parts: list[str] = []
    current: list[str] = []
    for char in [*normalised(word), "-"]:
        if char in PIECE_BREAKS:
            piece = trim("".join(current))
            if piece:
                parts.append(piece)
            current = []
        else:
            current.append(char)
    return parts
