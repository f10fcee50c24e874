"""Text mode runs in 150-word chunks: every call stays within one chunk's budget, however
long the text, and each step asks about each chunk as image mode does."""

from __future__ import annotations

from redacto.document import Document, Status, Step
from redacto.pipeline import Phase, PipelineOptions, ProgressEvent, run_pipeline
from redacto.pipeline.chunking import CHUNK_SIZE, chunk_text
from redacto.pipeline.parsing import RejectReason
from scripted_models import trusting

NO_RULES = PipelineOptions(rules=False)


def shown_document(user: str) -> str:
    """The document part of a rendered user message (`<document>` … `</document>`)."""
    return user.rsplit("<document>\n", 1)[1].split("\n</document>", 1)[0]


def shown_identifiers(user: str) -> list[str]:
    return user.split("<identifiers>\n", 1)[1].split("\n</identifiers>", 1)[0].splitlines()


def long_text(words: int = 1500, per_line: int = 12) -> str:
    tokens = [f"w{i}" for i in range(words)]
    return "".join(" ".join(tokens[i : i + per_line]) + "\n" for i in range(0, words, per_line))


def test_a_long_text_is_sent_at_most_one_chunk_per_call(prompts):
    text = long_text()
    chunks = chunk_text(text)
    assert len(chunks) == 11
    last = chunks[-1].of(text)
    engine = trusting(
        {
            "classify": ["CATEGORY: General"],
            "detect": ["NONE"] * (len(chunks) - 1) + ["NAME: w1499"],
            "redact": [last.replace("w1499", "[NAME_1]")],
            "validate": ["PASS"] * len(chunks),
        }
    )
    events: list[ProgressEvent] = []
    result = run_pipeline(
        Document.from_text(text), engine, prompts, options=NO_RULES, on_event=events.append
    )
    # Every other word `w…` is no dictionary word (the residual check), so no PASS.
    assert result.report.validator_verdict == "PASS"
    assert result.report.status is Status.NEEDS_REVIEW
    assert len(result.report.unexplained) == 1499
    assert result.redacted_text == text.replace("w1499", "[NAME_1]")
    assert len(engine.requests) == 1 + len(chunks) + 1 + len(chunks)
    for request in engine.requests:
        assert len(shown_document(request.user).split()) <= CHUNK_SIZE, request.step
    detect_parts = [shown_document(r.user) for r in engine.requests if r.step is Step.DETECT]
    assert detect_parts == [chunk.of(text) for chunk in chunks]
    assert [t.chunk for t in result.report.steps if t.step is Step.REDACT] == [len(chunks) - 1]
    lines = [event.describe() for event in events]
    assert "Step 2/4: Detecting General identifiers (part 11/11)… 1 found" in lines
    assert "Step 4/4: Validating (part 11/11)… PASS" in lines


def test_a_short_text_is_one_chunk_and_reads_as_before(prompts):
    text = "Call Jane Doe today.\n"
    engine = trusting(
        {
            "classify": ["CATEGORY: General"],
            "detect": ["NAME: Jane Doe"],
            "redact": ["Call [NAME_1] today."],
            "validate": ["PASS"],
        }
    )
    events: list[ProgressEvent] = []
    result = run_pipeline(
        Document.from_text(text), engine, prompts, options=NO_RULES, on_event=events.append
    )
    assert [shown_document(r.user) for r in engine.requests[1:3]] == [text, text]
    assert [(t.step, t.chunk) for t in result.report.steps] == [
        (Step.CLASSIFY, None),
        (Step.DETECT, 0),
        (Step.REDACT, 0),
        (Step.VALIDATE, 0),
    ]
    detect_events = [event for event in events if event.step is Step.DETECT]
    assert {(event.chunk, event.chunks) for event in detect_events} == {(0, 1)}
    assert "Step 2/4: Detecting General identifiers… 1 found" in [e.describe() for e in events]


def test_redact_lists_for_each_chunk_only_what_is_located_in_it(prompts):
    text = "Visit from Jane Doe.\nSeen by Dr. Adams.\nCall 408-555-1234.\nJane Doe left.\n"
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["NAME: Jane Doe", "NAME: Dr. Adams", "PHONE: 408-555-1234", "NONE"],
            "redact": [
                "Visit from [NAME_1].",
                "Seen by [NAME_1].",
                "Call [PHONE_1].",
                "[NAME_1] left.",
            ],
            "validate": ["PASS"] * 3,  # the redacted text's last two lines fit one chunk
        }
    )
    options = PipelineOptions(rules=False, chunk_size=4)
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    redacts = [r for r in engine.requests if r.step is Step.REDACT]
    assert [shown_identifiers(r.user) for r in redacts] == [
        ["NAME: Jane Doe"],
        ["NAME: Dr. Adams"],
        ["PHONE: 408-555-1234"],
        ["NAME: Jane Doe"],
    ]
    assert [shown_document(r.user) for r in redacts] == text.splitlines(keepends=True)
    expected = "Visit from [NAME_1].\nSeen by [NAME_2].\nCall [PHONE_1].\n[NAME_1] left.\n"
    assert result.redacted_text == expected
    assert not result.report.redact_fallback and result.report.status is Status.PASS


def test_a_chunk_answer_that_is_rejected_leaves_the_others_and_the_locator_in_place(prompts):
    text = "Visit from Jane Doe.\nSeen by Dr. Adams.\n"
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["NAME: Jane Doe", "NAME: Dr. Adams"],
            "redact": ["Visit from [NAME_1].", "Seen by [NAME_1] today."],
            "validate": ["PASS", "PASS"],
        }
    )
    options = PipelineOptions(rules=False, chunk_size=4)
    result = run_pipeline(Document.from_text(text), engine, prompts, options=options)
    assert result.redacted_text == "Visit from [NAME_1].\nSeen by [NAME_2].\n"
    assert result.report.redact_fallback  # one chunk's answer was not usable as-is


RECURRING = "Visit from Jane Doe.\nJane Doe paid.\nJane Doe left.\n"  # 3 chunks of 4 words


def test_detect_a_value_recurring_in_a_later_chunk_is_no_error_a_repeat_in_one_answer_is(
    prompts,
):
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["NAME: Jane Doe\nNAME: JANE DOE", "NAME: Jane Doe", "NAME: Jane Doe"],
            "redact": ["Visit from [NAME_1].", "[NAME_1] paid.", "[NAME_1] left."],
            "validate": ["PASS", "PASS"],
        }
    )
    options = PipelineOptions(rules=False, chunk_size=4)
    report = run_pipeline(Document.from_text(RECURRING), engine, prompts, options=options).report
    assert [(e.step, e.chunk, e.reason) for e in report.parse_errors] == [
        (Step.DETECT, 0, RejectReason.DUPLICATE)
    ]
    assert report.status is Status.PASS and len(report.detections) == 1


def test_validate_a_value_named_again_for_a_later_chunk_is_no_error(prompts):
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["NONE", "NONE", "NONE"],
            "validate": ["PASS", "FAIL\nNAME: Jane Doe", "FAIL\nNAME: Jane Doe"],
        }
    )
    options = PipelineOptions(rules=False, chunk_size=4, max_rounds=1)
    result = run_pipeline(Document.from_text(RECURRING), engine, prompts, options=options)
    report = result.report
    assert report.parse_errors == []
    assert report.validator_missed == ["NAME: Jane Doe", "NAME: Jane Doe"]
    assert [(d.value, d.source.value) for d in report.detections] == [("Jane Doe", "validate")]
    assert result.redacted_text == "Visit from [NAME_1].\n[NAME_1] paid.\n[NAME_1] left.\n"


def test_progress_events_count_text_chunks_as_image_mode_does(prompts):
    text = "Visit from Jane Doe.\nSeen by Dr. Adams.\n"
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["NAME: Jane Doe", "NAME: Dr. Adams"],
            "redact": ["Visit from [NAME_1].", "Seen by [NAME_1]."],
            "validate": ["PASS", "PASS"],
        }
    )
    events: list[ProgressEvent] = []
    options = PipelineOptions(rules=False, chunk_size=4)
    run_pipeline(Document.from_text(text), engine, prompts, options=options, on_event=events.append)
    detect = [(e.phase, e.chunk, e.chunks, e.found) for e in events if e.step is Step.DETECT]
    assert detect == [
        (Phase.START, 0, 2, 0),
        (Phase.PROGRESS, 0, 2, 1),
        (Phase.PROGRESS, 1, 2, 2),
        (Phase.END, 1, 2, 2),
    ]
    validate = [(e.phase, e.chunk, e.chunks) for e in events if e.step is Step.VALIDATE]
    assert validate == [(Phase.START, 0, 2), (Phase.END, 1, 2)]
