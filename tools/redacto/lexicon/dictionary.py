"""The lexicon files read back: which words a language's dictionary knows, in any case.

Each language's file (`lexicon/<language>.words.gz`, `build`) is checked against the sha256
in `lexicon/manifest.json` before a word of it is trusted; a file that differs, or is
missing, raises `LexiconError` (a privacy check that cannot read its dictionary must not
explain anything). Lookups are case-insensitive (Unicode default lower-casing: Python
`str.lower`, Kotlin `lowercase(Locale.ROOT)`). A word is *common* when the dictionary writes
some form of it in lower case, a *proper noun* when it writes it only with capitals
(`Marie`, `Paris`, `NASA`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import overload

from redacto.lexicon.words import Word, pieces


class LexiconError(RuntimeError):
    """A lexicon file is missing or is not the one the manifest pins."""


class Known(StrEnum):
    """How a dictionary knows a word."""

    COMMON = "common"
    PROPER = "proper"


_REMEMBERED = 1 << 16
"""Lookups a `Lexicon` keeps the answer of (then it starts again)."""


class SortedWords(Sequence[str]):
    """Sorted distinct words held as one string and an array of offsets: a set of 450,000
    French forms as Python strings holds about 60 MB, this about 8 MB (a lookup is a
    binary search, a few microseconds)."""

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words))
        self._text = "".join(ordered)
        self._starts = array("I", accumulate(map(len, ordered), initial=0))

    def __len__(self) -> int:
        return len(self._starts) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._text[self._starts[index] : self._starts[index + 1]]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        at = bisect_left(self, word)
        return at < len(self) and self[at] == word


@dataclass(frozen=True)
class Lexicon:
    """One language's forms, lower-cased: those written lower-case somewhere, and the rest."""

    language: str
    common: SortedWords
    proper: SortedWords
    _remembered: dict[str, Known | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, language: str, forms: Sequence[str]) -> Lexicon:
        """The lexicon of `forms` as the artefact writes them (case kept)."""
        common = {form.lower() for form in forms if form == form.lower()}
        proper = {form.lower() for form in forms} - common
        return cls(language, SortedWords(common), SortedWords(proper))

    def knows_form(self, form: str) -> Known | None:
        """How the dictionary knows one form, in any case, or None."""
        lowered = form.lower()
        # A text repeats its words, and a bisection through `SortedWords` costs microseconds:
        # answers are kept, up to `_REMEMBERED` of them.
        remembered = self._remembered
        if lowered in remembered:
            return remembered[lowered]
        if len(remembered) >= _REMEMBERED:
            remembered.clear()
        known = None
        if lowered in self.common:
            known = Known.COMMON
        elif lowered in self.proper:
            known = Known.PROPER
        remembered[lowered] = known
        return known

    def knows(self, word: str) -> Known | None:
        """How the dictionary knows `word`: whole, else every one of its pieces (`words.pieces`);
        a word known only through a proper noun is PROPER."""
        whole = self.knows_form(word)
        if whole is not None:
            return whole
        parts = pieces(word)
        if not parts or parts == [word]:
            return None
        known = [self.knows_form(part) for part in parts]
        if any(k is None for k in known):
            return None
        return Known.PROPER if Known.PROPER in known else Known.COMMON


def lexicon_dir() -> Path:
    """The shipped `lexicon/` folder (the wheel's copy, else the checkout's)."""
    from redacto.host.resources import shipped_dir

    return shipped_dir("lexicon")


def manifest(folder: Path | None = None) -> dict:
    """`lexicon/manifest.json` as written by `build`."""
    folder = folder or lexicon_dir()
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


LANGUAGES = ("en", "fr")
"""The languages the lexicon holds, in the order a tie between them is settled."""

LANGUAGE_SAMPLE = 1000
"""Digit-free words a language is decided on, from the text's start: enough for any page,
and a long document is not read twice."""


@cache
def load(language: str) -> Lexicon:
    """The pinned lexicon of `language` (`en`, `fr`), read once per process."""
    folder = lexicon_dir()
    entries = {entry["language"]: entry for entry in manifest(folder)["languages"]}
    if language not in entries:
        raise LexiconError(f"no lexicon for language {language!r}; known: {', '.join(entries)}")
    entry = entries[language]
    path = folder / entry["file"]
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LexiconError(f"the lexicon file {entry['file']} cannot be read") from error
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise LexiconError(f"the lexicon file {entry['file']} does not match its pinned sha256")
    forms = gzip.decompress(data).decode("utf-8").split("\n")
    return Lexicon.of(language, [form for form in forms if form])


def language_of(text_words: Sequence[Word], lexicons: Sequence[Lexicon] | None = None) -> str:
    """The language whose dictionary knows the most of `text_words` as common words (the
    first `LANGUAGE_SAMPLE` words with no digit; a proper noun says little about a text's
    language; a tie goes to the earlier of `LANGUAGES`)."""
    chosen = list(lexicons) if lexicons is not None else [load(name) for name in LANGUAGES]
    scored = [w.text for w in text_words if not any(c.isdigit() for c in w.text)]
    scored = scored[:LANGUAGE_SAMPLE]
    best, best_count = chosen[0].language, -1
    for lexicon in chosen:
        count = sum(1 for word in scored if lexicon.knows(word) is Known.COMMON)
        if count > best_count:
            best, best_count = lexicon.language, count
    return best
