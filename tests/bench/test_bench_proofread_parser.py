"""Which streaming parser `redacto proofread` uses: line framing, or partial JSON.

The proofreader's answer arrives in pieces of a few characters. Two ways to act on each
mistake as soon as it is complete:

- **line framing** (what ships, `redacto.proofread.mistakes.MistakeLines`): JSON Lines, a
  mistake is complete at its newline, parsed once with the standard library's json;
- **partial JSON** (instructor's iterable mode): the answer is one object holding a list
  (`{"tasks": [...]}`), the whole text so far is re-parsed on every piece with a
  partial-mode parser (pydantic-core's `from_json(allow_partial=True)`, jiter inside, as
  instructor does), and an item is complete once the next one has begun.

Both get the same 200 mistakes in 4-character pieces and are timed on the whole stream
(pytest-benchmark); the tests also check how many pieces after its last character each
mistake came out. In the normal test run each runs once (`--benchmark-disable`).
"""

from __future__ import annotations

import json

from pydantic_core import from_json

from redacto.proofread.mistakes import Mistake, MistakeLines

COUNT = 200
PIECE = 4


def mistakes() -> list[dict[str, str]]:
    return [
        {
            "error_text": f"recieved{i}",
            "correction": f"received{i}",
            "context_before": f"In 2021 [NAME_1] (line {i})",
            "description": "Spelling: i before e, except after c.",
        }
        for i in range(COUNT)
    ]


def pieces(text: str) -> list[str]:
    return [text[i : i + PIECE] for i in range(0, len(text), PIECE)]


def line_framing(stream: list[str]) -> list[int]:
    parser = MistakeLines()
    out_at: list[int] = []
    for index, piece in enumerate(stream):
        out_at += [index] * len(parser.feed(piece))
    out_at += [len(stream) - 1] * len(parser.close())
    return out_at


def partial_json(stream: list[str]) -> list[int]:
    text = ""
    done = 0
    out_at: list[int] = []
    for index, piece in enumerate(stream):
        text += piece
        items = from_json(text, allow_partial=True).get("tasks", [])
        # the last item may still grow: the ones before it are complete
        while done < len(items) - 1:
            Mistake.model_validate(items[done])
            out_at.append(index)
            done += 1
    for item in from_json(text).get("tasks", [])[done:]:
        Mistake.model_validate(item)
        out_at.append(len(stream) - 1)
    return out_at


def stream_and_ends(framed: bool) -> tuple[list[str], list[int]]:
    """The answer in pieces, JSON Lines or one object, and where each mistake's text ends."""
    items = mistakes()
    if framed:
        lines = [json.dumps(item) for item in items]
        ends = [sum(len(x) + 1 for x in lines[: i + 1]) - 1 for i in range(COUNT)]
        return pieces("".join(line + "\n" for line in lines)), ends
    whole = json.dumps({"tasks": items})
    ends, at = [], whole.index("[") + 1
    for item in items:
        at = whole.index(json.dumps(item), at) + len(json.dumps(item))
        ends.append(at - 1)
    return pieces(whole), ends


def lag(out_at: list[int], ends: list[int]) -> list[int]:
    """For each mistake, how many pieces after its last character it came out."""
    return [at - end // PIECE for at, end in zip(out_at, ends, strict=True)]


def test_line_framing_gives_each_mistake_at_its_newline(benchmark):
    stream, ends = stream_and_ends(framed=True)
    out_at = benchmark(line_framing, stream)
    assert len(out_at) == COUNT
    assert max(lag(out_at, ends)) <= 1  # the newline is the character after the mistake


def test_partial_json_gives_each_mistake_once_the_next_begins(benchmark):
    stream, ends = stream_and_ends(framed=False)
    out_at = benchmark(partial_json, stream)
    assert len(out_at) == COUNT
    assert max(lag(out_at[:-1], ends[:-1])) >= 1
