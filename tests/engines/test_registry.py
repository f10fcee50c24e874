"""Engines are chosen by URI scheme through an explicit registry."""

import pytest

from redacto.engines import EngineError, LineSplitter, open_engine


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("model.litertlm", "SCHEME:TARGET"),
        ("scripted:", "SCHEME:TARGET"),
        ("nosuch:thing", "unknown engine scheme 'nosuch'"),
    ],
)
def test_bad_uris_are_rejected_with_a_clear_message(uri, message):
    with pytest.raises(EngineError, match=message):
        open_engine(uri)


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
