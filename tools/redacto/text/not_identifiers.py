"""Values that identify no one whatever their label, and the words that open a name.

A time of day is no calendar date (prompts/labels.yaml: DATE is "a calendar date, or date
and time"), and every category keeps amounts readable (prompts/categories.yaml). Yet the
model names `11:15.` an ADDRESS and `671 EUR` an ACCOUNT, and the NER tier reads `£1568` as a
tax number (docs/ner.md, "Not an identifier"). So a value that is only a time or only an
amount is dropped from every tier, as a lone `My` is dropped as a NAME (`not_names`).

A greeting before a name is no part of it: `Coucou Thérèse` is named as `Thérèse`
(`without_openers`). Only greetings are cut, never a title or a particle (`Mrs. Chen`,
`De Sousa`, `BRITTANY LE` keep every word).
"""

from __future__ import annotations

import re
import unicodedata

CURRENCIES = frozenset(
    {
        "eur",
        "euro",
        "euros",
        "usd",
        "dollars",
        "gbp",
        "pounds",
        "chf",
        "cad",
        "aud",
        "jpy",
        "inr",
        "sek",
        "dkk",
        "nok",
        "pln",
        "czk",
        "try",
        "brl",
        "cny",
        "€",
        "$",
        "£",
        "¥",
        "₹",
    }
)
"""Words and signs that make the number beside them an amount, case-folded."""

MAX_AMOUNT_DIGITS = 9
"""More digits than this beside a currency is read as a number that may identify (an
account written after `EUR`), not as an amount."""

NAME_OPENERS = frozenset(
    {
        "hi",
        "hello",
        "hey",
        "dear",
        "dearest",
        "bonjour",
        "bonsoir",
        "salut",
        "coucou",
        "cher",
        "chère",
        "chers",
        "chères",
    }
)
"""Greetings that open a name and are no part of it, case-folded, a trailing `.`/`,`
ignored. Titles stay with the name (`Mrs. Chen` is redacted whole), as the prompts teach."""

_TIME = re.compile(
    r"(?:[01]?\d|2[0-3])\s?[:h]\s?[0-5]\d(?:\s?(?:am|pm|a\.m\.?|p\.m\.?))?"
    r"|(?:1[0-2]|0?\d)\s?(?:am|pm|a\.m\.?|p\.m\.?)"
    r"|(?:[01]?\d|2[0-3])\s?h",
    re.IGNORECASE,
)
_NUMBER = r"\d(?:[\d.,'\u00a0\u202f ]*\d)?"
# Longest first, then in order: a set's own order changes with the hash seed, and the pattern
# text is a shared vector (tests/vectors/text/regex.json) that must not change between runs.
_CURRENCY = "|".join(re.escape(c) for c in sorted(CURRENCIES, key=lambda c: (-len(c), c)))
_AMOUNT = re.compile(
    rf"(?:{_CURRENCY})[\s\u00a0\u202f]?(?P<after>{_NUMBER})"
    rf"|(?P<before>{_NUMBER})[\s\u00a0\u202f]?(?:{_CURRENCY})",
    re.IGNORECASE,
)
_EDGE = ".,;:!?()[]\"'«»“”‘’"


def _core(value: str) -> str:
    """NFC, then whitespace of any script and the punctuation of `_EDGE` off both ends."""
    core = unicodedata.normalize("NFC", value)
    while (stripped := core.strip().strip(_EDGE)) != core:
        core = stripped
    return core


def is_time_of_day(value: str) -> bool:
    """`11:15`, `7:45 pm`, `9 am`, `14h30`, `19 h`: a time of day and nothing else."""
    return _TIME.fullmatch(_core(value)) is not None


def is_amount_value(value: str) -> bool:
    """`671 EUR`, `€1339`, `870,00 €`, `$80.84`, `USD 25`: a number beside a currency and
    nothing else, with at most `MAX_AMOUNT_DIGITS` digits."""
    match = _AMOUNT.fullmatch(_core(value))
    if match is None:
        return False
    number = match.group("after") or match.group("before")
    return sum(c.isdigit() for c in number) <= MAX_AMOUNT_DIGITS


def identifies_no_one(value: str | None) -> bool:
    """Whether `value` is only a time of day or only an amount, under any label."""
    return value is not None and (is_time_of_day(value) or is_amount_value(value))


def without_openers(label: str, value: str) -> str:
    """A NAME's value without the greetings that open it (`Coucou Thérèse,` →
    `Thérèse,`); a value of one word, or any other label, is returned as it is."""
    if label != "NAME":
        return value
    rest = value.lstrip()
    while True:
        words = rest.split(maxsplit=1)
        if len(words) < 2:
            return rest
        first = unicodedata.normalize("NFC", words[0]).rstrip(".,").casefold()
        if first not in NAME_OPENERS:
            return rest
        rest = words[1]
