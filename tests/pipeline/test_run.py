"""The pipeline as a whole: streaming, fresh requests, events, rules, engine failures."""

from __future__ import annotations

from redacto.document import (
    Box,
    Category,
    Document,
    Element,
    Mode,
    Source,
    Status,
    Step,
)
from redacto.engines import ChatRequest, Decoding, EngineError, OnText, Reply
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import ImageReading, Phase, PipelineOptions, ProgressEvent, run_pipeline
from scripted_models import trusting

WORDS = [
    *["Patient", "Jane", "Smith", "DOB:", "03/15/78"],
    *["phone", "408-555-1234", "compound", "fracture"],
]
NO_RULES = PipelineOptions(rules=False)


def page(words: list[str] = WORDS) -> Document:
    return Document.from_elements(
        [
            Element(index=i, text=word, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, word in enumerate(words)
        ]
    )


def scripted(**replies: list[str]) -> ScriptedEngine:
    return trusting(replies)


class StreamWatcher(ScriptedEngine):
    """Streams each reply in small pieces and notes how many events had arrived per piece."""

    def __init__(self, events: list[ProgressEvent], **replies: list[str]) -> None:
        super().__init__({Step(step): texts for step, texts in replies.items()})
        self.events = events
        self.seen_during_stream: list[int] = []

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        def watch(piece: str) -> Decoding | None:
            assert on_text is not None
            for char in piece:
                said = on_text(char)
                self.seen_during_stream.append(len(self.events))
                if said is Decoding.STOP:
                    return said
            return None

        return super().complete(request, watch if on_text else None)


class FailingEngine(ScriptedEngine):
    """Raises on the n-th call of one step, as a runtime that crashes mid-run would."""

    def __init__(self, step: Step, error: Exception, **replies: list[str]) -> None:
        super().__init__({Step(name): texts for name, texts in replies.items()})
        self.failing_step = step
        self.error = error

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        if request.step is self.failing_step:
            raise self.error
        return super().complete(request, on_text)


def test_detections_are_acted_on_while_the_model_is_still_talking(prompts):
    events: list[ProgressEvent] = []
    engine = StreamWatcher(
        events,
        classify=["CATEGORY: Medical"],
        detect=["1:NAME\n2:NAME\n4:DATE\n"],
        validate=["PASS"],
    )
    run_pipeline(page(), engine, prompts, options=NO_RULES, on_event=events.append)
    counts = [e.found for e in events if e.step is Step.DETECT and e.phase is Phase.PROGRESS]
    assert counts == [1, 2, 3]
    # the first detection event arrived before the detect reply had finished streaming
    first = next(i for i, e in enumerate(events) if e.phase is Phase.PROGRESS)
    assert first + 1 in engine.seen_during_stream


def test_every_call_is_a_fresh_request_and_the_validator_sees_only_the_redacted_list(prompts):
    engine = scripted(classify=["CATEGORY: Medical"], detect=["1:NAME\n2:NAME"], validate=["PASS"])
    run_pipeline(page(), engine, prompts, options=NO_RULES)
    steps = [request.step for request in engine.requests]
    assert steps == [Step.CLASSIFY, Step.DETECT, Step.VALIDATE]
    detect, validate = engine.requests[1], engine.requests[2]
    assert "[1] Jane" in detect.user
    assert "Jane" not in validate.user and "Smith" not in validate.user
    assert "[1] [NAME_1]" in validate.user and "[2] [NAME_2]" in validate.user
    assert "1:NAME" not in validate.system + validate.user  # never the detector's answer


def test_progress_lines_never_carry_document_values(prompts):
    events: list[ProgressEvent] = []
    engine = scripted(
        classify=["DOCUMENT_TYPE: Note for Jane Smith\nCATEGORY: Medical"],
        detect=["1:NAME\n2:NAME"],
        validate=["FAIL\n4:DATE", "PASS"],
    )
    run_pipeline(page(), engine, prompts, options=NO_RULES, on_event=events.append)
    lines = [event.describe() for event in events]
    assert "Step 2/4: Detecting Medical identifiers… 2 found" in lines
    assert "Step 4/4: Validating… FAIL, 1 missed" in lines
    assert "Step 4/4: Validating (round 2)… PASS" in lines
    for line in lines:
        for word in ("Jane", "Smith", "03/15/78", "408-555-1234", "Note"):
            assert word not in line


def test_an_engine_that_raises_mid_run_ends_in_error_with_nothing_claimed(prompts):
    engine = FailingEngine(
        Step.VALIDATE,
        EngineError("the runtime stopped"),
        classify=["CATEGORY: Medical"],
        detect=["1:NAME"],
    )
    result = run_pipeline(page(), engine, prompts, options=NO_RULES)
    report = result.report
    assert report.status is Status.ERROR
    assert report.error == "EngineError: the runtime stopped"
    assert result.redacted_text is None and result.redacted_elements is None
    assert result.boxes == () and report.boxes == [] and report.count_shown == 0
    assert [trace.step for trace in report.steps] == [Step.CLASSIFY, Step.DETECT]
    assert report.category is Category.MEDICAL


def test_rule_hits_are_unioned_and_never_removed_by_the_model(prompts):
    words = ["Mail", "jane.doe@example.com", "or", "call", "Jane"]
    engine = scripted(classify=["CATEGORY: General"], detect=["1:EMAIL\n4:NAME"], validate=["PASS"])
    result = run_pipeline(page(words), engine, prompts, options=PipelineOptions(rules=True))
    by_index = {d.index: d for d in result.report.detections}
    assert by_index[1].source is Source.RULE and by_index[1].label == "EMAIL"
    assert by_index[4].source is Source.DETECT
    assert result.report.parse_errors == []  # the model agreeing with a rule is no error
    assert result.report.count_shown == 2


def test_rules_are_off_when_asked(prompts):
    words = ["Mail", "jane.doe@example.com"]
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    result = run_pipeline(page(words), engine, prompts, options=NO_RULES)
    assert result.report.detections == []


def test_text_mode_rule_hits_are_redacted_too(prompts):
    document = Document.from_text("Write to jane.doe@example.com today.")
    engine = scripted(
        classify=["CATEGORY: General"],
        detect=["NONE"],
        redact=["Write to [EMAIL_1] today."],
        validate=["PASS"],
    )
    result = run_pipeline(document, engine, prompts, options=PipelineOptions(rules=True))
    assert result.redacted_text == "Write to [EMAIL_1] today."
    assert [d.source for d in result.report.detections] == [Source.RULE]
    assert result.report.status is Status.PASS


def test_request_budgets_follow_the_options(prompts):
    engine = scripted(classify=["CATEGORY: General"], detect=["NONE"], validate=["PASS"])
    run_pipeline(page(), engine, prompts, options=NO_RULES)
    budgets = {request.step: request.max_output_tokens for request in engine.requests}
    assert budgets == {Step.CLASSIFY: 64, Step.DETECT: 512, Step.VALIDATE: 256}


def test_a_category_the_user_gives_skips_classify_and_drives_detect(prompts):
    events: list[ProgressEvent] = []
    engine = scripted(detect=["1:NAME\n2:NAME"], validate=["PASS"])  # no classify reply
    options = PipelineOptions(rules=False, category=Category.LEGAL)
    report = run_pipeline(page(), engine, prompts, options=options, on_event=events.append).report
    assert [request.step for request in engine.requests] == [Step.DETECT, Step.VALIDATE]
    assert (
        engine.requests[0].system
        == prompts.prompt(Step.DETECT, page().mode, Category.LEGAL).render(elements="")[0]
    )
    assert report.category is Category.LEGAL and report.category_given
    assert not report.classify_fallback and report.validator_verdict == "PASS"
    # The birth date and phone nothing named stay readable: no reader explains them.
    assert report.status is Status.NEEDS_REVIEW
    assert [word.value for word in report.unexplained] == ["03/15/78", "408-555-1234"]
    assert "Step 1/4: Classifying document… Legal" in [event.describe() for event in events]


def test_a_page_read_as_text_is_shown_as_its_lines_to_every_step(prompts):
    # Two OCR lines; every call sees the text-mode prompts and the page's lines, no indices.
    two_lines = Document.from_elements(
        [
            Element(index=0, text="Patient:", box=Box(x0=0, y0=0, x1=40, y1=10)),
            Element(index=1, text="Jane", box=Box(x0=45, y0=0, x1=65, y1=10)),
            Element(index=2, text="Clinic", box=Box(x0=0, y0=20, x1=30, y1=30)),
        ]
    )
    engine = scripted(
        classify=["DOCUMENT_TYPE: note\nCATEGORY: Medical"],
        detect=["NAME: Jane"],
        validate=["PASS"],
    )
    options = PipelineOptions(rules=False, image_reading=ImageReading.TEXT)
    result = run_pipeline(two_lines, engine, prompts, options=options)
    assert [d.index for d in result.report.detections] == [1]
    classify_call, detect_call, validate_call = engine.requests
    text_prompt = prompts.prompt(Step.DETECT, Mode.TEXT, Category.MEDICAL)
    assert detect_call.system == text_prompt.render(document="")[0]
    assert "Patient: Jane\nClinic" in classify_call.user
    assert "Patient: Jane\nClinic" in detect_call.user
    assert "Patient: [NAME_1]\nClinic" in validate_call.user
    assert not any("[0]" in call.user for call in engine.requests)
