"""Words no detector may name a NAME on their own: pronouns, function words, openers.

Every tier reads a sentence-start capital as a possible name (FINDINGS 3: `My`, `I`,
`The`, `Can`, `You`, `She` were redacted as names), so one list, `not_names.txt`, decides
for all of them: the model's detect and validate items and the NER tier's hits. A NAME
whose value is one of these words, punctuation trimmed and case folded, is dropped; a value
of more words (`My Lisa`) is left to the detector.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.resources import files

NAME_LABEL = "NAME"


@cache
def not_names() -> frozenset[str]:
    """The word list, case-folded (comment lines start with `#`)."""
    text = files("redacto.text").joinpath("not_names.txt").read_text(encoding="utf-8")
    words = (line.strip() for line in text.splitlines())
    return frozenset(word.casefold() for word in words if word and not word.startswith("#"))


def _trimmed(value: str) -> str:
    start, end = 0, len(value)
    while start < end and not value[start].isalnum():
        start += 1
    while end > start and not value[end - 1].isalnum():
        end -= 1
    return unicodedata.normalize("NFC", value[start:end]).casefold()


def is_not_a_name(label: str, value: str | None) -> bool:
    """True when `value`, named `label`, is a lone word that is never a NAME (`My`, `Je`,
    `L'`); anything but a NAME, or a value of more than one word, is False."""
    if label != NAME_LABEL or value is None:
        return False
    core = _trimmed(value)
    if not core or any(character.isspace() for character in core):
        return False
    return core in not_names()
