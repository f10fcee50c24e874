"""JSON escapes read as JSON reads them, with the way back to the text as written.

A tool call's `arguments` is JSON text inside a JSON string: the body's parser undoes the
outer escapes, not the inner ones, so `{"to": "jane\\u0040example.com"}` would reach the
rules with no `@` in it — and the model, which reads JSON, would see the address.
Clients put JSON in message content and tool results too, so every text the rules tier
reads has its JSON escapes undone first (a text with no backslash costs one `in`), up to
`MAX_LEVELS` deep (JSON inside a string inside JSON). A value found is mapped back onto
the escapes it was written with, so its placeholder replaces whole escapes and the JSON
around it stays valid.
"""

from __future__ import annotations

import re

from redacto.rules.normalise import Normalised, OffsetMap, Rewrite

__all__ = ["MAX_LEVELS", "undo_json_escapes"]

MAX_LEVELS = 4
"""How many times escapes are undone (JSON in a string in JSON in a string…)."""
_ESCAPE = re.compile(
    r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    r"|u([0-9a-fA-F]{4})|([\"\\/bfnrt]))"
)
_SHORT = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def undo_json_escapes(text: str) -> Normalised:
    """`text` with its JSON escapes undone, level after level (at most `MAX_LEVELS`).

    JSON's own grammar: `\\\\` is one backslash (so `\\\\u0040` is not an `@`), a surrogate
    pair is one character, a lone surrogate and an unknown escape stay as written."""
    maps: list[OffsetMap] = []
    read = text
    for _ in range(MAX_LEVELS):
        if "\\" not in read:
            break
        undone = _undo_once(read)
        if undone is None:
            break
        read, step = undone
        maps.append(step)
    return Normalised(text=read, source=text, maps=tuple(maps))


def _undo_once(text: str) -> tuple[str, OffsetMap] | None:
    rewrite = Rewrite(text)
    for escape in _ESCAPE.finditer(text):
        high, low, unit, short = escape.groups()
        if high is not None:
            char = chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
        elif unit is not None:
            code = int(unit, 16)
            if 0xD800 <= code < 0xE000:
                continue  # a lone surrogate is no character: left as written
            char = chr(code)
        else:
            char = _SHORT[short]
        rewrite.replace(*escape.span(), char)
    return rewrite.finish()
