"""Put the original values back into what a model answers, whole or in pieces.

A stream can be split anywhere — across server-sent events, across network reads, in the
middle of `[` or of a multi-byte character — so `StreamRestorer` holds back only a suffix
that could still become a placeholder and lets everything else through at once.
Look-alikes the vault did not hand out (`[NAME_99]`, `[TODO_1]`) pass through untouched.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from redacto.vault.book import PLACEHOLDER, Vault

_PREFIX = re.compile(r"\[(?:[A-Z][A-Z_]*(?:_[0-9]+)?)?\Z")
"""A text that could still grow into a placeholder: `[`, `[NA`, `[NAME_`, `[NAME_12`."""
MAX_PLACEHOLDER = 48
"""No placeholder is longer: a longer possible prefix is plain text, let through."""


def restore_text(text: str, vault: Vault, *, json_text: bool = False) -> str:
    """`text` with every placeholder of `vault` replaced by its value (JSON-escaped, for
    `json_text`: a text that is itself JSON, such as a tool call's arguments)."""
    if "[" not in text:
        return text

    def value(found: re.Match[str]) -> str:
        original = vault.original(found.group(0))
        if original is None:
            return found.group(0)
        return json.dumps(original, ensure_ascii=False)[1:-1] if json_text else original

    return PLACEHOLDER.sub(value, text)


@dataclass
class StreamRestorer:
    """Restores a text that arrives in pieces; `feed` returns what may be shown now."""

    vault: Vault
    json_text: bool = False
    """The text is JSON (a streamed tool call's arguments): values go back JSON-escaped."""
    _held: str = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        cut = text.rfind("[")
        if cut >= 0 and len(text) - cut < MAX_PLACEHOLDER and _PREFIX.match(text, cut):
            self._held = text[cut:]
            text = text[:cut]
        else:
            self._held = ""
        return restore_text(text, self.vault, json_text=self.json_text)

    @property
    def holding(self) -> bool:
        """Text is held back: it could still become a placeholder."""
        return bool(self._held)

    def flush(self) -> str:
        """The end of the stream: whatever was held is plain text."""
        held, self._held = self._held, ""
        return held
