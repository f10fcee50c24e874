"""What may reach the log: `loggable` turns anything a client sent into one short line of
printable ASCII, so a request cannot write escape sequences to the operator's terminal.
"""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")
LOGGED_CHARS = 120


def loggable(text: str) -> str:
    """`text` as one line of printable ASCII (other characters as `\\xNN`), cut short."""
    shown = _UNPRINTABLE.sub(lambda match: ascii(match.group())[1:-1], text[:LOGGED_CHARS])
    return shown + ("…" if len(text) > LOGGED_CHARS else "")
