"""Constrained decoding in the pipeline: which calls get a pattern, what the report says,
the stop at a repeated line, and engines that cannot constrain.

The scripted engine checks each canned reply against the request's pattern, so a reply the
page's pattern forbids fails the run here as it could never have been decoded.
"""

from __future__ import annotations

import re

import pytest

from redacto.document import Category, ConstrainedDecoding, Document, Mode, Status, Step
from redacto.engines import ChatRequest, ConstraintUnsupportedError, EngineError, OnText, Reply
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.pipeline.guard import LineWatch
from redacto.pipeline.parsing import LineRejected
from redacto.report import ReviewReason
from scripted_models import trusting

TEXT = "Patient Jane Smith, DOB 03/15/78, called from 408-555-1234 about the fracture."


def options(setting: ConstrainedDecoding) -> PipelineOptions:
    return PipelineOptions(
        rules=False, category=Category.MEDICAL, constrained_decoding=setting, model_redact=False
    )


def run(setting: ConstrainedDecoding, engine: ScriptedEngine, prompts, text: str = TEXT):
    return run_pipeline(Document.from_text(text), engine, prompts, options=options(setting))


def scripted(detect: list[str], validate: list[str]) -> ScriptedEngine:
    return trusting({"detect": detect, "validate": validate})


@pytest.mark.parametrize(
    ("setting", "detect_constrained", "validate_constrained"),
    [
        (ConstrainedDecoding.OFF, False, False),
        (ConstrainedDecoding.DETECT, True, False),
        (ConstrainedDecoding.DETECT_VALIDATE, True, True),
    ],
)
def test_the_setting_chooses_the_constrained_steps(
    prompts, setting, detect_constrained, validate_constrained
):
    engine = scripted(["NAME: Jane Smith\nPHONE: 408-555-1234"], ["PASS"])
    result = run(setting, engine, prompts)
    by_step = {request.step: request for request in engine.requests}
    assert (by_step[Step.DETECT].constraint is not None) is detect_constrained
    assert (by_step[Step.VALIDATE].constraint is not None) is validate_constrained
    traces = {trace.step: trace.constrained for trace in result.report.steps}
    assert traces == {Step.DETECT: detect_constrained, Step.VALIDATE: validate_constrained}
    assert {d.value for d in result.report.detections} == {"Jane Smith", "408-555-1234"}


def test_validate_may_name_only_words_still_readable(prompts):
    """The validator's pattern is built from the redacted text: a value already replaced by
    a placeholder cannot be named, one still readable can."""
    engine = scripted(["NAME: Jane Smith"], ["FAIL\nPHONE: 408-555-1234", "PASS"])
    result = run(ConstrainedDecoding.DETECT_VALIDATE, engine, prompts)
    validate = [r for r in engine.requests if r.step is Step.VALIDATE]
    assert validate[0].constraint is not None
    assert not re.fullmatch(validate[0].constraint.pattern, "FAIL\nNAME: Jane Smith")
    assert "408-555-1234" not in result.redacted_text
    assert result.report.rounds == 2


def test_a_reply_the_pattern_forbids_cannot_be_scripted(prompts):
    engine = scripted(["NAME: Lisa"], ["PASS"])
    result = run(ConstrainedDecoding.DETECT, engine, prompts)
    assert result.report.status is Status.ERROR
    assert "does not match the request's constraint" in (result.report.error or "")
    # Unconstrained, the same invented line is merely dropped as not in the document.
    result = run(ConstrainedDecoding.OFF, scripted(["NAME: Lisa"], ["PASS"]), prompts)
    assert result.report.status is not Status.ERROR


def test_repeated_lines_stop_a_constrained_reply(prompts):
    looping = "NAME: Jane Smith\nPHONE: 408-555-1234\nNAME: Jane Smith\nPHONE: 408-555-1234\n"
    result = run(ConstrainedDecoding.DETECT, scripted([looping * 3], ["PASS"]), prompts)
    detect = next(trace for trace in result.report.steps if trace.step is Step.DETECT)
    assert detect.stopped and detect.constrained
    assert len(result.report.detections) == 2
    # One line said twice, then a new one: not a loop, read on.
    once = "NAME: Jane Smith\nNAME: Jane Smith\nPHONE: 408-555-1234"
    result = run(ConstrainedDecoding.DETECT, scripted([once], ["PASS"]), prompts)
    assert not next(t for t in result.report.steps if t.step is Step.DETECT).stopped
    assert len(result.report.detections) == 2
    # Unconstrained, one repeat is not a reason to stop (LineWatch's limit of 12 is).
    result = run(ConstrainedDecoding.OFF, scripted([looping], ["PASS"]), prompts)
    assert not next(t for t in result.report.steps if t.step is Step.DETECT).stopped


def test_line_watch_stops_at_repeats_in_a_row_only_when_asked():
    lines: list[str] = []
    rejected: list[LineRejected] = []
    watch = LineWatch(lines.append, rejected, stop_on_repeat=True)
    pieces = ["NAME: A\n", "NAME: B\n", "NONE\n", "NAME:  A\n", "NAME: C\n", "NAME: A\n"]
    for piece in [*pieces, "NAME: B\n", "NAME: D\n"]:
        watch.feed(piece)
    assert watch.stopped
    assert lines == ["NAME: A", "NAME: B", "NONE", "NAME:  A", "NAME: C", "NAME: A", "NAME: B"]
    plain = LineWatch(lines.append, rejected)
    for piece in pieces * 2:
        plain.feed(piece)
    assert not plain.stopped


class Unconstrained(ScriptedEngine):
    """An engine that cannot constrain decoding (as an OpenAI-compatible server might)."""

    supports_constraints = False

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        self.refuse_constraint(request)
        return super().complete(request, on_text)


def test_an_engine_that_cannot_constrain_runs_unconstrained_and_says_so(prompts):
    engine = Unconstrained({Step.DETECT: ["NAME: Jane Smith"], Step.VALIDATE: ["PASS"]})
    result = run(ConstrainedDecoding.DETECT_VALIDATE, engine, prompts)
    assert all(request.constraint is None for request in engine.requests)
    assert not any(trace.constrained for trace in result.report.steps)
    request = ChatRequest(step=Step.DETECT, system="", user="x", constraint=None)
    engine.refuse_constraint(request)  # no constraint: nothing to refuse
    with pytest.raises(ConstraintUnsupportedError, match="cannot constrain"):
        engine.refuse_constraint(
            ChatRequest(step=Step.DETECT, system="", user="x", constraint=_any_constraint())
        )
    assert issubclass(ConstraintUnsupportedError, EngineError)


def test_image_mode_read_as_text_is_constrained_too(prompts):
    from redacto.document import Box, Element, ImageReading

    words = ["Patient", "Jane", "Smith", "phone", "408-555-1234"]
    document = Document.from_elements(
        [
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ]
    )
    engine = scripted(["NAME: Jane Smith"], ["FAIL\nPHONE: 408-555-1234", "PASS"])
    page_options = PipelineOptions(
        rules=False,
        category=Category.MEDICAL,
        image_reading=ImageReading.TEXT,
        constrained_decoding=ConstrainedDecoding.DETECT_VALIDATE,
    )
    result = run_pipeline(document, engine, prompts, options=page_options)
    assert document.mode is Mode.IMAGE
    assert all(request.constraint is not None for request in engine.requests[:2])
    assert sorted(d.index for d in result.report.detections) == [1, 2, 4]


def _any_constraint():
    from redacto.engines import ReplyConstraint

    return ReplyConstraint(pattern=".*")


def test_international_values_are_named_and_placed(prompts):
    """The outside suite's values the classes once forbade: the scripted engine accepts them
    under the page's pattern, and the locator places each one, `Peter` inside `Peter's`."""
    text = (
        "Don't forget Peter's party on May-3! On se voit le 19 avril au avenue Jules Weiss, "
        "13275 Bourgeois ? Appelle-moi au +33 (0)2 38 64 96 20."
    )
    reply = (
        "NAME: Peter\nDATE: May-3\nDATE: 19 avril\n"
        "ADDRESS: avenue Jules Weiss, 13275 Bourgeois\nPHONE: +33 (0)2 38 64 96 20"
    )
    result = run(ConstrainedDecoding.DETECT, scripted([reply], ["PASS"]), prompts, text=text)
    # A page in two languages is read in one (French here): the English words left are
    # for a person to check (the residual check, docs/lexicon.md), so no PASS.
    assert result.report.status is Status.NEEDS_REVIEW
    assert result.report.review_reasons == [ReviewReason.UNEXPLAINED_WORDS]
    assert [word.value for word in result.report.unexplained] == ["forget", "party"]
    assert result.report.validator_verdict == "PASS"
    assert not result.report.not_located
    assert result.redacted_text is not None
    for value in ("Peter", "May-3", "19 avril", "avenue Jules", "Bourgeois", "(0)2 38"):
        assert value not in result.redacted_text
    assert "'s party on" in result.redacted_text
