"""The user's line endings: taken out for the pipeline, put back into what it wrote.

The pipeline reads lines that end at `\\n` (as the phone's core does), so a text file with
CRLF (`\\r\\n`) or lone CR (`\\r`) endings is given to it with `\\n` endings. The redacted text
it returns is that text with values replaced by placeholders, so every `\\n` outside a
replaced value stands for one of the file's own line breaks, in order; `restore` writes each
back as it was, and `original_offset` maps a position in the pipeline's text (a span in the
report) to the same character in the user's text. Restoring only ever turns a `\\n` into the
file's own ending: it cannot bring back a replaced value.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from redacto.document import PLACEHOLDER_PATTERN

_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class LineEndings:
    """A text's line breaks: where each lies in the `\\n`-only text, and how it was written."""

    normalized: str
    endings: dict[int, str]
    """Position of each `\\n` in `normalized` that the original wrote otherwise → its ending."""
    _crlf_at: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> LineEndings:
        """Split `text` (as decoded, endings untouched) into `\\n` text and its endings."""
        pieces: list[str] = []
        endings: dict[int, str] = {}
        crlf_at: list[int] = []
        position = 0  # in the normalized text
        last = 0
        for match in _BREAK.finditer(text):
            pieces.append(text[last : match.start()])
            position += match.start() - last
            if match.group() != "\n":
                endings[position] = match.group()
                if match.group() == "\r\n":
                    crlf_at.append(position)
            pieces.append("\n")
            position += 1
            last = match.end()
        pieces.append(text[last:])
        return cls("".join(pieces), endings, tuple(crlf_at))

    @property
    def changed(self) -> bool:
        """True when the original had any ending other than `\\n`."""
        return bool(self.endings)

    def original_offset(self, index: int) -> int:
        """The position in the original text of the character at `index` in `normalized`."""
        return index + bisect.bisect_left(self._crlf_at, index)

    def restore(self, redacted: str) -> str:
        """`redacted` (the normalized text with placeholders) with the original endings."""
        if not self.changed:
            return redacted
        styles = set(self.endings.values())
        if len(styles) == 1 and len(self.endings) == self.normalized.count("\n"):
            return redacted.replace("\n", styles.pop())
        return self._restore_each(redacted)

    def _restore_each(self, redacted: str) -> str:
        """Mixed endings: find each literal run of `redacted` in the normalized text, in
        order, and write its line breaks as the original did there."""
        out: list[str] = []
        cursor = 0
        last = 0
        for match in [*PLACEHOLDER_PATTERN.finditer(redacted), None]:
            end = match.start() if match is not None else len(redacted)
            literal = redacted[last:end]
            found = self.normalized.find(literal, cursor) if literal else cursor
            if found < 0:
                out.append(literal)  # cannot place it: its breaks stay `\n`
            else:
                out.append(self._with_endings(literal, found))
                cursor = found + len(literal)
            if match is not None:
                out.append(match.group())
                last = match.end()
        return "".join(out)

    def _with_endings(self, literal: str, at: int) -> str:
        if "\n" not in literal:
            return literal
        return "".join(
            self.endings.get(at + offset, "\n") if char == "\n" else char
            for offset, char in enumerate(literal)
        )
