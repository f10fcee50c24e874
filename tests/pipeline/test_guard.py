"""Replies that leave the step's format are stopped early, and nothing parsed before is lost."""

from __future__ import annotations

import pytest

from redacto.document import Box, Document, Element, Status, Step
from redacto.engines import Decoding, Reply, ReplyStats
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions, run_pipeline
from redacto.pipeline.guard import MAX_LINE_CHARS, MAX_WASTED_LINES, LineSplitter, LineWatch
from redacto.pipeline.parsing import LineRejected, RejectReason
from scripted_models import trusting

NO_RULES = PipelineOptions(rules=False)
ECHO = "[3] DOB:"  # what a base model does: repeat the prompt's element list


def watch_of(reasons: dict[str, RejectReason]) -> tuple[LineWatch, list[str]]:
    """A watch over a parser that drops the lines in `reasons` and uses all others."""
    rejected: list[LineRejected] = []
    read: list[str] = []

    def on_line(line: str) -> None:
        read.append(line)
        if line in reasons:
            rejected.append(LineRejected(line, reasons[line]))

    return LineWatch(on_line, rejected), read


def feed_lines(watch: LineWatch, lines: list[str]) -> list[Decoding]:
    return [watch.feed(f"{line}\n") for line in lines]


def test_stops_at_the_last_allowed_unusable_line_in_a_row():
    watch, read = watch_of({ECHO: RejectReason.JUNK})
    said = feed_lines(watch, [ECHO] * (MAX_WASTED_LINES + 3))
    assert said.index(Decoding.STOP) == MAX_WASTED_LINES - 1
    assert len(read) == MAX_WASTED_LINES


def test_a_usable_line_or_a_wrong_label_resets_the_count_and_blank_lines_do_not_count():
    watch, _ = watch_of({ECHO: RejectReason.JUNK, "5:COLOR": RejectReason.UNKNOWN_LABEL})
    lines = [ECHO] * (MAX_WASTED_LINES - 1) + ["1:NAME"]
    lines += [ECHO] * (MAX_WASTED_LINES - 1) + ["5:COLOR"]
    lines += [ECHO, "", "NONE", ""] * (MAX_WASTED_LINES - 1)
    assert Decoding.STOP not in feed_lines(watch, lines)


def test_repeating_one_line_over_and_over_counts_as_unusable():
    watch, _ = watch_of({"1:NAME": RejectReason.DUPLICATE})
    assert feed_lines(watch, ["1:NAME"] * MAX_WASTED_LINES)[-1] is Decoding.STOP


def test_a_line_longer_than_any_answer_stops_before_it_ends():
    watch, read = watch_of({})
    assert watch.feed("1:NAME\n" + "x" * 100) is Decoding.CONTINUE
    pieces = ["y" * 100] * (MAX_LINE_CHARS // 100)
    assert [watch.feed(piece) for piece in pieces][-1] is Decoding.STOP
    watch.finish()
    assert read == ["1:NAME"]


def test_lines_after_the_stop_in_the_same_piece_are_not_read():
    watch, read = watch_of({ECHO: RejectReason.JUNK})
    assert watch.feed("\n".join([ECHO] * MAX_WASTED_LINES + ["2:NAME", ""])) is Decoding.STOP
    assert read == [ECHO] * MAX_WASTED_LINES


def page() -> Document:
    words = ["Patient", "Jane", "Smith", "DOB:", "03/15/78", "compound", "fracture"]
    return Document.from_elements(
        [
            Element(index=i, text=word, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, word in enumerate(words)
        ]
    )


def test_a_detector_that_starts_echoing_keeps_what_it_found_and_is_stopped(prompts):
    echo = "\n".join(f"[{i}] {word}" for i, word in enumerate(["Patient", "Jane"] * 10))
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": [f"1:NAME\n2:NAME\n{echo}\n4:DATE"],
            "validate": ["PASS"],
        }
    )
    report = run_pipeline(page(), engine, prompts, options=NO_RULES).report
    assert sorted(d.index for d in report.detections) == [1, 2]  # 4 came after the stop
    detect = next(trace for trace in report.steps if trace.step is Step.DETECT)
    assert detect.stopped and detect.parse_errors == MAX_WASTED_LINES
    # The independent validator still judges the output (PASS), and the birth date the stop
    # left readable is a word no reader explains (the residual check): no PASS.
    assert report.validator_verdict == "PASS"
    assert report.status is Status.NEEDS_REVIEW
    assert [word.value for word in report.unexplained] == ["03/15/78"]


def test_a_validator_that_passes_then_rambles_is_stopped_and_fails_closed(prompts):
    ramble = "\n".join(["The document looks fine to me."] * 20)
    engine = trusting(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["1:NAME\n2:NAME\n4:DATE"],
            "validate": [f"PASS\n{ramble}"],
        }
    )
    report = run_pipeline(page(), engine, prompts, options=NO_RULES).report
    validate = next(trace for trace in report.steps if trace.step is Step.VALIDATE)
    assert validate.stopped
    assert report.status is Status.NEEDS_REVIEW
    assert engine.remaining(Step.VALIDATE) == 0


class PieceEngine(ScriptedEngine):
    """Streams each scripted reply in pieces of `size` characters, as a model's tokens arrive."""

    def __init__(self, replies: dict[str, list[str]], size: int) -> None:
        super().__init__({Step(step): list(texts) for step, texts in replies.items()})
        self.size = size

    def complete(self, request, on_text=None):
        text = self._queues[request.step].pop(0)
        stopped = False
        for start in range(0, len(text), self.size):
            if on_text is not None and on_text(text[start : start + self.size]) is Decoding.STOP:
                stopped = start + self.size < len(text)
                break
        return Reply(text=text, stats=ReplyStats(ms=1.0, stopped=stopped))


@pytest.mark.parametrize("newline", ["", "\n"])
@pytest.mark.parametrize("piece_size", [None, 1, 7])
def test_a_validator_pass_followed_by_an_over_long_line_never_stands(prompts, newline, piece_size):
    long_line = "Jane Smith is still readable here and " + "x" * MAX_LINE_CHARS
    replies = {
        "classify": ["CATEGORY: Medical"],
        "detect": ["1:NAME"],
        "validate": [f"PASS\n{long_line}{newline}"],
    }
    engine = trusting(replies) if piece_size is None else PieceEngine(replies, piece_size)
    report = run_pipeline(page(), engine, prompts, options=NO_RULES).report
    assert report.status is Status.NEEDS_REVIEW
    assert report.validator_verdict == "FAIL"


@pytest.mark.parametrize(
    ("pieces", "lines"),
    [
        (["1:NAME\n2:DATE\n"], ["1:NAME", "2:DATE"]),
        (["1:NA", "ME\n2:", "DATE"], ["1:NAME", "2:DATE"]),
        (["PASS"], ["PASS"]),
        (["\n\nFAIL\n"], ["", "", "FAIL"]),
        ([""], []),
    ],
)
def test_line_splitter_acts_on_each_completed_line(pieces, lines):
    seen: list[str] = []
    splitter = LineSplitter(on_line=seen.append)
    for piece in pieces:
        splitter.feed(piece)
    splitter.finish()
    assert seen == lines


def test_line_splitter_emits_a_line_before_the_stream_ends():
    seen: list[str] = []
    splitter = LineSplitter(on_line=seen.append)
    splitter.feed("1:NAME\n2:")
    assert seen == ["1:NAME"]
