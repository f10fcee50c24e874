"""Stop a reply early once it has left the step's line format.

A small model that loses the format rarely finds it again: it echoes the prompt or repeats
itself until the output budget runs out — tens of seconds per call on a phone's CPU, spent
on text the parsers drop. `LineWatch` reads the reply line by line exactly as the step's
parser does and stops decoding after `MAX_WASTED_LINES` unusable lines in a row
(unparseable or repeated), or at a line longer than any answer line can be. Everything
parsed before the stop is kept; the stop is recorded in the step's trace. A stopped reply
was not read whole, so a verdict read from it cannot stand (validate fails closed on it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from redacto.engines import Decoding
from redacto.pipeline.parsing import LineRejected, RejectReason, is_nothing

MAX_WASTED_LINES = 12
"""Unusable lines in a row before decoding stops. Measured (docs/pipeline.md): at 5 the base
270M was stopped inside its echo of the prompt before it reached the document's own
`Field: value` lines, which its text-mode detect reads as items — smoke text recall fell
from 49.0 % to 38.5 %; at 12 it was 52.9 %. A privacy tool buys that recall with time."""

MAX_LINE_CHARS = 400
"""The longest line an answer can need: an `INDEX:LABEL` line is under 40 characters and a
text-mode `LABEL: value` line holds one identifier, not a paragraph."""

WASTED = frozenset({RejectReason.JUNK, RejectReason.DUPLICATE})

MAX_REPEATED_LINES = 2
"""Lines in a row that repeat earlier ones before a constrained reply is stopped. Not 1: the
default sometimes says one line twice and then names what it had not (a main-split page lost
a name to a stop at the first repeat); a loop repeats every line from then on."""


@dataclass
class LineSplitter:
    """Turns a stream of text pieces into complete lines, acting on each as soon as it ends.

    `LineWatch` reads every reply through one, so detect and validate act on each line (and
    boxes are drawn) while the model is still talking.
    """

    on_line: Callable[[str], None]
    _pending: list[str] = field(default_factory=list)

    def feed(self, piece: str) -> None:
        *complete, rest = piece.split("\n")
        for part in complete:
            self._pending.append(part)
            self.on_line("".join(self._pending))
            self._pending.clear()
        if rest:
            self._pending.append(rest)

    def finish(self) -> None:
        """Flush a last line that had no newline."""
        if self._pending:
            self.on_line("".join(self._pending))
            self._pending.clear()


@dataclass
class LineWatch:
    """Feeds each complete line to `on_line` and says when the reply is no longer worth it.

    `rejected` is the list the step's parser appends its dropped lines to; a line it drops
    as junk or as a repeat counts as wasted, a line it uses (or rejects for a reason that
    shows the format was followed, such as an unknown label) resets the count.
    """

    on_line: Callable[[str], None]
    rejected: list[LineRejected]
    max_wasted_lines: int = MAX_WASTED_LINES
    stop_on_repeat: bool = False
    """Stop once `MAX_REPEATED_LINES` lines in a row repeat earlier ones (a constrained
    reply: under a pattern the model can only loop through the page's values, never leave
    the format)."""
    wasted_in_a_row: int = 0
    repeats_in_a_row: int = 0
    _stop: bool = False
    _splitter: LineSplitter = field(init=False)
    _pending_chars: int = 0
    _said: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._splitter = LineSplitter(on_line=self._read_line)

    def feed(self, piece: str) -> Decoding:
        """Read one piece of the reply; `Decoding.STOP` once it is no longer an answer."""
        self._splitter.feed(piece)
        *ended, unfinished = piece.split("\n")
        self._pending_chars = len(unfinished) + (0 if ended else self._pending_chars)
        if self._pending_chars > MAX_LINE_CHARS:
            self._stop = True
        return Decoding.STOP if self._stop else Decoding.CONTINUE

    def finish(self) -> None:
        """Read a last line that had no newline."""
        self._splitter.finish()

    @property
    def stopped(self) -> bool:
        """Decoding was stopped: part of the reply (at least the line that tripped the stop,
        or everything after it) was never read, even when the model had already ended."""
        return self._stop

    def _read_line(self, line: str) -> None:
        if self._stop:
            return  # pieces can hold several lines; nothing after the stop is read
        before = len(self.rejected)
        self.on_line(line)
        if is_nothing(line):
            return
        dropped = self.rejected[before:]
        if dropped and all(item.reason in WASTED for item in dropped):
            self.wasted_in_a_row += 1
            self._stop = self.wasted_in_a_row >= self.max_wasted_lines
        else:
            self.wasted_in_a_row = 0
        if self.stop_on_repeat:
            said = " ".join(line.split())
            self.repeats_in_a_row = self.repeats_in_a_row + 1 if said in self._said else 0
            self._stop = self._stop or self.repeats_in_a_row >= MAX_REPEATED_LINES
            self._said.add(said)
