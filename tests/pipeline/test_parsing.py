"""Every line parser as a table: good, junk, partial, duplicated, out-of-chunk, wrong label."""

import pytest

from redacto.document import Category
from redacto.pipeline.parsing import (
    IndexItem,
    LineRejected,
    RejectReason,
    TextItem,
    Verdict,
    VerdictParse,
    parse_classify,
    parse_index_line,
    parse_text_line,
)

LABELS = frozenset({"NAME", "DATE", "PHONE", "EMAIL", "MRN"})
CHUNK = range(150, 300)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("151:NAME", IndexItem(151, "NAME")),
        ("  151 : name ", IndexItem(151, "NAME")),
        ("[151]:NAME", IndexItem(151, "NAME")),
        ("- 151:NAME", IndexItem(151, "NAME")),
        ("* 151:[DATE]", IndexItem(151, "DATE")),
        ("**151:NAME**", IndexItem(151, "NAME")),
        ("151:NAME.", IndexItem(151, "NAME")),
        ("151:PHONE (mobile)", IndexItem(151, "PHONE")),
        ("150:NAME", IndexItem(150, "NAME")),
        ("299:NAME", IndexItem(299, "NAME")),
        ("", None),
        ("   ", None),
        ("NONE", None),
        ("none.", None),
        ("(None)", None),
        ("300:NAME", RejectReason.OUT_OF_CHUNK),
        ("149:NAME", RejectReason.OUT_OF_CHUNK),
        ("151:SURNAME", RejectReason.UNKNOWN_LABEL),
        ("151:CARD", RejectReason.UNKNOWN_LABEL),
        ("151:", RejectReason.JUNK),
        ("151", RejectReason.JUNK),
        (":NAME", RejectReason.JUNK),
        ("15", RejectReason.JUNK),
        ("NAME: Jane", RejectReason.JUNK),
        ("151:NAME Jane Smith", RejectReason.JUNK),
        ("Here are the identifiers:", RejectReason.JUNK),
        ("-1:NAME", RejectReason.JUNK),
        ("151:NAME,152:NAME", RejectReason.JUNK),
    ],
)
def test_index_lines(line, expected):
    result = parse_index_line(line, LABELS, CHUNK)
    if isinstance(expected, RejectReason):
        assert result == LineRejected(line, expected)
    else:
        assert result == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("NAME: Mrs. Chen", TextItem("NAME", "Mrs. Chen")),
        ("name : Mrs. Chen ", TextItem("NAME", "Mrs. Chen")),
        ("- EMAIL: inquire@blucurrent. mail", TextItem("EMAIL", "inquire@blucurrent. mail")),
        ('NAME: "Lisa"', TextItem("NAME", "Lisa")),
        ("NAME: “Lisa”", TextItem("NAME", "Lisa")),
        ("DATE: 3/15/48: admission", TextItem("DATE", "3/15/48: admission")),
        ("**MRN:** 4471829", TextItem("MRN", "4471829")),
        ("", None),
        ("NONE", None),
        ("NAME:", RejectReason.EMPTY_VALUE),
        ('NAME: ""', RejectReason.EMPTY_VALUE),
        ("NAME: [NAME_1]", RejectReason.PLACEHOLDER_VALUE),
        ("NAME: Dr. [NAME_2]", RejectReason.PLACEHOLDER_VALUE),
        ("SURNAME: Chen", RejectReason.UNKNOWN_LABEL),
        ("DOCUMENT_TYPE: note", RejectReason.UNKNOWN_LABEL),
        ("1:NAME", RejectReason.JUNK),
        ("The patient is Mrs. Chen", RejectReason.JUNK),
        ("Mrs. Chen", RejectReason.JUNK),
    ],
)
def test_text_lines(line, expected):
    result = parse_text_line(line, LABELS)
    if isinstance(expected, RejectReason):
        assert result == LineRejected(line, expected)
    else:
        assert result == expected


@pytest.mark.parametrize(
    ("reply", "category", "document_type", "reasons"),
    [
        ("DOCUMENT_TYPE: Medical Note\nCATEGORY: Medical", Category.MEDICAL, "Medical Note", []),
        ("CATEGORY: Field Service", Category.FIELD_SERVICE, "", []),
        ("category: FIELD_SERVICE.", Category.FIELD_SERVICE, "", []),
        (
            "Document type: Bank statement\nCategory: **Financial**",
            Category.FINANCIAL,
            "Bank statement",
            [],
        ),
        ("CATEGORY: Medical\nCATEGORY: Legal", Category.MEDICAL, "", ["duplicate"]),
        ("DOCUMENT_TYPE: a\nDOCUMENT_TYPE: b", None, "a", ["duplicate"]),
        ("CATEGORY: Cooking", None, "", ["unknown category"]),
        ("CATEGORY: Medical/Legal", None, "", ["unknown category"]),
        ("I think it is medical.", None, "", ["junk"]),
        ("DOCUMENT_TYPE: Lease", None, "Lease", []),
        ("", None, "", []),
        ("CATEG", None, "", ["junk"]),
    ],
)
def test_classify_replies(reply, category, document_type, reasons):
    parse = parse_classify(reply)
    assert parse.category == category
    assert parse.document_type == document_type
    assert [rejected.reason.value for rejected in parse.rejected] == reasons


@pytest.mark.parametrize(
    ("reply", "verdict", "items", "no_verdict"),
    [
        ("PASS", Verdict.PASS, [], False),
        ("pass.", Verdict.PASS, [], False),
        ("\n\nPASS\n\n", Verdict.PASS, [], False),
        ("VERDICT: PASS", Verdict.PASS, [], False),
        ("**PASS**", Verdict.PASS, [], False),
        ("FAIL\n4:DATE\n5:NAME", Verdict.FAIL, ["4:DATE", "5:NAME"], False),
        ("FAIL: 4:DATE", Verdict.FAIL, ["4:DATE"], False),
        ("PASS\n4:DATE", Verdict.FAIL, ["4:DATE"], False),
        ("PASS - nothing left", Verdict.FAIL, ["nothing left"], False),
        ("4:DATE", Verdict.FAIL, ["4:DATE"], True),
        ("Looks good.", Verdict.FAIL, ["Looks good."], True),
        ("", Verdict.FAIL, [], True),
        ("PASSED", Verdict.FAIL, ["PASSED"], True),
        ("FAI", Verdict.FAIL, ["FAI"], True),
    ],
)
def test_verdicts_fail_closed(reply, verdict, items, no_verdict):
    parse = VerdictParse()
    fed = [rest for line in reply.splitlines() if (rest := parse.feed(line)) is not None]
    assert parse.final() is verdict
    assert fed == items
    assert (parse.rejected == [LineRejected("", RejectReason.BAD_VERDICT)]) is no_verdict


def test_a_verdict_is_known_as_soon_as_its_line_ends():
    parse = VerdictParse()
    parse.feed("FAIL")
    assert parse.verdict is Verdict.FAIL
