"""The same regex, rearranged so that Python's regex engine can skip ahead while searching.

`re` searches quickly only for a pattern that begins with a literal or a character class: it
then runs its matcher only where such a character occurs. Nearly every recognizer pattern
begins with a boundary lookbehind instead (`(?<![A-Za-z0-9-])[0-9]{3}-…`), so every search
tries the matcher at every position of the text: on a 1 KB prompt with a few numbers that
was most of the rules tier's time.

A lookbehind placed before a pattern's first character is the same test placed after it
with that character appended: `(?<!X)C…` matches exactly what `C(?<!XC)…` matches, since
the second lookbehind ends with the character the first one stood in front of. So is a
first `C{m,n}` (m ≥ 1) split into `C C{m-1,n-1}`. `quick_start` makes that move on the
parsed pattern and compiles the result; a pattern of any other shape is returned as it is.
Only Python's search changes: the patterns as written (and Kotlin's copy of them) are
untouched, and the tests compare both forms' matches on the corpus and on random texts.
"""

from __future__ import annotations

import re
import re._compiler as sre_compile  # type: ignore[import-not-found]  # the stdlib's regex compiler
import re._constants as sre  # type: ignore[import-not-found]
import re._parser as sre_parse  # type: ignore[import-not-found]
from typing import Any

_LOOKBEHINDS = (sre.ASSERT, sre.ASSERT_NOT)
_ONE_CHARACTER = (sre.LITERAL, sre.IN)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT)


def quick_start(regex: re.Pattern[str]) -> re.Pattern[str]:
    """`regex`, or an equivalent regex whose first item is a character (see the module)."""
    parsed = sre_parse.parse(regex.pattern, regex.flags)
    items: list[tuple[Any, Any]] = list(parsed.data)
    behind = 0
    while behind < len(items) and _is_lookbehind(items[behind]):
        behind += 1
    if behind == 0 or behind == len(items):
        return regex
    split = _first_character(items[behind])
    if split is None:
        return regex
    first, rest_of_first = split
    moved = [
        (op, (direction, sre_parse.SubPattern(parsed.state, [*body.data, first])))
        for op, (direction, body) in items[:behind]
    ]
    parsed.data = [first, *moved, *rest_of_first, *items[behind + 1 :]]
    return sre_compile.compile(parsed, regex.flags)


def _is_lookbehind(item: tuple[Any, Any]) -> bool:
    op, arg = item
    return op in _LOOKBEHINDS and arg[0] == -1


def _first_character(
    item: tuple[Any, Any],
) -> tuple[tuple[Any, Any], list[tuple[Any, Any]]] | None:
    """(the one character `item` must begin with, what of `item` follows it), or None."""
    op, arg = item
    if op in _ONE_CHARACTER:
        return item, []
    if op in _REPEATS:
        low, high, body = arg
        if low >= 1 and len(body.data) == 1 and body.data[0][0] in _ONE_CHARACTER:
            remaining_high = high if high is sre.MAXREPEAT else high - 1
            rest = [] if remaining_high == 0 else [(op, (low - 1, remaining_high, body))]
            return body.data[0], rest
    return None
