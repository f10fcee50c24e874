"""Every word form a Hunspell dictionary accepts, written out from its `.dic` and `.aff`.

Debian's `unmunch` garbles dictionaries whose flags are two characters long (`FLAG long`,
the French one: it prints forms such as `1er/n'q'd'l'm't's'|`), so the forms are expanded
here instead, and `redacto lexicon build` checks the result against Hunspell itself
(`hunspell -l` must accept every form). What is expanded:

- each entry's stem, unless it carries the `NEEDAFFIX` or `ONLYINCOMPOUND` flag (a stem or a
  compound part that is no word on its own) or `FORBIDDENWORD`;
- each suffix and prefix the entry's flags allow, where the affix's condition holds;
- a second suffix named in a first suffix's continuation flags (Hunspell's twofold
  suffixes), and a prefix with a suffix where both allow the cross product;
- an affixed form whose continuation flags hold `NEEDAFFIX` only with a further affix.

Left out on purpose: compounds (`en_US` compounds only ordinal numbers, `1st`, `22nd`, which
the residual check reads as numbers), and prefixes that write an elision (`l'`, `d'`,
`qu'`: `l'homme` is read as the pieces `l` and `homme`); the elided word itself (`l'`) is
written instead, so a piece before an apostrophe is known.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Affix:
    """One line of a PFX or SFX block."""

    flag: str
    prefix: bool
    cross: bool
    strip: str
    add: str
    flags: frozenset[str]
    condition: re.Pattern[str]

    def applies(self, word: str) -> bool:
        if self.prefix:
            fits = word.startswith(self.strip) and self.condition.match(word) is not None
        else:
            fits = word.endswith(self.strip) and self.condition.search(word) is not None
        return fits and (len(word) > len(self.strip) or self.full_strip)

    full_strip: bool = False

    def apply(self, word: str) -> str:
        if self.prefix:
            return self.add + word[len(self.strip) :]
        return word[: len(word) - len(self.strip)] + self.add


@dataclass
class AffixFile:
    """What the expansion reads of a `.aff` file."""

    flag_type: str = "char"
    need_affix: str | None = None
    forbidden: str | None = None
    only_in_compound: str | None = None
    full_strip: bool = False
    suffixes: dict[str, list[Affix]] = field(default_factory=dict)
    prefixes: dict[str, list[Affix]] = field(default_factory=dict)

    def split_flags(self, flags: str) -> frozenset[str]:
        """A flag field as its flags (`FLAG long`: pairs; `FLAG num`: commas)."""
        if self.flag_type == "long":
            return frozenset(flags[i : i + 2] for i in range(0, len(flags), 2))
        if self.flag_type == "num":
            return frozenset(f for f in flags.split(",") if f)
        return frozenset(flags)


def _condition(text: str, prefix: bool) -> re.Pattern[str]:
    if text == ".":
        return re.compile("")
    pattern = ""
    position = 0
    while position < len(text):
        char = text[position]
        if char == "[":
            close = text.index("]", position)
            body = text[position + 1 : close]
            negated = body.startswith("^")
            chars = re.escape(body[1:] if negated else body)
            pattern += f"[{'^' if negated else ''}{chars}]"
            position = close + 1
        else:
            pattern += "." if char == "." else re.escape(char)
            position += 1
    return re.compile(f"^{pattern}" if prefix else f"{pattern}$")


def read_affixes(path: Path) -> AffixFile:
    """The flags and affix blocks of a UTF-8 `.aff` file."""
    aff = AffixFile()
    headers: dict[tuple[str, str], bool] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key == "FLAG":
            aff.flag_type = parts[1].lower()
        elif key == "NEEDAFFIX":
            aff.need_affix = parts[1]
        elif key == "FORBIDDENWORD":
            aff.forbidden = parts[1]
        elif key == "ONLYINCOMPOUND":
            aff.only_in_compound = parts[1]
        elif key == "FULLSTRIP":
            aff.full_strip = True
        elif key in ("PFX", "SFX"):
            flag = parts[1]
            if (key, flag) not in headers:
                headers[(key, flag)] = parts[2] == "Y"
                continue
            strip = "" if parts[2] == "0" else parts[2]
            add, _, cont = parts[3].partition("/")
            prefix = key == "PFX"
            affix = Affix(
                flag=flag,
                prefix=prefix,
                cross=headers[(key, flag)],
                strip=strip,
                add="" if add == "0" else add,
                flags=aff.split_flags(cont),
                condition=_condition(parts[4] if len(parts) > 4 else ".", prefix),
                full_strip=aff.full_strip,
            )
            table = aff.prefixes if prefix else aff.suffixes
            table.setdefault(flag, []).append(affix)
    return aff


def read_entries(path: Path, aff: AffixFile) -> Iterator[tuple[str, frozenset[str]]]:
    """Each `.dic` entry as (stem, flags); the count line and morphological fields go."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        field_text = line.split("\t")[0].split(" ")[0] if line.strip() else ""
        if not field_text:
            continue
        # A slash written `\/` belongs to the stem.
        marker = re.search(r"(?<!\\)/", field_text)
        if marker is None:
            yield field_text.replace("\\/", "/"), frozenset()
        else:
            stem = field_text[: marker.start()].replace("\\/", "/")
            yield stem, aff.split_flags(field_text[marker.end() :])


def _is_elision(affix: Affix) -> bool:
    """A prefix that writes an elided article or pronoun (`l'`, `d'`, `qu'`, `l'A`)."""
    return affix.prefix and ("'" in affix.add or "’" in affix.add)


def _particle(affix: Affix) -> str:
    """The elided word an elision prefix writes, up to its apostrophe (`l'A` → `l'`)."""
    cut = max(affix.add.rfind("'"), affix.add.rfind("’"))
    return affix.add[: cut + 1]


def expand_entry(stem: str, flags: frozenset[str], aff: AffixFile) -> Iterator[str]:
    """Every form of one entry (see the module's docstring for what is expanded)."""
    if aff.forbidden in flags:
        return
    need = aff.need_affix
    if need not in flags and aff.only_in_compound not in flags:
        yield stem
    suffixed: list[tuple[str, Affix]] = []
    for flag in flags:
        for suffix in aff.suffixes.get(flag, ()):
            if suffix.applies(stem):
                word = suffix.apply(stem)
                suffixed.append((word, suffix))
                if need not in suffix.flags:
                    yield word
                for flag2 in suffix.flags:
                    for outer in aff.suffixes.get(flag2, ()):
                        if outer.applies(word) and need not in outer.flags:
                            yield outer.apply(word)
    for flag in flags:
        for prefix in aff.prefixes.get(flag, ()):
            if _is_elision(prefix):
                yield _particle(prefix)
                continue
            if not prefix.applies(stem):
                continue
            word = prefix.apply(stem)
            if need not in prefix.flags:
                yield word
            for word_s, suffix in suffixed:
                if prefix.cross and suffix.cross and prefix.applies(word_s):
                    yield prefix.apply(word_s)
            for flag2 in prefix.flags:
                for suffix in aff.suffixes.get(flag2, ()):
                    if suffix.cross and prefix.cross and suffix.applies(stem):
                        inner = suffix.apply(stem)
                        if prefix.applies(inner) and need not in suffix.flags:
                            yield prefix.apply(inner)
    for word_s, suffix in suffixed:
        for flag2 in suffix.flags:
            for prefix in aff.prefixes.get(flag2, ()):
                if _is_elision(prefix):
                    yield _particle(prefix)
                elif prefix.cross and prefix.applies(word_s) and need not in prefix.flags:
                    yield prefix.apply(word_s)


def expand(dic: Path, aff_path: Path) -> Iterator[str]:
    """Every form of every entry of `dic` under `aff_path`, with repeats."""
    aff = read_affixes(aff_path)
    for stem, flags in read_entries(dic, aff):
        yield from expand_entry(stem, flags, aff)
