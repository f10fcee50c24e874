"""The markup that gold labels are written in: spans land exactly on their values."""

from __future__ import annotations

import pytest

from redacto.corpus.markup import MarkupError, keep, parse_markup, pii


@pytest.mark.parametrize(
    ("markup", "text", "pii_spans", "keep_spans"),
    [
        ("plain text", "plain text", [], []),
        ("Patient [[NAME|Jane Smith]].", "Patient Jane Smith.", [(8, 18, "NAME")], []),
        (
            "[[NAME|Ann]] has {{diagnosis|Type 2 diabetes}}",
            "Ann has Type 2 diabetes",
            [(0, 3, "NAME")],
            [(8, 23, "diagnosis")],
        ),
        ("No. [[ACCOUNT|4401\n8890]] end", "No. 4401\n8890 end", [(4, 13, "ACCOUNT")], []),
        ("    indented\n    [[DATE|1/2/2025]]", "indented\n1/2/2025", [(9, 17, "DATE")], []),
        ("time 10:30 [[PHONE|555-0101]]", "time 10:30 555-0101", [(11, 19, "PHONE")], []),
    ],
)
def test_parse_markup(markup, text, pii_spans, keep_spans) -> None:
    parsed_text, parsed_pii, parsed_keep = parse_markup(markup)
    assert parsed_text == text
    assert [(s.start, s.end, s.label) for s in parsed_pii] == pii_spans
    assert [(s.start, s.end, s.kind) for s in parsed_keep] == keep_spans


@pytest.mark.parametrize(
    "markup",
    [
        "[[NAME| Jane]]",  # edge space would make the span start on a blank
        "[[NAME|Jane]",  # unclosed
        "{{diagnosis|flu}",  # unclosed
        "a line with a trailing space \nnext",
    ],
)
def test_malformed_markup_is_refused(markup: str) -> None:
    with pytest.raises(MarkupError):
        parse_markup(markup)


def test_helpers_round_trip() -> None:
    text, spans, kept = parse_markup(f"{pii('EMAIL', 'a@b.co')} / {keep('amount', '$5.00')}")
    assert text == "a@b.co / $5.00"
    assert (spans[0].label, kept[0].kind) == ("EMAIL", "amount")
