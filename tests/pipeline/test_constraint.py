"""The reply pattern built from the page: right answers match in full, invented ones never.

Each table row is a page, the prompt's labels, and answers the pattern must accept or
reject (`re.fullmatch`, the semantics LLGuidance applies to the whole reply).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from redacto.corpus import load_suite
from redacto.pipeline.constraint import (
    DEFAULT_CLASS,
    MAX_LINES,
    SPACE,
    VALUE_CLASSES,
    ReplyShape,
    answer_pattern,
    escape,
    page_words,
    value_pattern,
)

LABELS = ("NAME", "DATE", "PHONE", "EMAIL", "ADDRESS", "ID", "SSN", "ACCOUNT", "CARD", "MRN")
LABELS = (*LABELS, "CREDENTIAL")

BUS = "The bus station is on Via Pasquale Scura 127"
LETTER = (
    "Dear Mrs. Chen,\nyour visit on 12 March 1981 is confirmed. Call (555) 123-4567 or "
    "write inquire@blucurrent. mail before Tue 8 Apr 2025.\nMRN 4471829, card 4111 1111 "
    "1111 1111. Greetings from Bairro St António 69, Lisboa. Ask for Ann van Gameren."
)
REDACTED = "Thanks, [NAME_1]! Text me at 07700 900123. [NAME_2] lives at [ADDRESS_1]."
# The outside suite's international values (English and French short texts).
FRENCH = (
    "Coucou Léa ! on se voit le 19 avril chez moi au avenue Jules Weiss, 13275 Bourgeois ? "
    "Appelle-moi au +33 (0)2 38 64 96 20. Sinon le 3 octobre, ou en avril. Le chat dort "
    "rue."
)
INTERNATIONAL = (
    "Don't forget Peter's party on May-3!! and Sigvard’s on Jul-31. The parcel was sent to "
    "plac Kilińskiego 654, 67-583 Jawor on 12 März 2025, then to via Roma 5 (12 de mayo de "
    "2024, 15-Mar-2024). See you in mid-May, or 3 maggio. walk the dog to Jawor."
)

DETECT = ReplyShape.DETECT
VALIDATE = ReplyShape.VALIDATE

ACCEPTED = [
    (BUS, DETECT, "ADDRESS: Via Pasquale Scura 127"),
    (BUS, DETECT, "ADDRESS: Via Pasquale Scura 127\n"),
    (BUS, DETECT, "NONE"),
    (BUS, DETECT, "NONE\n"),
    (LETTER, DETECT, "NAME: Mrs. Chen"),
    (LETTER, DETECT, "NAME: Mrs. Chen,"),
    (LETTER, DETECT, "NAME: Chen"),
    (LETTER, DETECT, "NAME: Ann van Gameren"),
    (LETTER, DETECT, "NAME: van Gameren"),
    (LETTER, DETECT, "DATE: 12 March 1981"),
    (LETTER, DETECT, "DATE: Tue 8 Apr 2025"),
    (LETTER, DETECT, "DATE: Tue 8 Apr 2025."),
    (LETTER, DETECT, "PHONE: (555) 123-4567"),
    (LETTER, DETECT, "PHONE: 555 123-4567"),
    (LETTER, DETECT, "EMAIL: inquire@blucurrent. mail"),
    (LETTER, DETECT, "EMAIL: inquire@blucurrent."),
    (LETTER, DETECT, "MRN: 4471829"),
    (LETTER, DETECT, "MRN: 4471829,"),
    (LETTER, DETECT, "CARD: 4111 1111 1111 1111"),
    (LETTER, DETECT, "ADDRESS: Bairro St António 69"),
    (LETTER, DETECT, "ADDRESS: Bairro St António 69, Lisboa"),
    # A value the line breaks cut: runs go on across lines, written with one space.
    (LETTER, DETECT, "NAME: Chen,\nDATE: 12 March 1981\nPHONE: (555) 123-4567"),
    (LETTER, DETECT, "CREDENTIAL: 4471829,"),
    (REDACTED, VALIDATE, "PASS"),
    (REDACTED, VALIDATE, "PASS\n"),
    (REDACTED, VALIDATE, "FAIL\nPHONE: 07700 900123"),
    (REDACTED, VALIDATE, "FAIL\nPHONE: 07700 900123.\nNAME: Thanks"),
    # Gemma's tokens carry their leading space as U+2581: the grammar sees that mark.
    (BUS, DETECT, "ADDRESS:▁Via▁Pasquale▁Scura▁127"),
    # International values: month names of other languages, `May-3`, a street-type word
    # first in lower case, a possessive's name, a phone number of six words.
    (FRENCH, DETECT, "DATE: 19 avril"),
    (FRENCH, DETECT, "DATE: 3 octobre"),
    (FRENCH, DETECT, "ADDRESS: avenue Jules Weiss, 13275 Bourgeois"),
    (FRENCH, DETECT, "PHONE: +33 (0)2 38 64 96 20"),
    (FRENCH, DETECT, "PHONE: +33 (0)2 38 64 96 20."),
    (FRENCH, DETECT, "NAME: Léa"),
    (INTERNATIONAL, DETECT, "NAME: Peter"),
    (INTERNATIONAL, DETECT, "NAME: Peter's"),
    (INTERNATIONAL, DETECT, "NAME: Sigvard"),
    (INTERNATIONAL, DETECT, "NAME: Sigvard’s"),
    (INTERNATIONAL, DETECT, "DATE: May-3"),
    (INTERNATIONAL, DETECT, "DATE: Jul-31"),
    (INTERNATIONAL, DETECT, "DATE: 15-Mar-2024"),
    (INTERNATIONAL, DETECT, "DATE: 12 März 2025"),
    (INTERNATIONAL, DETECT, "DATE: 12 de mayo de 2024"),
    (INTERNATIONAL, DETECT, "DATE: 3 maggio"),
    (INTERNATIONAL, DETECT, "ADDRESS: plac Kilińskiego 654, 67-583 Jawor"),
    (INTERNATIONAL, DETECT, "ADDRESS: via Roma 5"),
]

REJECTED = [
    # FINDINGS 3: values from memory, none of them on the page.
    (BUS, DETECT, "NAME: Lisa"),
    (BUS, DETECT, "DATE: 11:00"),
    (BUS, DETECT, "PHONE: 512-888"),
    (BUS, DETECT, "NAME: Sam Lee"),
    # The page's words, but not of the label's class.
    (BUS, DETECT, "EMAIL: station"),
    (BUS, DETECT, "PHONE: Scura"),
    (BUS, DETECT, "NAME: bus station"),
    (BUS, DETECT, "DATE: 127"),
    (BUS, DETECT, "SSN: 127"),
    (LETTER, DETECT, "DATE: 1981"),
    (LETTER, DETECT, "PHONE: 69"),
    (LETTER, DETECT, "NAME: 4471829"),
    (LETTER, DETECT, "EMAIL: Chen"),
    # Words of the page, not next to each other.
    (BUS, DETECT, "ADDRESS: Via Scura 127"),
    (LETTER, DETECT, "NAME: Chen Gameren"),
    # Not a line of the format, or a label the prompt does not allow.
    (BUS, DETECT, "ADDRESS Via Pasquale Scura 127"),
    (BUS, DETECT, "LOCATION: Via Pasquale Scura 127"),
    (BUS, DETECT, "Here are the items:\nADDRESS: Via Pasquale Scura 127"),
    (BUS, DETECT, ""),
    (BUS, DETECT, "NONE\nADDRESS: Via Pasquale Scura 127"),
    (BUS, DETECT, "ADDRESS: Via Pasquale Scura 127\n\n"),
    # Validate: a redacted value, a placeholder, the prompt's example, a bare FAIL.
    (REDACTED, VALIDATE, "FAIL\nNAME: [NAME_1]"),
    (REDACTED, VALIDATE, "FAIL\nADDRESS: 07700 900123 [NAME_2]"),
    (REDACTED, VALIDATE, "FAIL\nNAME: Mrs. Chen"),
    (REDACTED, VALIDATE, "FAIL"),
    (REDACTED, VALIDATE, "PASS\nPHONE: 07700 900123"),
    (REDACTED, VALIDATE, "NONE"),
    (BUS, VALIDATE, "ADDRESS: Via Pasquale Scura 127"),
    # International values: what stays refused near the new acceptances.
    (FRENCH, DETECT, "DATE: avril"),
    (FRENCH, DETECT, "DATE: en avril"),
    (FRENCH, DETECT, "DATE: 13275"),
    (FRENCH, DETECT, "ADDRESS: moi au avenue Jules Weiss, 13275 Bourgeois"),
    (FRENCH, DETECT, "ADDRESS: chat dort rue"),
    (FRENCH, DETECT, "ADDRESS: avenue"),
    (FRENCH, DETECT, "PHONE: +33 (0)2 38 64 96 20. Sinon le 3"),
    (FRENCH, DETECT, "NAME: Appelle"),
    (INTERNATIONAL, DETECT, "NAME: Peter party"),
    (INTERNATIONAL, DETECT, "NAME: Peter'"),
    (INTERNATIONAL, DETECT, "DATE: mid-May"),
    (INTERNATIONAL, DETECT, "DATE: May"),
    (INTERNATIONAL, DETECT, "ADDRESS: walk the dog to Jawor"),
    (INTERNATIONAL, DETECT, "ADDRESS: dog to Jawor"),
]


def matches(text: str, shape: ReplyShape, answer: str, labels=LABELS) -> bool:
    return re.fullmatch(answer_pattern(text, labels, shape).pattern, answer) is not None


@pytest.mark.parametrize(("text", "shape", "answer"), ACCEPTED)
def test_right_answers_match(text, shape, answer):
    assert matches(text, shape, answer)


@pytest.mark.parametrize(("text", "shape", "answer"), REJECTED)
def test_invented_or_malformed_answers_do_not(text, shape, answer):
    assert not matches(text, shape, answer)


def test_only_the_prompts_labels_and_only_those_with_a_value_on_the_page():
    built = answer_pattern(BUS, LABELS, DETECT)
    assert built.labels == ("NAME", "ADDRESS", "ID", "ACCOUNT", "CARD", "MRN", "CREDENTIAL")
    assert "EMAIL" not in built.pattern and "PHONE" not in built.pattern
    assert not matches(LETTER, DETECT, "MRN: 4471829", labels=("NAME", "DATE"))
    assert matches(LETTER, DETECT, "NAME: Chen", labels=("NAME", "DATE"))


def test_a_page_with_nothing_to_name_allows_only_the_empty_answer():
    assert answer_pattern("[NAME_1] [PHONE_1]", LABELS, DETECT).pattern == "(?:NONE)\\n?"
    assert answer_pattern("", LABELS, VALIDATE).pattern == "(?:PASS)\\n?"


@pytest.mark.slow
def test_the_number_of_lines_is_bounded():
    page = " ".join(f"{n}{n}" for n in range(10, 10 + MAX_LINES + 1))
    lines = [f"ID: {n}{n}" for n in range(10, 10 + MAX_LINES + 1)]
    assert matches(page, DETECT, "\n".join(lines[:MAX_LINES]))
    assert not matches(page, DETECT, "\n".join(lines))
    assert matches(page, VALIDATE, "FAIL\n" + "\n".join(lines[:MAX_LINES]))
    assert not matches(page, VALIDATE, "FAIL\n" + "\n".join(lines))


def test_a_value_has_at_most_its_labels_words():
    page = "Aa Bb Cc Dd Ee"
    assert matches(page, DETECT, "NAME: Aa Bb Cc Dd")
    assert not matches(page, DETECT, "NAME: Aa Bb Cc Dd Ee")


@pytest.mark.parametrize(
    "word",
    ["a.b", "x+y", "(1)", "[2]", "{3}", "a|b", "^c$", "d*e?", "back\\slash", "50%", "#7&~-"],
)
def test_every_special_character_is_a_literal(word):
    page = f"Mr Smith paid {word}9 to 4111"
    assert matches(page, DETECT, f"CREDENTIAL: {word}9")
    assert matches(page, DETECT, f"CREDENTIAL: paid {word}9")
    assert re.fullmatch(escape(f"{word} x"), f"{word} x")


def test_spaces_are_written_as_a_class_and_never_literally():
    pattern = answer_pattern(LETTER, LABELS, DETECT).pattern
    assert " " not in pattern.replace(SPACE, "")
    assert f"NAME:{SPACE}" in pattern


def test_placeholders_split_the_page_into_stretches():
    stretches = page_words("a [NAME_1] b c [X_2], d")
    assert [[word.raw for word in stretch] for stretch in stretches] == [["a"], ["b", "c"], ["d"]]
    assert [word.core for word in page_words("(555) Chen, “quoted”")[0]] == [
        "555",
        "Chen",
        "quoted",
    ]


# Gold values no run of the page's words can write: the word keeps an edge mark the value
# has (`(0774)-827974.` loses its `(` and its `.` together, `Klaus-D.!` its `.` and `!`).
UNWRITABLE = {
    "main": set(),
    "outside": {
        ("NAME", "Klaus-D."),
        ("PHONE", "(0774)-827974"),
        ("PHONE", "(0498)-674819"),
        ("PHONE", "(436)654-2480x29057"),
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("suite", sorted(UNWRITABLE))
def test_the_suites_gold_values_are_writable(suite):
    """Every gold value of the suite matches its label's class on its own page, so the
    constrained model can name it: the classes forbid no right answer the suites know."""
    unwritable = set()
    for document in load_suite(suite):
        stretches = page_words(document.text)
        patterns: dict[str, re.Pattern[str] | None] = {}
        for item in document.pii:
            if item.label not in patterns:
                values = value_pattern(stretches, VALUE_CLASSES.get(item.label, DEFAULT_CLASS))
                patterns[item.label] = re.compile(values) if values else None
            value = " ".join(document.text[item.start : item.end].split())
            pattern = patterns[item.label]
            if pattern is None or not pattern.fullmatch(value):
                unwritable.add((item.label, value))
    assert unwritable == UNWRITABLE[suite]


VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "constraint"
VECTOR_CASES = [
    case
    for path in sorted(VECTORS.glob("*.json"))
    for case in json.loads(path.read_text(encoding="utf-8"))["cases"]
]


@pytest.mark.parametrize("case", VECTOR_CASES, ids=[case["name"] for case in VECTOR_CASES])
def test_golden_vectors(case):
    """tests/vectors/constraint: the exact pattern, which the Kotlin core builds too."""
    built = answer_pattern(case["text"], case["labels"], ReplyShape(case["shape"]))
    assert built.pattern == case["pattern"]
    assert list(built.labels) == case["possible_labels"]
    assert all(re.fullmatch(built.pattern, answer) for answer in case["accept"])
    assert not any(re.fullmatch(built.pattern, answer) for answer in case["reject"])
