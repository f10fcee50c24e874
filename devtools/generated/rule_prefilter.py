"""Derive each recognizer pattern's prefilter requirements from its regex; check or rewrite them.

    python -m devtools.generated --check rule-prefilter   # exit 1 when a line is stale
    python -m devtools.generated --write rule-prefilter   # rewrite the `prefilter:` lines

The runtime prefilter (`redacto.rules.prefilter`) reads what a pattern needs of a text from
the `prefilter:` line beside the pattern in `recognizers.yaml`, so it needs no regex parser.
This module is where those lines come from: it reads each regex with CPython's own parser
(`re._parser`, private and free to change between versions, hence here and not at run time)
and proves what every match needs of the text it is found in (as searched: OCR's O read as
zero), in the fields of `PrefilterSpec`:

- `width`: no match is longer than this many characters (absent: no bound);
- `digits`, `counts`: how many ASCII digits, and how many of each punctuation character the
  pattern names (an `@`, an IPv6 address's two colons), every match consumes at the least;
  a text must then hold that many within some `width` characters in a row;
- `one_of`: groups of needles; every match (or, for a positive lookaround, the text) holds
  one needle of each group. A one-character needle is compared exactly, a longer one (a run
  of literal characters) case-insensitively;
- `word_starts`: the same, for runs that no letter or digit can precede in a match (a
  month's name after a boundary lookbehind: "caught" does not wake the date patterns).

Where the regex does not let a requirement be proved (a negated class, `\\w`, a class too
large to be worth testing), it is left out: the pattern then runs on more texts, never on
fewer than it can match. `tests/rules/test_rule_prefilter.py` tests the derivation.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # the stdlib's own regex parser
import re._parser as sre_parse  # type: ignore[import-not-found]
import string
from pathlib import Path
from typing import Any

import yaml

from redacto.rules.catalog import RECOGNIZERS_FILE, REGEX_FLAGS, PrefilterSpec

ROOT = Path(__file__).resolve().parents[2]

DIGITS = "0123456789"
PROSE = frozenset(" \t\n\r.,;:'\"()-!?" + string.ascii_letters)
"""Characters nearly every text holds: a needle group holding one of them saves nothing."""
MAX_CLASS = 64
"""A character class larger than this is not worth requiring (it is in every text)."""

WORD = frozenset(string.ascii_letters + string.digits)
WORD_START = "\x00"
"""Marks a run (while deriving) that no letter or digit can precede in a match."""

Item = tuple[Any, Any]
Group = frozenset[str]


def derive(regex: str, flags: int = REGEX_FLAGS) -> PrefilterSpec | None:
    """What every match of `regex` needs of the text it is found in (None: nothing provable)."""
    parsed = sre_parse.parse(regex, flags)
    items: list[Item] = list(parsed.data)
    _low, high = parsed.getwidth()
    digits = _count(items, frozenset(DIGITS), flags)
    counts = {char: _count(items, frozenset(char), flags) for char in sorted(_punctuation(items))}
    # One of a character prose is full of is no test; two close together can be (an IP's dots).
    counts = {char: n for char, n in counts.items() if n >= 2 or (n == 1 and char not in PROSE)}
    groups = _useful(_conjunction(items, flags), digits, counts)
    if not digits and not counts and not groups:
        return None
    starting = [g for g in groups if all(needle.startswith(WORD_START) for needle in g)]
    return PrefilterSpec(
        width=None if high >= sre.MAXREPEAT else int(high),
        digits=digits,
        counts=counts,
        one_of=tuple(
            tuple(sorted(needle.removeprefix(WORD_START) for needle in group))
            for group in groups
            if group not in starting
        ),
        word_starts=tuple(
            tuple(sorted(needle.removeprefix(WORD_START) for needle in group)) for group in starting
        ),
    )


def _count(items: list[Item], chars: frozenset[str], flags: int) -> int:
    """The fewest characters from `chars` that a match of the sequence `items` consumes.
    Only items that consume nothing but such characters count; a lookaround or a
    back-reference counts as none."""
    total = 0
    for op, arg in items:
        if op is sre.LITERAL:
            total += chr(arg) in chars and not _cased(chr(arg), flags)
        elif op is sre.IN:
            found = _class(arg, flags)
            total += bool(found) and found <= chars  # type: ignore[operator]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, _high, body = arg
            total += low * _count(list(body), chars, flags)
        elif op is sre.SUBPATTERN:
            _group, add_flags, del_flags, body = arg
            total += _count(list(body), chars, (flags | add_flags) & ~del_flags)
        elif op is sre.ATOMIC_GROUP:
            total += _count(list(arg), chars, flags)
        elif op is sre.BRANCH:
            total += min(_count(list(alternative), chars, flags) for alternative in arg[1])
    return total


def _punctuation(items: list[Item]) -> set[str]:
    """Every non-alphanumeric character the regex names as a literal, at any depth."""
    found: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL and not chr(arg).isalnum():
            found.add(chr(arg))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            found |= _punctuation(list(arg[2]))
        elif op is sre.SUBPATTERN:
            found |= _punctuation(list(arg[3]))
        elif op is sre.ATOMIC_GROUP:
            found |= _punctuation(list(arg))
        elif op is sre.BRANCH:
            for alternative in arg[1]:
                found |= _punctuation(list(alternative))
    return found


def _conjunction(items: list[Item], flags: int, starts_word: bool = False) -> list[Group]:
    """Needle groups every match of the sequence holds one needle of, each group.
    `starts_word`: the sequence begins where no letter or digit precedes it."""
    groups: list[Group] = []
    at_word_start = [
        (i == 0 and starts_word) or (i > 0 and _word_boundary(items[i - 1], flags))
        for i in range(len(items))
    ]
    for item, at_start in zip(items, at_word_start, strict=True):
        groups.extend(_item(item, flags, at_start))
    groups.extend(frozenset([run]) for run in _literal_runs(items, at_word_start))
    return groups


def _word_boundary(item: Item, flags: int) -> bool:
    """Whether no letter or digit can stand just before what follows `item`: it is a
    negative lookbehind of one class holding them all, or it consumes one character that
    is neither."""
    op, arg = item
    if op is sre.ASSERT_NOT and arg[0] == -1 and len(arg[1].data) == 1:
        inner_op, inner_arg = arg[1].data[0]
        before = _class(inner_arg, flags) if inner_op is sre.IN else None
        return before is not None and before >= WORD
    if op is sre.LITERAL:
        return not chr(arg).isalnum()
    if op is sre.IN:
        chars = _class(arg, flags)
        return chars is not None and not chars & WORD
    return False


def _best(groups: list[Group]) -> Group | None:
    """The group most worth testing: fewest needles common in prose, then the fewest."""
    if not groups:
        return None
    return min(groups, key=lambda group: (len(group & PROSE), len(group), sorted(group)))


def _literal_runs(items: list[Item], at_word_start: list[bool]) -> list[str]:
    """Runs of two or more literal characters in a row (digits break a run), lower-cased;
    one that begins a word is marked so (`WORD_START`)."""
    runs, run = [], ""
    starts_word = False
    for index, (op, arg) in enumerate([*items, (None, None)]):
        char = chr(arg) if op is sre.LITERAL else ""
        if char and char not in DIGITS:
            if not run:
                starts_word = at_word_start[index]
            run += char
            continue
        if len(run) >= 2:
            runs.append((WORD_START if starts_word else "") + run.lower())
        run = ""
    return runs


def _item(item: Item, flags: int, at_start: bool) -> list[Group]:
    op, arg = item
    if op is sre.LITERAL:
        return [_cased_set(frozenset(chr(arg)), flags)]
    if op is sre.IN:
        found = _class(arg, flags)
        return [] if found is None else [found]
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, body = arg
        return _conjunction(list(body), flags, at_start) if low >= 1 else []
    if op is sre.SUBPATTERN:
        _group, add_flags, del_flags, body = arg
        return _conjunction(list(body), (flags | add_flags) & ~del_flags, at_start)
    if op is sre.ATOMIC_GROUP:
        return _conjunction(list(arg), flags, at_start)
    if op is sre.ASSERT:  # a positive lookaround: what it requires is in the text
        direction, body = arg
        return _conjunction(list(body), flags, at_start and direction == 1)
    if op is sre.BRANCH:
        union: set[str] = set()
        for alternative in arg[1]:
            best = _best(_conjunction(list(alternative), flags, at_start))
            if best is None:
                return []
            union |= best
        if not all(needle.startswith(WORD_START) for needle in union):
            union = {needle.removeprefix(WORD_START) for needle in union}
        return [frozenset(union)]
    return []


def _class(items: list[Item], flags: int) -> frozenset[str] | None:
    chars: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL:
            chars.add(chr(arg))
        elif op is sre.RANGE:
            low, high = arg
            if high - low >= MAX_CLASS:
                return None
            chars.update(chr(code) for code in range(low, high + 1))
        else:  # NEGATE, CATEGORY (\d, \w, \s): not a small, known set
            return None
    found = _cased_set(frozenset(chars), flags)
    return found if len(found) <= MAX_CLASS else None


def _cased(char: str, flags: int) -> bool:
    return bool(flags & re.IGNORECASE) and char.lower() != char.upper()


def _cased_set(chars: frozenset[str], flags: int) -> frozenset[str]:
    if not flags & re.IGNORECASE:
        return chars
    return frozenset(c for char in chars for c in (char, char.lower(), char.upper()))


def _useful(groups: list[Group], digits: int, counts: dict[str, int]) -> list[Group]:
    """The groups worth a test: no needle common in prose, none that another group, the
    digits or the counts imply, and no group of more than two digits beside required digits
    (nearly every text with digits holds one of them)."""
    kept: list[Group] = []
    for group in sorted(set(groups), key=lambda g: (len(g), sorted(g))):
        if any(_common(needle) for needle in group) or any(char in group for char in counts):
            continue
        if digits and (set(DIGITS) <= group or (group <= set(DIGITS) and len(group) > 2)):
            continue
        if any(other <= group for other in kept):
            continue
        kept.append(group)
    return kept


def _common(needle: str) -> bool:
    """A character prose is full of, or a run of such characters with no letter or digit."""
    needle = needle.removeprefix(WORD_START)
    if len(needle) == 1:
        return needle in PROSE
    return not any(char.isalnum() for char in needle)


def yaml_line(spec: PrefilterSpec | None) -> str | None:
    """The flow-style mapping written after `prefilter:` (None: no line)."""
    if spec is None:
        return None
    return yaml.safe_dump(
        spec.model_dump(exclude_defaults=True),
        default_flow_style=True,
        sort_keys=False,
        width=10**6,
    ).strip()


def updated_yaml(text: str) -> tuple[str, list[str]]:
    """`recognizers.yaml`'s text with every pattern's `prefilter:` line as derived, and the
    names of the patterns whose line changed."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    changed: list[str] = []
    recognizer = pattern = ""
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if re.match(r"  [a-z_]+:\s*$", line):
            recognizer = line.strip().rstrip(":")
        elif found := re.match(r"\s*- name: ([a-z0-9_]+)", line):
            pattern = found.group(1)
        if re.match(r"\s+prefilter:", line):
            continue  # rewritten below, after its regex line
        out.append(line)
        found = re.match(r"(\s+)regex: (.*)$", line)
        if not found:
            continue
        indent, value = found.groups()
        wanted = yaml_line(derive(yaml.safe_load(value)))
        old = lines[position] if position < len(lines) else ""
        had = old.strip()[len("prefilter: ") :] if old.lstrip().startswith("prefilter:") else None
        if wanted is not None:
            out.append(f"{indent}prefilter: {wanted}\n")
        if had != wanted:
            changed.append(f"{recognizer}.{pattern}")
    return "".join(out), changed


def outputs() -> dict[str, str]:
    """`recognizers.yaml` (relative to the repository root) with every `prefilter:` line as
    its regex proves it; the rest of the file as it is."""
    text = RECOGNIZERS_FILE.read_text(encoding="utf-8")
    return {RECOGNIZERS_FILE.relative_to(ROOT).as_posix(): updated_yaml(text)[0]}
