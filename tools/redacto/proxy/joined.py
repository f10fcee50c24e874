"""The texts of one request read together, so a value split across them is found.

A model reads a message's text parts, and a request's messages, as one text (vLLM joins
parts with a line break; chat templates put messages one after another), so an e-mail
address cut in two across two parts, or a card number across two messages, reaches it
whole while each text alone looks clean. The rules tier therefore reads a
request's texts as one:

- where a text ends or the next begins with whitespace, the two are joined as they are;
- elsewhere with a line break (`SEPARATOR`): the normaliser reads a line break inside a
  number as a space, so "4111 1111" + "1111 1111" is one card, and words stay words;
- and, at each such seam, the end of the one and the start of the other are read joined
  with nothing between (`WINDOW` characters each side), for a value cut inside a word:
  "jane.doe@exa" + "mple.com". Only hits across the seam are taken from that reading,
  and none where the joined reading found a value ending or starting at the seam: a
  whole address followed by a text that starts with a word ("jane@x.com" + "SSN …")
  is two things, not "jane@x.comSSN". (So "jane@x.co" + "m" keeps its "m".)

A hit is mapped back onto each text it touches. The first text gets a placeholder for
the whole value and the others lose their pieces (`Found.value` empty), so the model
reads one placeholder and the whole value comes back where it writes it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from redacto.proxy.detectors import Found, TextDetector

__all__ = ["SEPARATOR", "WINDOW", "find_across"]

SEPARATOR = "\n"
WINDOW = 256
"""Characters read on each side of a seam inside a word: more than any value's length
but an e-mail address's (254 at most, the standard says)."""


def find_across(detector: TextDetector, texts: Sequence[str]) -> list[list[Found]]:
    """What `detector` finds in each of `texts`, the texts read together (see the module):
    one list per text, spans into that text."""
    if len(texts) == 1:
        return [detector.find(texts[0])]
    pieces: list[str] = []
    starts: list[int] = []
    seams: list[int] = []  # texts that follow a seam inside a word
    length = 0
    last = ""  # the last character so far
    for number, text in enumerate(texts):
        if text and last and not last.isspace() and not text[0].isspace():
            pieces.append(SEPARATOR)
            length += len(SEPARATOR)
            seams.append(number)
        starts.append(length)
        pieces.append(text)
        length += len(text)
        last = text[-1] if text else last
    found: list[list[Found]] = [[] for _ in texts]
    joined = "".join(pieces)
    for hit in detector.find(joined):
        _place(hit, joined, starts, texts, found)
    for number in seams:
        _read_seam(detector, texts, number, found)
    return found


def _place(
    hit: Found,
    joined: str,
    starts: list[int],
    texts: Sequence[str],
    found: list[list[Found]],
) -> None:
    """File a hit on the joined text under each text it touches."""
    assert hit.start is not None and hit.end is not None  # the rules tier gives spans
    number = max(0, bisect.bisect_right(starts, hit.start) - 1)
    first = True
    while number < len(texts) and starts[number] < hit.end:
        begin = max(hit.start, starts[number]) - starts[number]
        end = min(hit.end, starts[number] + len(texts[number])) - starts[number]
        if begin < end:
            value = joined[hit.start : hit.end] if first else ""
            found[number].append(Found(hit.label, value, begin, end))
            first = False
        number += 1


def _read_seam(
    detector: TextDetector, texts: Sequence[str], number: int, found: list[list[Found]]
) -> None:
    """Read the seam before `texts[number]` with nothing between the two; file the hits
    that cross it."""
    before = _previous_text(texts, number)
    if before is None:
        return
    if any(hit.end == len(texts[before]) for hit in found[before]) or any(
        hit.start == 0 for hit in found[number]
    ):
        return  # a value ends or starts at the seam already: "jane@x.com" + "SSN …" is two
    head = texts[before][-WINDOW:]
    tail = texts[number][:WINDOW]
    offset = len(texts[before]) - len(head)
    for hit in detector.find(head + tail):
        assert hit.start is not None and hit.end is not None
        if hit.start < len(head) < hit.end:
            value = (head + tail)[hit.start : hit.end]
            found[before].append(Found(hit.label, value, offset + hit.start, offset + len(head)))
            found[number].append(Found(hit.label, "", 0, hit.end - len(head)))


def _previous_text(texts: Sequence[str], number: int) -> int | None:
    """The last non-empty text before `texts[number]`."""
    for before in range(number - 1, -1, -1):
        if texts[before]:
            return before
    return None
