"""What a proofreader says about the writing, and the JSON Lines framing it arrives in.

The LLM answers one JSON object per line, `{"error_text", "correction", "context_before",
"description"}`, and each object is acted on the moment its line ends (`MistakeLines`):
the first mistake is placed while the model is still writing the second. Line framing was
chosen over a partial-JSON parser (instructor's iterable mode) because the line ending is
the one moment an object is complete, parsing a line is one `json.loads`, and a line
that is not a mistake is dropped alone without losing the others (docs/proofread.md,
"Why line framing").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, ValidationError


class Mistake(BaseModel):
    """One mistake as the proofreader reports it: the text as written, its correction, the
    words just before it (to find the right occurrence), and why it is a mistake."""

    model_config = ConfigDict(frozen=True, extra="ignore", str_strip_whitespace=False)

    error_text: str
    correction: str
    context_before: str = ""
    description: str = ""


class PlaceStrategy(StrEnum):
    """How a mistake was placed on the words (`redacto.pipeline.locator.locate_mistake`)."""

    CONTEXT = "context"
    CONTEXT_NORMALIZED = "context_normalized"
    ERROR_ONCE = "error_once"
    JOINED_SUBSTRING = "joined_substring"


class PlacedMistake(BaseModel):
    """A mistake as `mistakes.json` lists it: where it is, in PDF points from the page's
    top-left corner (y downwards), or `located: false` with no boxes."""

    model_config = ConfigDict(frozen=True)

    error_text: str
    correction: str
    description: str
    located: bool
    strategy: PlaceStrategy | None = None
    page: int | None = None
    """1-based; None when not located."""
    boxes: list[tuple[float, float, float, float]] = []


class LineProblem(StrEnum):
    """Why a complete line of the answer is not a mistake."""

    NOT_JSON = "not JSON"
    NOT_A_MISTAKE = "not a mistake object"


class MistakeLines:
    """Splits a streamed answer into lines and parses each as soon as it is complete.

    `feed` takes any piece of the answer (a token, half a character's escape, several
    lines) and returns the mistakes whose lines it completed; `close` parses the last line
    when the answer ends without a newline. Blank lines and Markdown code fences are
    skipped; any other line that is not a mistake object is counted in `problems`.
    """

    def __init__(self) -> None:
        self._held = ""
        self.problems: list[LineProblem] = []
        self.lines = 0

    def feed(self, piece: str) -> list[Mistake]:
        text = self._held + piece
        *complete, self._held = text.split("\n")
        return [mistake for line in complete for mistake in self._parse(line)]

    def close(self) -> list[Mistake]:
        held, self._held = self._held, ""
        return list(self._parse(held))

    def _parse(self, line: str) -> Iterator[Mistake]:
        line = line.strip()
        if not line or line.startswith("```"):
            return
        self.lines += 1
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's stack
            self.problems.append(LineProblem.NOT_JSON)
            return
        try:
            yield Mistake.model_validate(value)
        except ValidationError:
            self.problems.append(LineProblem.NOT_A_MISTAKE)
