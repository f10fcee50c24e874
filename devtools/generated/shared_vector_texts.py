"""The inputs of the generated text vectors (`shared_vectors.py` asks CPython for
their answers): characters, texts and patterns that make Python's `str` and `re` semantics
visible where another language's differ. The patterns include the pipeline's own, read from
the Python modules that compile them, so a changed pattern changes the vectors."""

from __future__ import annotations

import re
from dataclasses import dataclass

from redacto.document import PLACEHOLDER_PATTERN
from redacto.pipeline import chunking, constraint, parsing, redact
from redacto.text import not_identifiers


@dataclass(frozen=True)
class RegexCase:
    """`re.finditer(pattern, text)`, case-insensitive when asked."""

    description: str
    pattern: str
    text: str
    ignore_case: bool = False


def _pipeline(description: str, compiled: re.Pattern[str], text: str) -> RegexCase:
    """A case of one of the pipeline's compiled patterns, with its own flags."""
    return RegexCase(description, compiled.pattern, text, bool(compiled.flags & re.IGNORECASE))


CHARACTERS: tuple[str, ...] = (
    *"aZ09_- .'’",
    *"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85",
    "\u00a0",
    "\u1680",
    "\u2007",
    "\u200a",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
    "\u180e",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    *"ßẞİıIiﬁﬃſ\u212aΣσςǅǄǆªºŉΐ",
    *"²³¹½①⑳Ⅻⅻ０９٣۵߁〇一万𝟘\U00010107",
    "\u0c78",
    "\u17f0",
    "\u2189",
    "\u3280",
    *"éèêëçœŒæÀÉ",
    "\u0300",
    "\u0301",
    "\u0307",
    "\u0308",
    "\u0345",
    *"ᎠᏣᏸꭰꮳ",
    *"😀𐐀𐐨",
    "\u0915",
    "\u093f",
    "\u0e01",
)

STRING_CASES: tuple[str, ...] = (
    "",
    "   ",
    "\u00a0\u3000a b\u001c\n",
    " a\u2003b ",
    "a\r\nb\u2028c",
    "a\rb\nc\r\n\r\nd\x0be\x0cf\x1cg\x1dh\x1ei\x85j\u2029k",
    "trailing\n",
    "\n\nleading",
    "x\u200by",
    "\u200b a \u200b",
    "\ufeffBOM first",
    "a\x1fb",
    "Straße GROẞE",
    "İSTANBUL ıi Iı",
    "ﬁnal ﬄ",
    "ΟΔΟΣ ΟΔΟΣ.",
    "Zoe\u0308 Lefe\u0300vre",
    "l’entreprise d’une",
    "NAME: Jane\u00a0Smith\u202f",
    "MRN 4471829",
    "ABC123",
    "ǅemal",
    "ǄEMAL",
    "Ⅻ ⅻ",
    "ᏣᎳᎩ ꮳꮃꭹ",
    "😀 Jane\u3000Smith 😀",
)

STRIP_CHARS_CASES: tuple[tuple[str, str], ...] = (
    ('"Jane Smith"', "\"'“”‘’`"),
    ("“Jane”", "\"'“”‘’`"),
    ("‘’", "\"'“”‘’`"),
    ("...Chen,.", ".,;:"),
    ("😀Jane😀", "😀"),
    ("  a  ", ""),
    ("xxaxx", "x"),
)

REGEX_CASES: tuple[RegexCase, ...] = (
    RegexCase(
        "\\s is Python's whitespace set.", r"\s+", "a\u00a0b\u2003c\x1cd\u200be\u180ef\ufeffg\x85h"
    ),
    RegexCase("\\d is every decimal digit.", r"\d+", "Tel ０９０ ٣٤ 𝟘𝟙 ²³ ½ 12"),
    RegexCase(
        "\\w is isalnum() or _.",
        r"\w+",
        "Zoe\u0308 Jose\u0301 l’oﬃce x²y ½ a\u200db a_b ＿ क\u093f",
    ),
    RegexCase("\\W is the rest.", r"\W+", "Zoe\u0308 a\u200db x²y"),
    RegexCase(
        "\\b next to a combining mark.", r"\bpass\b", "pass\u0301 pass pass\u200d passé pass²"
    ),
    RegexCase("\\B inside a word.", r"\Bss\B", "passé pass\u0301e"),
    RegexCase("\\w and \\s inside a class.", r"[\w\s]+", "Jean-Luc\u00a0Zoe\u0308 ½"),
    RegexCase(
        "Case-insensitive long s and Kelvin.", r"pass|kw", "PAſſ pass \u212aW", ignore_case=True
    ),
    RegexCase("Case-insensitive ß and ẞ.", r"straße", "STRAẞE Straße STRASSE", ignore_case=True),
    RegexCase(
        "Case-insensitive dotted and dotless i.",
        r"istanbul",
        "ISTANBUL İstanbul ıstanbul",
        ignore_case=True,
    ),
    RegexCase("$ before a final newline only.", r"end$", "the end\n"),
    RegexCase(". stops at \\n only.", r"a.b", "a\rb a\u2028b a\nb a\x85b"),
    RegexCase("A ] first in a class is a literal.", r"[]x]+", "a]x]b"),
    _pipeline("Chunking's words.", chunking._WORD, "Jane\u00a0Smith\u3000called\u200b now"),
    _pipeline("A list bullet.", parsing._BULLET, "\u00a0• NAME: x"),
    _pipeline("An index line, full-width digits.", parsing._INDEX_LINE, "１２:NAME"),
    _pipeline("An index line.", parsing._INDEX_LINE, "[12]: NAME (the patient)"),
    _pipeline("A text line.", parsing._TEXT_LINE, "NAME:\u00a0Hélène Dupré"),
    _pipeline("NONE, any case.", parsing._NONE_LINE, "(None)."),
    _pipeline("A classify line.", parsing._CLASSIFY_LINE, "Document_Type:\u3000Lettre médicale"),
    _pipeline(
        "The verdict: \\b before a combining mark.", parsing._VERDICT_LINE, "PASS\u0301 fine"
    ),
    _pipeline("The verdict and an item.", parsing._VERDICT_LINE, "Verdict: FAIL — NAME: Jane"),
    _pipeline("The verdict, long s.", parsing._VERDICT_LINE, "paſſ."),
    _pipeline("An unfinished placeholder.", redact._UNFINISHED_PLACEHOLDER, "Dear [NAME_"),
    _pipeline("A placeholder.", PLACEHOLDER_PATTERN, "[NAME_1] [NAME_١] [ID_12]"),
    _pipeline("A numeric date.", constraint._NUMERIC_DATE, "3/15 ٣/٤ ３-４ 1.2"),
    _pipeline(
        "A time of day.", not_identifiers._TIME, "at 7:45\u202fpm, 14h30 or 19 H; not 25:00 ٣ am"
    ),
    _pipeline(
        "An amount.",
        not_identifiers._AMOUNT,
        "€1339, 870,00\u00a0€ and USD 25; 1\u202f250 euros, ſek 12, £１２",
    ),
)
