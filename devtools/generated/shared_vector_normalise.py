"""The texts of `tests/vectors/normalise/normalise.json`: what the rules' normaliser must do.

`shared_vectors.py` asks `redacto.rules.normalise` for each answer; the Kotlin core's
`RuleNormalise` must give the same. Characters are chosen from Unicode 13 or older, which
both CPython 3.11 (Unicode 14) and Java 17 (Unicode 13) know alike.
"""

from __future__ import annotations

NORMALISE_CASES: list[tuple[str, str, str]] = [
    (
        "ascii_unchanged",
        "plain ASCII is read as written, with no map",
        "Card 4111 1111, SSN 536-22-8741",
    ),
    ("two_spaces_stay", "plain spaces inside a number stay as they are", "4111  1111 1111 1111"),
    ("fullwidth_digits", "full-width digits and hyphen (NFKC)", "４１１１－１１ ｘ"),
    ("fullwidth_letters", "full-width letters, at sign and dot", "ｊａｎｅ＠ｅｘ．ｃｏｍ"),
    (
        "unicode_spaces",
        "no-break, narrow, thin and ideographic spaces",
        "1\u00a02\u202f3\u20094\u30005",
    ),
    (
        "other_spaces",
        "ogham space, line and paragraph separators, NEL",
        "a\u1680b\u2028c\u2029d\u0085e",
    ),
    (
        "zero_width",
        "zero-width space and joiners, word joiner, BOM, soft hyphen: dropped",
        "ja\u200bne\u200c@\u200dex\u2060.\ufeffcom\u00ad!",
    ),
    (
        "direction_marks",
        "bidi marks, embeddings and isolates: dropped",
        "\u200e1\u200f2\u202a3\u202c4\u20665\u2069",
    ),
    (
        "invisible_extra",
        "grapheme joiner, variation selector, Hangul filler",
        "a\u034fb\ufe0fc\u3164d",
    ),
    (
        "dashes",
        "every dash (Pd), the minus sign, small and full-width hyphens",
        "1\u20102\u20113\u20124\u20135\u20146\u20157\u22128\ufe589\ufe630\uff0d1\u30302",
    ),
    (
        "combining_marks",
        "a letter and its combining accent read as one letter",
        "ju\u0308rgen cafe\u0301!",
    ),
    (
        "invisible_before_a_mark",
        "an invisible character between a letter and its accent: one letter",
        "cafe\u200b\u0301 \ufb01\u200d\u0301",
    ),
    ("leading_mark", "a combining mark with no letter before it stays", "\u0301abc"),
    ("ligatures", "ligatures become their letters, each from the ligature", "\ufb01le \ufb03x"),
    (
        "compatibility",
        "circled, superscript, roman numerals, units",
        "\u2460\u2461\u00b3 \u216b \u338f \u2121",
    ),
    (
        "digit_gaps",
        "tab, line break, CRLF inside a number read as a space",
        "4111\t1111\n1111\r\n1111",
    ),
    (
        "digit_gap_limits",
        "a blank line or 4 spaces is layout; letters around are not a number",
        "12\n\n\n\n34 a\tb 5 \t6",
    ),
    ("space_then_gap", "a no-break space and a tab inside a number", "1\u00a0\t2"),
    ("astral", "a character outside the BMP (offsets in code points)", "a\U0001d7d9b \U0001f600 c"),
    (
        "unchanged_scripts",
        "letters of other scripts are read as written",
        "иван@пример.рф Größe 한국 ß İ",
    ),
    (
        "other_digits",
        "Arabic-Indic digits are not compatibility forms: unchanged",
        "\u0664\u0661\u0661\u0661",
    ),
]
"""(name, description, text): the cases, in file order."""
