"""Move a regex's leading lookbehinds behind its first character, so `re` can skip ahead.

`re` searches quickly only for a pattern that begins with a literal or a character class: it
then runs its matcher only where such a character occurs. Nearly every recognizer pattern
begins with a boundary lookbehind instead (`(?<![A-Za-z0-9-])[0-9]{3}-…`), so every search
tries the matcher at every position of the text: on a 1 KB prompt with a few numbers that
was most of the rules tier's time.

A lookbehind placed before a pattern's first character is the same test placed after it
with that character appended: `(?<!X)C…` matches exactly what `C(?<!(?:X)C)…` matches,
since the second lookbehind ends with the character the first one stood in front of. So is
a first `C{m,n}` (m ≥ 1) split into `C C{m-1,n-1}`. `shift_lookbehinds` makes that move on
the pattern's text, reading only as much of it as the move needs (the lookbehinds and the
first character with its repeat); a pattern of any other shape is returned as it is. Only
Python's search changes: the patterns as written (and Kotlin's copy of them) are untouched,
and the tests compare both forms' matches on the corpus and on random texts.
"""

from __future__ import annotations

import re

_LOOKBEHIND = re.compile(r"\(\?<[!=]")
_REPEAT = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}|[*+?]")
_ONE_CHARACTER_ESCAPES = frozenset("dDsSwWtnrfv")
"""Escapes that stand for one character (a class or a control character)."""
_NOT_A_CHARACTER = frozenset("()|.^$*+?{")
"""Where the pattern's first item starts with one of these it is not one plain character
(`.` is one, but the move is kept to literals and classes, as the tests cover them)."""


def shift_lookbehinds(regex: re.Pattern[str]) -> re.Pattern[str]:
    """`regex`, or an equivalent regex whose first item is a character (see the module)."""
    text = regex.pattern
    if regex.flags & re.VERBOSE:  # whitespace and comments would need reading too
        return regex
    lookbehinds: list[tuple[str, str]] = []  # (the opening "(?<!" or "(?<=", the body)
    position = 0
    while _LOOKBEHIND.match(text, position):
        end = _group_end(text, position)
        if end is None:
            return regex
        lookbehinds.append((text[position : position + 4], text[position + 4 : end - 1]))
        position = end
    if not lookbehinds:
        return regex
    first_end = _character_end(text, position)
    if first_end is None:
        return regex
    first = text[position:first_end]
    rest_of_first = _rest_of_repeat(text, first_end, first)
    if rest_of_first is None:
        return regex
    remainder, after = rest_of_first
    moved = "".join(f"{opening}(?:{body}){first})" for opening, body in lookbehinds)
    return re.compile(first + moved + remainder + text[after:], regex.flags)


def _group_end(text: str, start: int) -> int | None:
    """The index just after the group that opens at `start` (None: it never closes)."""
    depth = 0
    position = start
    while position < len(text):
        char = text[position]
        if char == "\\":
            position += 2
            continue
        if char == "[":
            end = _class_end(text, position)
            if end is None:
                return None
            position = end
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    return None


def _class_end(text: str, start: int) -> int | None:
    """The index just after the character class that opens at `start`."""
    position = start + 1
    if text.startswith("^", position):
        position += 1
    if text.startswith("]", position):  # a `]` first in a class is a literal
        position += 1
    while position < len(text):
        char = text[position]
        if char == "\\":
            position += 2
            continue
        if char == "[":
            return None  # a nested set (a FutureWarning in 3.11): not a shape worth reading
        if char == "]":
            return position + 1
        position += 1
    return None


def _character_end(text: str, start: int) -> int | None:
    """The end of one literal character or class at `start` (None: something else)."""
    if start >= len(text):
        return None
    char = text[start]
    if char == "[":
        return _class_end(text, start)
    if char == "\\":
        escaped = text[start + 1 : start + 2]
        if escaped and (not escaped.isalnum() or escaped in _ONE_CHARACTER_ESCAPES):
            return start + 2
        return None
    return None if char in _NOT_A_CHARACTER else start + 1


def _rest_of_repeat(text: str, position: int, first: str) -> tuple[str, int] | None:
    """(what remains of the first item once one `first` is taken, where the pattern goes on),
    or None when the first item may match nothing (a repeat from zero) or is not a plain
    greedy or lazy repeat."""
    found = _REPEAT.match(text, position)
    if found is None:
        # `{` that does not open a repeat we read (`{,n}`, or a literal brace): left alone.
        return None if text.startswith("{", position) else ("", position)
    end = found.end()
    lazy = text.startswith("?", end)
    if text.startswith("+", end):
        return None  # possessive: left as it is
    end += lazy
    suffix = "?" if lazy else ""
    token = found.group(0)
    if token in ("*", "?"):
        return None
    if token == "+":
        return f"{first}*{suffix}", end
    low = int(found.group(1))
    if low == 0:
        return None
    if found.group(2) is None:  # {m}
        rest = "" if low == 1 else f"{first}{{{low - 1}}}{suffix}"
        return rest, end
    high = found.group(3)
    if not high:  # {m,}
        return f"{first}{{{low - 1},}}{suffix}", end
    if int(high) < low:
        return None
    if int(high) == 1:
        return "", end
    return f"{first}{{{low - 1},{int(high) - 1}}}{suffix}", end
