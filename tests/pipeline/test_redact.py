"""Redaction: placeholder numbering, image index→box, and the text-mode answer check."""

import pytest

from redacto.document import Detection, Source, Span
from redacto.pipeline.placeholders import PlaceholderBook, value_key
from redacto.pipeline.redact import align_answer, answer_may_align, values_match


def text_detection(label: str, value: str) -> Detection:
    return Detection(label=label, source=Source.DETECT, round=1, value=value)


def test_placeholders_number_distinct_values_per_label_in_order_seen():
    book = PlaceholderBook()
    assigned = [
        book.assign("NAME", "Jane"),
        book.assign("NAME", "Smith,"),
        book.assign("DATE", "03/15/78"),
        book.assign("NAME", "JANE"),
        book.assign("NAME", "Lee"),
        book.assign("ID", "jane"),  # same value, other label: still the value's placeholder
    ]
    assert assigned == ["[NAME_1]", "[NAME_2]", "[DATE_1]", "[NAME_1]", "[NAME_3]", "[NAME_1]"]
    assert len(book) == 4


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Smith,", "smith", True),
        ("Mrs. Chen", "mrs chen", True),
        ("03/15/78", "031578", True),
        ("—", "—", True),
        ("—", "-", False),
        ("Jane", "Janet", False),
    ],
)
def test_value_keys(a, b, same):
    assert (value_key(a) == value_key(b)) is same


ORIGINAL = "Mrs. Chen (MRN 4471829) called 408-555-1234 about inquire@blucurrent. mail."
DETECTIONS = [
    text_detection("NAME", "Mrs. Chen"),
    text_detection("MRN", "4471829"),
    text_detection("EMAIL", "inquire@ucal.com"),
]


@pytest.mark.parametrize(
    ("answer", "pieces"),
    [
        (
            "[NAME_1] (MRN [MRN_1]) called 408-555-1234 about [EMAIL_1].",
            [("Mrs. Chen", "NAME"), ("4471829", "MRN"), ("inquire@blucurrent. mail", "EMAIL")],
        ),
        # surrounding whitespace is not a rewrite
        (
            "\n  [NAME_1] (MRN 4471829) called 408-555-1234 about inquire@blucurrent. mail.\n",
            [("Mrs. Chen", "NAME")],
        ),
        # no placeholder at all, text untouched: faithful, covers nothing
        (ORIGINAL, []),
        # the model's own numbering and label are not trusted, the matching detection is
        (
            "[PERSON_7] (MRN [MRN_1]) called 408-555-1234 about inquire@blucurrent. mail.",
            [("Mrs. Chen", "NAME"), ("4471829", "MRN")],
        ),
    ],
)
def test_faithful_answers_become_spans_of_the_original(answer, pieces):
    aligned = align_answer(ORIGINAL, answer, DETECTIONS)
    assert aligned is not None
    assert [(ORIGINAL[s.start : s.end], d.label) for s, d in aligned] == pieces


@pytest.mark.parametrize(
    "answer",
    [
        "[NAME_1] (MRN [MRN_1]) phoned 408-555-1234 about [EMAIL_1].",  # reworded
        "[NAME_1] (MRN [MRN_1]) called 408-555-1234, about [EMAIL_1].",  # added a comma
        "[NAME_1] (MRN [MRN_1]) called [PHONE_1] about [EMAIL_1].",  # redacted a non-detection
        "[NAME_1][MRN_1] called 408-555-1234 about [EMAIL_1].",  # split between them unknown
        "Here is the redacted text: [NAME_1] (MRN [MRN_1]) called 408-555-1234 about [EMAIL_1].",
        "",
        "[NAME_1]",  # the whole text for one name
        "[NAME_1] (MRN [MRN_1]) called [PHONE_1]",
        "Mrs. Chen (MRN 4471829) called 408-555-1234.",
    ],
)
def test_rewritten_answers_are_rejected(answer):
    assert align_answer(ORIGINAL, answer, DETECTIONS) is None


FAITHFUL = [
    "[NAME_1] (MRN [MRN_1]) called 408-555-1234 about [EMAIL_1].",
    "\n  [NAME_1] (MRN 4471829) called 408-555-1234 about inquire@blucurrent. mail.\n",
    ORIGINAL,
    "[PERSON_7] (MRN [MRN_1]) called 408-555-1234 about inquire@blucurrent. mail.",
]


@pytest.mark.parametrize("answer", FAITHFUL)
def test_no_prefix_of_an_accepted_answer_is_stopped(answer):
    assert align_answer(ORIGINAL, answer, DETECTIONS) is not None
    for end in range(len(answer) + 1):
        assert answer_may_align(ORIGINAL, answer[:end]), repr(answer[:end])


@pytest.mark.parametrize(
    ("answer", "departs_at"),
    [
        ("Here is the redacted text: [NAME_1] (MRN [MRN_1]) called", "Here"),
        ("[NAME_1] (MRN [MRN_1]) phoned 408-555-1234 about [EMAIL_1].", "phoned"),
        ("[NAME_1] (MRN [MRN_1]) called 408-555-1234, about [EMAIL_1].", ", about"),
        ("[NAME_1][MRN_1] called 408-555-1234 about [EMAIL_1].", "[MRN_1]"),
        ("Mrs. Chen (MRN 4471829) called 408-555-1234.\nThe patient", "\nThe"),
    ],
)
def test_a_rewrite_is_stopped_where_it_departs_from_the_original(answer, departs_at):
    cut = answer.index(departs_at) + len(departs_at)
    assert not answer_may_align(ORIGINAL, answer[:cut])
    assert align_answer(ORIGINAL, answer, DETECTIONS) is None


def test_a_span_of_leading_whitespace_is_kept_in_original_coordinates():
    original = "\n\n  Call Jane today."
    aligned = align_answer(original, "Call [NAME_1] today.", [text_detection("NAME", "Jane")])
    assert aligned is not None
    [(span, _)] = aligned
    assert original[span.start : span.end] == "Jane"
    assert span == Span(start=9, end=13)


@pytest.mark.parametrize(
    ("piece", "value", "same"),
    [
        ("inquire@blucurrent. mail", "inquire@blucurrent.mail", True),
        ("inquire@blucurrent. mail", "inquire@ucal.com", True),  # shares "inquire"
        ("Dr. Srnith", "Dr. Smith", True),
        ("408-555-1234", "(408) 555 1234", True),
        ("diabetes", "Mrs. Chen", False),
        ("Jan", "Jane Smith", False),
        ("408-555-1234", "408-555-9999", False),
        ("408-555-1234", "408-555-1284", True),
        ("4471829 called about", "4471829", False),
        ("Mrs. Chen (MRN 4471829) called", "Mrs. Chen", False),
    ],
)
def test_values_match(piece, value, same):
    assert values_match(piece, value) is same


def test_redact_prompt_lists_each_distinct_item_once(prompts):
    from redacto.document import Document, Step
    from redacto.engines.scripted import ScriptedEngine
    from redacto.pipeline.redact import redact_text
    from redacto.pipeline.state import PipelineOptions, StepContext

    engine = ScriptedEngine.from_mapping({"redact": ["[NAME_1] met [NAME_1]."]})
    context = StepContext(engine, prompts, PipelineOptions(), None)
    twice = [
        Detection(label="NAME", source=Source.RULE, round=1, value="Ann"),
        Detection(label="NAME", source=Source.DETECT, round=1, value="Ann"),
    ]
    redact_text(Document.from_text("Ann met Ann."), twice, context, 1)

    (request,) = engine.requests
    assert request.step is Step.REDACT
    assert request.user.count("NAME: Ann") + request.system.count("NAME: Ann") == 1
