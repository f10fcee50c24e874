"""Property-based fuzzing of every step's model replies.

Whatever the model says — junk, half-formats, over-long lines, stray CRs, replies cut into
any pieces, a script that runs dry — `run_pipeline` returns a report (never a traceback),
and it says PASS only when the last validator reply was read to its end and was a clean
PASS. Bounded for CI: a fixed number of examples, derandomized when `CI` is set (the same
examples every run there; a fresh draw on a developer's machine).
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redacto.document import Box, Document, Element, Mode, Status, Step
from redacto.engines import (
    ChatRequest,
    Decoding,
    Engine,
    EngineError,
    ModelIdentity,
    OnText,
    Reply,
    ReplyStats,
)
from redacto.pipeline import ImageReading, PipelineOptions, run_pipeline
from redacto.prompts import PromptLibrary

pytestmark = pytest.mark.slow  # EXAMPLES replies, each through the whole pipeline

EXAMPLES = 300
WORDS = ["Patient", "Jane", "Smith", "DOB:", "03/15/78", "408-555-1234", "compound", "fracture"]
TEXT = "Patient Jane Smith, DOB 03/15/78, called 408-555-1234 about the compound fracture.\n"
LABELS = ["NAME", "DATE", "PHONE", "MRN", "COLOR", "name", ""]
CLEAN_PASS = re.compile(r"^(?:verdict\s*:\s*)?pass[\s.!:,\-]*$", re.IGNORECASE)

PROMPTS = PromptLibrary.load()


class PieceEngine(Engine):
    """Replies from per-step queues, streamed in pieces whose sizes cycle through `sizes`;
    records for each call whether its reply was delivered to the end without a STOP."""

    def __init__(self, replies: dict[Step, list[str]], sizes: list[int]) -> None:
        self.identity = ModelIdentity(uri="fuzz:", name="fuzz")
        self.replies = {step: list(texts) for step, texts in replies.items()}
        self.sizes = sizes
        self.calls: list[tuple[Step, str, bool]] = []

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        queue = self.replies.get(request.step, [])
        if not queue:
            raise EngineError(f"no reply left for {request.step.value}")
        text = queue.pop(0)
        position, turn, whole = 0, 0, True
        while position < len(text) and on_text is not None:
            size = self.sizes[turn % len(self.sizes)]
            piece = text[position : position + size]
            position, turn = position + size, turn + 1
            if on_text(piece) is Decoding.STOP:
                whole = False
                break
        self.calls.append((request.step, text, whole))
        return Reply(text=text[:position] or text, stats=ReplyStats(ms=1.0, stopped=not whole))


def clean_pass(text: str) -> bool:
    """The reply's only non-blank line is PASS (the grammar of docs/pipeline.md)."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) != 1:
        return False
    cleaned = re.sub(r"^\s*(?:[-*•]\s+)?", "", lines[0].strip()).replace("**", "").strip()
    return bool(CLEAN_PASS.match(cleaned))


def lines_of(mode: Mode) -> st.SearchStrategy[str]:
    """One line of a reply: in some step's format, nearly so, or not at all."""
    values = st.sampled_from([*WORDS, "Jane Smith", "[NAME_1]", "", "Mrs. Nobody"])
    formats = st.one_of(
        st.builds(lambda i, label: f"{i}:{label}", st.integers(-2, 12), st.sampled_from(LABELS)),
        st.builds(lambda label, value: f"{label}: {value}", st.sampled_from(LABELS), values),
        st.sampled_from(
            ["PASS", "FAIL", "pass.", "**PASS**", "Verdict: PASS", "- PASS", "PASS!", "NONE"]
        ),
        st.builds(lambda rest: f"FAIL: {rest}", st.sampled_from(["1:NAME", "NAME: Jane", "?"])),
        st.builds(lambda rest: f"PASS {rest}", st.sampled_from(["1:NAME", "ok", "\r"])),
        st.sampled_from(["CATEGORY: Medical", "DOCUMENT_TYPE: Note", "CATEGORY: Spaceship"]),
    )
    junk = st.text(max_size=40)
    long = st.builds(lambda n, c: c * n, st.integers(395, 700), st.sampled_from(["x", " ", "é"]))
    redacted = st.just(TEXT.replace("Jane Smith", "[NAME_1]") if mode is Mode.TEXT else "")
    return st.one_of(formats, junk, long, st.sampled_from(["", " ", "\r"]), redacted)


def replies_of(mode: Mode, first: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """A whole reply: lines joined by LF or CRLF; `first`, when given, opens it."""
    opening = st.just([]) if first is None else st.builds(lambda line: [line], first)
    return st.builds(
        lambda head, lines, separator, end: separator.join([*head, *lines]) + end,
        opening,
        st.lists(lines_of(mode), max_size=12 if first is None else 3),
        st.sampled_from(["\n", "\r\n", "\n\n"]),
        st.sampled_from(["", "\n"]),
    )


VERDICTS = st.sampled_from(["PASS", "pass.", "**PASS**", "Verdict: PASS", "PASS ", "FAIL"])


def scripts_of(mode: Mode) -> st.SearchStrategy[dict[Step, list[str]]]:
    """Replies for every step the mode calls; a validator reply mostly opens with a verdict,
    so the interesting case (a verdict and then more) comes up often."""
    validate = st.one_of(replies_of(mode, first=VERDICTS), replies_of(mode))
    steps = {
        Step.CLASSIFY: st.lists(replies_of(mode), min_size=1, max_size=2),
        Step.DETECT: st.lists(replies_of(mode), min_size=1, max_size=4),
        Step.VALIDATE: st.lists(validate, min_size=1, max_size=4),
    }
    if mode is Mode.TEXT:
        steps[Step.REDACT] = st.lists(replies_of(mode), min_size=1, max_size=4)
    return st.fixed_dictionaries(steps)


def document(mode: Mode) -> Document:
    if mode is Mode.TEXT:
        return Document.from_text(TEXT)
    return Document.from_elements(
        [
            Element(index=i, text=word, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, word in enumerate(WORDS)
        ]
    )


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(
    mode=st.sampled_from([Mode.IMAGE, Mode.TEXT]),
    data=st.data(),
    sizes=st.lists(st.integers(1, 64), min_size=1, max_size=4),
    rules=st.booleans(),
    reading=st.sampled_from(list(ImageReading)),
    model_redact=st.booleans(),
)
def test_no_reply_raises_and_pass_needs_a_whole_clean_validator_reply(
    mode, data, sizes, rules, reading, model_redact
):
    engine = PieceEngine(data.draw(scripts_of(mode)), sizes)
    options = PipelineOptions(
        rules=rules, max_rounds=2, image_reading=reading, model_redact=model_redact
    )
    result = run_pipeline(document(mode), engine, PROMPTS, options=options)
    report = result.report
    report.model_dump_json()  # the report always serialises
    if report.status is Status.ERROR:
        assert result.redacted_text is None and report.error
        return
    if mode is Mode.IMAGE:
        assert report.count_shown == len(report.boxes)
    validations = [(text, whole) for step, text, whole in engine.calls if step is Step.VALIDATE]
    if report.status is Status.PASS:
        assert validations, "PASS without a validator call"
        text, whole = validations[-1]
        assert whole, f"PASS on a validator reply that was not read to its end: {text!r}"
        assert clean_pass(text), f"PASS on a reply that is not a clean PASS: {text!r}"
