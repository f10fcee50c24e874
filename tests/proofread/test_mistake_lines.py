"""JSON Lines framing: each mistake is parsed the moment its line ends, however the answer
is split; lines that are not mistakes are counted, never fatal to the others."""

from __future__ import annotations

import json

import pytest

from redacto.proofread.mistakes import LineProblem, Mistake, MistakeLines

FIRST = {"error_text": "recieved", "correction": "received", "context_before": "who"}
SECOND = {
    "error_text": "j'ai travailler",
    "correction": "j’ai travaillé",
    "context_before": "en gestion, « [NAME_1] »",
    "description": "Participe passé après « avoir ».",
}
ANSWER = json.dumps(FIRST) + "\n" + json.dumps(SECOND, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("cut", range(len(ANSWER) + 1))
def test_a_split_anywhere_gives_each_mistake_when_its_line_ends(cut):
    lines = MistakeLines()
    first = lines.feed(ANSWER[:cut])
    second = lines.feed(ANSWER[cut:])
    ends = [i + 1 for i, ch in enumerate(ANSWER) if ch == "\n"]
    assert len(first) == sum(1 for end in ends if end <= cut)
    assert [*first, *second, *lines.close()] == [
        Mistake.model_validate(FIRST),
        Mistake.model_validate(SECOND),
    ]
    assert lines.problems == []


def test_character_by_character_each_object_comes_out_at_its_newline():
    lines = MistakeLines()
    out_at = [i for i, ch in enumerate(ANSWER) if lines.feed(ch)]
    assert out_at == [i for i, ch in enumerate(ANSWER) if ch == "\n"]


def test_the_last_line_without_a_newline_is_read_at_the_end():
    lines = MistakeLines()
    assert lines.feed(json.dumps(FIRST)) == []
    assert lines.close() == [Mistake.model_validate(FIRST)]


def test_fences_and_blank_lines_are_skipped_and_junk_is_counted():
    lines = MistakeLines()
    text = "```json\n\nHere are the mistakes:\n[1, 2]\n" + json.dumps(FIRST) + "\n```\n"
    assert lines.feed(text) == [Mistake.model_validate(FIRST)]
    assert lines.problems == [LineProblem.NOT_JSON, LineProblem.NOT_A_MISTAKE]
    assert lines.lines == 3
