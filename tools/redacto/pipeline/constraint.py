"""Answers limited to the page: the regular expression a constrained reply must match.

Free-running, the small default model answers from memory: detect and validate name values
that are on no page, often the prompt's own examples (FINDINGS 3). LiteRT-LM can constrain
decoding to a regular expression (LLGuidance), so each detect or validate call in the
`LABEL: value` format can be given a pattern built from the very text the call shows:

- a line is `LABEL: value` with a label the prompt allows, and the value is a run of
  consecutive words of that text (each word as printed, without its edge punctuation, or
  without a possessive `'s` as well: `NAME: Peter` where the page says "Peter's");
- each label has its own value class (`VALUE_CLASSES`): an EMAIL starts with a word holding
  `@`, a PHONE or an ID starts and ends with a word holding a digit, a NAME is capitalised
  words (and name particles), a DATE is numbers and month or weekday names (months in
  English, French, German, Italian, Spanish, Portuguese and Dutch; `May-3` as one word), an
  ADDRESS starts capitalised, with a digit, or with a street-type word (`rue`, `via`,
  `plac`) …, each with a bound on its words. A label with no run on the page is left out of
  the pattern;
- detect answers `NONE` or 1 to `MAX_LINES` lines; validate answers `PASS`, or `FAIL` and 1
  to `MAX_LINES` lines (a FAIL that names nothing on the page is no answer);
- placeholders (`[NAME_1]`, in the redacted text validate sees) are never words of a value.

Every space is written `[ ▁]`: with Gemma's SentencePiece vocabulary the grammar sees a
token's leading space as U+2581, and a literal space makes LLGuidance reject the first word
(measured on the 270M). Only the characters that are special in Python's `re`, Rust's
`regex` (LLGuidance) and Java's `Pattern` alike are escaped, so one pattern string means the
same to the runtime, to the tests (`re.fullmatch`) and to the Kotlin core.

"No line twice" is not a regular property one can write compactly; a constrained call stops
decoding at the first repeated line instead (`guard.LineWatch`, `stop_on_repeat`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from redacto.document import PLACEHOLDER_PATTERN

SPACE = "[ ▁]"
"""A space in the pattern: the character, or SentencePiece's U+2581 space mark."""

MAX_LINES = 40
"""Answer lines at most: more than any page of the corpus holds (≤ 127 words, ≈ 25
identifiers), and a bound on a model that keeps naming words until its token budget."""

_SPECIAL = frozenset("\\.+*?()|[]{}^$")
_EDGE_PUNCTUATION = ".,;:!?\"'()[]{}<>“”‘’«»"
_NAME_PARTICLES = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du"}
    | {"la", "le", "el", "al", "bin", "ben", "ibn", "y", "e"}
)
_MONTHS = "january february march april may june july august september october november december"
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday"
_FOREIGN_MONTHS = (
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre "
    "décembre decembre "  # French
    "januar jänner februar märz maerz april mai juni juli august september oktober november "
    "dezember "  # German
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre "  # Italian
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre "
    "diciembre "  # Spanish
    "janeiro fevereiro março marco abril maio junho julho agosto setembro outubro novembro "
    "dezembro "  # Portuguese
    "januari februari maart april mei juni juli augustus september oktober november december"
)
"""Month names a DATE may hold besides the English ones (lower case, accents as written,
and the unaccented spelling where one is common)."""
_FOREIGN_MONTH_ABBREVIATIONS = (
    "janv févr fév fevr avr juil déc "  # French
    "mär okt dez "  # German
    "genn febbr giu lug ott dic "  # Italian
    "ene abr "  # Spanish
    "fev "  # Portuguese
    "mrt"  # Dutch
)
"""Abbreviations no common word shares (not `mag`, `set`, `ago`, `out`)."""
_MONTH_WORDS = frozenset(
    [
        *_MONTHS.split(),
        *(name[:3] for name in _MONTHS.split()),
        "sept",
        *_FOREIGN_MONTHS.split(),
        *_FOREIGN_MONTH_ABBREVIATIONS.split(),
    ]
)
_DATE_WORDS = _MONTH_WORDS | frozenset(
    [*_WEEKDAYS.split(), *(name[:3] for name in _WEEKDAYS.split()), "tues", "thur", "thurs"]
)
_DATE_CONNECTORS = frozenset({"of", "the", "at", "de"})
_STREET_TYPES = (
    "rue avenue av boulevard bd allée allee impasse chemin place quai route cours passage "
    "square faubourg "  # French
    "via viale piazza piazzale corso vicolo largo strada contrada borgo lungomare "  # Italian
    "calle avenida avda paseo plaza camino carrera carretera ronda travesía glorieta "  # Spanish
    "rua travessa praça praca alameda estrada "  # Portuguese
    "ulica ul aleja al plac pl osiedle os "  # Polish
    "gade vej gata gatan väg vägen gränd torget "  # Danish, Norwegian, Swedish
    "straat laan weg plein gracht kade singel "  # Dutch
    "straße strasse str gasse platz allee "  # German
    "ulice náměstí nám třída"  # Czech
)
"""Street-type words an ADDRESS may start with in lower case (`rue Gabriel Ledoux, …`,
`plac Kilińskiego 654`)."""
_STREET_WORDS = frozenset(_STREET_TYPES.split())
_POSSESSIVES = ("'s", "’s")
_NUMERIC_DATE = re.compile(r"\d[/.\-]\d")


class ReplyShape(StrEnum):
    """Which answer format the pattern describes."""

    DETECT = "detect"
    """`NONE`, or one `LABEL: value` line per item."""
    VALIDATE = "validate"
    """`PASS`, or `FAIL` followed by one `LABEL: value` line per item still readable."""


@dataclass(frozen=True)
class Word:
    """One whitespace-separated word of the text, and the same without edge punctuation."""

    raw: str
    core: str

    @classmethod
    def of(cls, raw: str) -> Word:
        return cls(raw=raw, core=raw.strip(_EDGE_PUNCTUATION) or raw)

    @property
    def forms(self) -> tuple[str, ...]:
        """How a value may write the word: as printed, without its edge punctuation, and
        without a possessive `'s` as well (`Peter's` → `Peter`)."""
        bare = self.core
        if bare.endswith(_POSSESSIVES) and len(bare) > 2:
            bare = bare[:-2]
        return (self.raw, self.core, bare)

    @property
    def has_digit(self) -> bool:
        return any(ch.isdecimal() for ch in self.core)

    @property
    def capitalised(self) -> bool:
        return self.core[0].isupper()

    @property
    def name_like(self) -> bool:
        """A word of a person's name: capitalised letters (`O'Brien`, `Anne-Marie`,
        `Mrs.`), or a lowercase particle (`van`, `de`)."""
        letters = all(ch.isalpha() or ch in ".'’-" for ch in self.core)
        return letters and (self.capitalised or self.core in _NAME_PARTICLES)

    @property
    def date_like(self) -> bool:
        return self.has_digit or self.core.lower().rstrip(".") in _DATE_WORDS

    @property
    def month_joined(self) -> bool:
        """A month name and numbers joined by dashes in one word (`May-3`, `15-Mar-2024`)."""
        parts = self.core.split("-")
        months = [part for part in parts if part.lower().rstrip(".") in _MONTH_WORDS]
        numbers = [part for part in parts if part.isdecimal() and len(part) <= 4]
        return len(parts) > 1 and len(months) == 1 and len(months) + len(numbers) == len(parts)

    @property
    def street_type(self) -> bool:
        return self.core in _STREET_WORDS

    @property
    def code_like(self) -> bool:
        """A piece of a number or code: digits, or upper-case letters (`GB82 WEST 1234`)."""
        return self.has_digit or (self.core.isalnum() and self.core.isupper())


Run = Sequence[Word]


@dataclass(frozen=True)
class ValueClass:
    """Which runs of the page's words may be a label's value."""

    max_words: int
    accepts: Callable[[Run], bool]


def _name(run: Run) -> bool:
    return all(word.name_like for word in run) and run[-1].capitalised


def _date(run: Run) -> bool:
    """`03/15/78`, `2025-04-08`, `May-3`, or a month or weekday name with numbers (`12 March
    1981`, `Tue 8 Apr 2025`, `19 avril`); not a bare number (`127`, a year), a bare month
    (`avril`) or a time (`11:00`)."""
    inner_ok = all(word.date_like or word.core.lower() in _DATE_CONNECTORS for word in run)
    if not (inner_ok and run[0].date_like and run[-1].date_like):
        return False
    if len(run) == 1 and (_NUMERIC_DATE.search(run[0].core) or run[0].month_joined):
        return True
    named = any((not word.has_digit and word.date_like) or word.month_joined for word in run)
    return named and any(word.has_digit for word in run)


def _digits(run: Run) -> int:
    return sum(ch.isdecimal() for word in run for ch in word.core)


def _phone(run: Run) -> bool:
    """Digits first and last, short words between (`ext`), six digits at least."""
    short_or_digits = all(word.has_digit or len(word.core) <= 4 for word in run)
    ends = run[0].has_digit and run[-1].has_digit
    return short_or_digits and ends and _digits(run) >= 6


def _code(run: Run) -> bool:
    return run[0].code_like and run[-1].code_like and any(word.has_digit for word in run)


def _national_id(run: Run) -> bool:
    return _code(run) and _digits(run) >= 6


def _address(run: Run) -> bool:
    """First and last word capitalised or holding a digit; the first may instead be a
    street-type word in lower case (`avenue Jules Weiss, 13275 Bourgeois`)."""
    first, last = run[0], run[-1]
    return (first.capitalised or first.has_digit or first.street_type) and (
        last.capitalised or last.has_digit
    )


def _anything(run: Run) -> bool:
    return True


VALUE_CLASSES: dict[str, ValueClass] = {
    "NAME": ValueClass(4, _name),
    "DATE": ValueClass(5, _date),
    "PHONE": ValueClass(7, _phone),
    "EMAIL": ValueClass(3, lambda run: "@" in run[0].raw),
    "ADDRESS": ValueClass(10, _address),
    "ID": ValueClass(6, _code),
    "SSN": ValueClass(5, _national_id),
    "ACCOUNT": ValueClass(6, _code),
    "CARD": ValueClass(6, _code),
    "MRN": ValueClass(4, _code),
    "CREDENTIAL": ValueClass(3, _anything),
}
"""Each label's values: how many words at most, and which runs of the page's words."""

DEFAULT_CLASS = ValueClass(6, _anything)
"""A label without a class of its own: any run of up to six words."""


def page_words(text: str) -> list[list[Word]]:
    """The text's words in order, as stretches without placeholders: a value never spans
    one (`[NAME_1]` in the redacted text validate sees)."""
    stretches: list[list[Word]] = [[]]
    for raw in text.split():
        if PLACEHOLDER_PATTERN.search(raw):
            stretches.append([])
        else:
            stretches[-1].append(Word.of(raw))
    return [stretch for stretch in stretches if stretch]


def escape(text: str) -> str:
    """`text` as a literal: the special characters escaped, every space written `[ ▁]`."""
    return "".join(SPACE if ch == " " else f"\\{ch}" if ch in _SPECIAL else ch for ch in text)


@dataclass
class _Trie:
    """Runs of words sharing their first words: `Via(?:[ ▁]Pasquale(?:…)?)?` instead of
    every run written out in full."""

    children: dict[Word, _Trie] = field(default_factory=dict)
    ends: bool = False

    def add(self, run: Run) -> None:
        node = self
        for word in run:
            node = node.children.setdefault(word, _Trie())
        node.ends = True

    def pattern(self) -> str:
        options = []
        for word, child in sorted(self.children.items(), key=lambda item: item[0].raw):
            forms = sorted({escape(form) for form in word.forms})
            head = forms[0] if len(forms) == 1 else f"(?:{'|'.join(forms)})"
            tail = ""
            if child.children:
                tail = f"(?:{SPACE}{child.pattern()})" + ("?" if child.ends else "")
            options.append(head + tail)
        return options[0] if len(options) == 1 else f"(?:{'|'.join(options)})"


def value_pattern(stretches: Sequence[Sequence[Word]], value_class: ValueClass) -> str | None:
    """The runs of the page's words this class accepts, as one pattern (None: no run)."""
    trie = _Trie()
    for stretch in stretches:
        for start in range(len(stretch)):
            for end in range(start + 1, min(start + value_class.max_words, len(stretch)) + 1):
                run = stretch[start:end]
                if value_class.accepts(run):
                    trie.add(run)
    return trie.pattern() if trie.children else None


@dataclass(frozen=True)
class AnswerPattern:
    """The pattern for one call, and the labels it leaves possible (for the report)."""

    pattern: str
    labels: tuple[str, ...]


def answer_pattern(text: str, labels: Collection[str], shape: ReplyShape) -> AnswerPattern:
    """The pattern a `LABEL: value` reply to a call showing `text` must match in full.

    `labels` are the prompt's allowed labels, in the prompt's order; a label none of the
    text's word runs can be (no word with `@` for EMAIL) is left out.
    """
    stretches = page_words(text)
    lines = []
    possible = []
    for label in labels:
        values = value_pattern(stretches, VALUE_CLASSES.get(label, DEFAULT_CLASS))
        if values is not None:
            lines.append(f"{escape(label)}:{SPACE}{values}")
            possible.append(label)
    line = f"(?:{'|'.join(lines)})" if lines else None
    if shape is ReplyShape.DETECT:
        items = f"|{line}(?:\\n{line}){{0,{MAX_LINES - 1}}}" if line else ""
        pattern = f"(?:NONE{items})\\n?"
    else:
        items = f"|FAIL(?:\\n{line}){{1,{MAX_LINES}}}" if line else ""
        pattern = f"(?:PASS{items})\\n?"
    return AnswerPattern(pattern=pattern, labels=tuple(possible))
