"""Identifiers written with Unicode tricks are found, and the span covers what was written.

Read as typed, a card with no-break spaces, an SSN with an en dash, full-width digits or an
e-mail with a zero-width space inside would pass the safety net. The rules read a normalised
text (`redacto.rules.normalise`) and map every hit back onto the original characters, the
invisible ones inside it included.
"""

from __future__ import annotations

import pytest

from redacto.document import Category, Document, Element
from redacto.rules import find_rule_detections, find_rule_matches

CARD = "4111 1111 1111 1111"
WIDE_CARD = "４１１１ １１１１ １１１１ １１１１"


def found(text: str, category: Category = Category.GENERAL) -> list[tuple[str, str]]:
    return [(m.recognizer, m.value) for m in find_rule_matches(Document.from_text(text), category)]


MISSES = [
    # full-width digits and letters (NFKC)
    (f"Card {WIDE_CARD} ok", "payment_card", WIDE_CARD),
    ("SSN ５３６－２２－８７４１.", "ssn", "５３６－２２－８７４１"),
    ("mail ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ now", "email", "ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ"),
    # every Unicode space, and a tab or line break inside a number
    ("Card 4111\u00a01111\u00a01111\u00a01111 ok", "payment_card", CARD.replace(" ", "\u00a0")),
    ("Card 4111\u202f1111\u202f1111\u202f1111 ok", "payment_card", CARD.replace(" ", "\u202f")),
    ("Card 4111\u20091111\u20091111\u20091111 ok", "payment_card", CARD.replace(" ", "\u2009")),
    ("Card 4111\u30001111\u30001111\u30001111 ok", "payment_card", CARD.replace(" ", "\u3000")),
    ("Card 4111\t1111\t1111\t1111 ok", "payment_card", CARD.replace(" ", "\t")),
    ("Card 4111\n1111\n1111\n1111 ok", "payment_card", CARD.replace(" ", "\n")),
    ("Card 4111\r\n1111\r\n1111\r\n1111 ok", "payment_card", CARD.replace(" ", "\r\n")),
    # Unicode dashes
    ("SSN 536\u201022\u20108741.", "ssn", "536\u201022\u20108741"),
    ("SSN 536\u201122\u20118741.", "ssn", "536\u201122\u20118741"),
    ("SSN 536\u201322\u20138741.", "ssn", "536\u201322\u20138741"),
    ("SSN 536\u201422\u20148741.", "ssn", "536\u201422\u20148741"),
    ("SSN 536\u221222\u22128741.", "ssn", "536\u221222\u22128741"),
    ("SSN 536\uff0d22\uff0d8741.", "ssn", "536\uff0d22\uff0d8741"),
    # a lower-case IBAN
    ("IBAN de89 3704 0044 0532 0130 00 ok", "iban", "de89 3704 0044 0532 0130 00"),
    ("iban de89370400440532013000.", "iban", "de89370400440532013000"),
    # zero-width and other invisible characters inside a value
    ("to jane\u200b.doe@example.com.", "email", "jane\u200b.doe@example.com"),
    ("to jane.doe@exam\u200dple.com.", "email", "jane.doe@exam\u200dple.com"),
    ("to jane.doe\u2060@example\ufeff.com!", "email", "jane.doe\u2060@example\ufeff.com"),
    ("to jane.doe@ex\u00adample.com.", "email", "jane.doe@ex\u00adample.com"),
    ("mail \U0001d7d9ane@example.com", "email", "\U0001d7d9ane@example.com"),  # astral 1
    ("Card 4111\u200b 1111 1111\u200c 1111 ok", "payment_card", "4111\u200b 1111 1111\u200c 1111"),
    ("SSN 536-2\u200b2-8741.", "ssn", "536-2\u200b2-8741"),
    # international e-mail addresses, whole
    ("mail hans.mueller@bücher.de now", "email", "hans.mueller@bücher.de"),
    ("mail jürgen.müller@example.de now", "email", "jürgen.müller@example.de"),
    ("an «jürgen@müller.de» geschickt", "email", "jürgen@müller.de"),
    ("почта: иван@пример.рф.", "email", "иван@пример.рф"),
    ("mail: 用户@例子.广告 ok", "email", "用户@例子.广告"),
    # a precomposed letter written as a letter and a combining mark
    ("mail ju\u0308rgen@example.de now", "email", "ju\u0308rgen@example.de"),
]


@pytest.mark.parametrize(("text", "recognizer", "value"), MISSES)
def test_an_identifier_written_with_unicode_tricks_is_found_whole(
    text: str, recognizer: str, value: str
) -> None:
    matches = find_rule_matches(Document.from_text(text), Category.GENERAL)
    assert [(m.recognizer, m.value) for m in matches] == [(recognizer, value)]
    span = matches[0].span
    assert span is not None
    assert text[span.start : span.end] == value


def test_an_email_with_a_non_ascii_local_part_is_not_cut_at_its_last_accent() -> None:
    # Before: "jürgen.mü[EMAIL_1]" — the lookbehind read ü as a boundary.
    assert found("Schreiben Sie an jürgen.müller@example.de.") == [
        ("email", "jürgen.müller@example.de")
    ]


def test_quotes_and_punctuation_around_an_international_address_stay_outside() -> None:
    assert found("“jürgen@müller.de”, bitte") == [("email", "jürgen@müller.de")]
    assert found("(jürgen@müller.de)") == [("email", "jürgen@müller.de")]


def test_detections_in_text_mode_cover_the_original_characters() -> None:
    text = "Card ４１１１\u00a0１１１１\u00a0１１１１\u00a0１１１１, mail ja\u200bne@ex.com"
    detections = find_rule_detections(Document.from_text(text), Category.GENERAL)
    assert [(d.label, d.value) for d in detections] == [
        ("CARD", "４１１１\u00a0１１１１\u00a0１１１１\u00a0１１１１"),
        ("EMAIL", "ja\u200bne@ex.com"),
    ]
    for detection in detections:
        assert detection.span is not None
        assert text[detection.span.start : detection.span.end] == detection.value


def test_image_mode_names_every_element_of_a_value_written_with_tricks() -> None:
    words = ["SSN", "536\u201322\u20138741", "card", "４１１１", "１１１１", "１１１１", "１１１１"]
    document = Document.from_elements([Element(index=i, text=w) for i, w in enumerate(words)])
    matches = find_rule_matches(document, Category.GENERAL)
    assert [(m.recognizer, m.indices) for m in matches] == [
        ("ssn", (1,)),
        ("payment_card", (3, 4, 5, 6)),
    ]


def test_plain_ascii_text_reads_as_before() -> None:
    assert found("Card 4111 1111 1111 1111, SSN 536-22-8741, jane@example.com") == [
        ("payment_card", CARD),
        ("ssn", "536-22-8741"),
        ("email", "jane@example.com"),
    ]
    # Two numbers on two lines of a table stay two numbers; a blank line is a paragraph.
    assert found("Total 4111 1111\n\n\n\n1111 1111") == []
