"""Text as the rules read it: Unicode tricks undone, every offset mapped back.

The recognizers are written for ASCII: `[0-9]`, `[ -]`, `@`. A card number typed with
no-break spaces or full-width digits, an SSN with an en dash, or an e-mail address with a
zero-width space inside would read as something else and pass the safety net. So
the rules read a normalised copy of the text, and each hit is mapped back onto the
characters that were written, so the span that is redacted covers them exactly — the
invisible ones inside it included.

    normalised = normalise(text)
    for start, end in hits_in(normalised.text):
        start, end = normalised.source_span(start, end)

What is normalised (the Kotlin core's `RuleNormalise` does the same, checked by the shared
vectors in `tests/vectors/normalise/`):

1. **Clusters.** The text is cut into clusters: a character and the combining marks
   (general category Mn, Mc, Me) and invisible characters that follow it. Invisible
   characters are dropped from each cluster: every format character (category Cf:
   zero-width space, joiners, word joiner, byte-order mark, soft hyphen, direction
   marks…) and `INVISIBLE` (the combining grapheme joiner, variation selectors, Hangul
   fillers…).
2. **NFKC** of what is left of each cluster: full-width digits and letters become ASCII,
   ligatures their letters, no-break and other typographic spaces a space, a letter and
   its combining accent one precomposed letter.
3. **Folding**: every whitespace character outside ASCII (Python's `str.isspace`) becomes
   a space, and every dash (category Pd, and the minus sign U+2212) a hyphen-minus.
4. **Gaps inside numbers**: between two ASCII digits, a run of one to three ASCII
   whitespace characters that holds a tab, a line break or another control space (`\\t`,
   `\\n`, `\\r\\n`, ` \\n`) becomes one space, so "4111<TAB>1111…" reads as
   "4111 1111…". Plain spaces stay as they are (two spaces part two numbers, as before),
   and so do longer runs: a blank line between paragraphs is layout.

Each character of the result comes from a range of the original: the unchanged
characters from themselves, the characters a cluster became from the whole cluster, a
folded gap from the whole gap. Pure ASCII text with no such gap is returned as is, with
no map: the common case costs one `isascii` and one regex search.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["INVISIBLE", "Normalised", "OffsetMap", "normalise"]

INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180f"  # Mongolian free variation selectors
    + "".join(chr(code) for code in range(0xFE00, 0xFE10))  # variation selectors
)
"""Invisible characters that are not format characters (Cf), dropped like them."""
_EXTRA_DASHES = frozenset("\u2212")
"""The minus sign (Sm) reads as a dash; every Pd character does already."""
_MARKS = frozenset(("Mn", "Mc", "Me"))
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_DIGIT_GAP = re.compile(r"[0-9](?=[ ]{0,2}[\t\n\r\f\v])([ \t\n\r\f\v]{1,3})(?=[0-9])")
"""A gap inside a number: group 1 is the run of whitespace to read as one space."""
_CONTROL_SPACES = "\t\n\r\f\v"


@dataclass(slots=True)
class OffsetMap:
    """Where each character of a derived text came from in its source.

    Segments in derived order: an *identity* segment copies source characters one for
    one; a *replaced* segment is what a source range became, every character of it coming
    from the whole range. Dropped characters have no segment: a span of the derived text
    covers the dropped characters between its first and last character.
    """

    starts: list[int] = field(default_factory=list)
    """Where each segment starts in the derived text."""
    source_starts: list[int] = field(default_factory=list)
    source_ends: list[int] = field(default_factory=list)
    identity: list[bool] = field(default_factory=list)
    length: int = 0
    """The derived text's length."""

    def keep(self, start: int, end: int) -> None:
        """The source's characters [start, end) come next, unchanged."""
        if end <= start:
            return
        if self.identity and self.identity[-1] and self.source_ends[-1] == start:
            self.source_ends[-1] = end
        else:
            self._add(start, end, True)
        self.length += end - start

    def replace(self, start: int, end: int, length: int) -> None:
        """The source's characters [start, end) became `length` characters (0: dropped)."""
        if length:
            self._add(start, end, False)
            self.length += length

    def _add(self, start: int, end: int, identity: bool) -> None:
        self.starts.append(self.length)
        self.source_starts.append(start)
        self.source_ends.append(end)
        self.identity.append(identity)

    def source_start(self, position: int) -> int:
        """Where the derived character at `position` starts in the source."""
        segment = bisect.bisect_right(self.starts, position) - 1
        if self.identity[segment]:
            return self.source_starts[segment] + position - self.starts[segment]
        return self.source_starts[segment]

    def source_end(self, end: int) -> int:
        """Where the derived character before `end` ends in the source."""
        last = end - 1
        segment = bisect.bisect_right(self.starts, last) - 1
        if self.identity[segment]:
            return self.source_starts[segment] + end - self.starts[segment]
        return self.source_ends[segment]


@dataclass(slots=True)
class Rewrite:
    """A source text rewritten range by range, left to right, and the map back to it."""

    source: str
    offsets: OffsetMap = field(default_factory=OffsetMap)
    _pieces: list[str] = field(default_factory=list)
    _copied: int = 0
    """The source is copied unchanged up to here."""

    def replace(self, start: int, end: int, text: str) -> None:
        """source[start:end] reads as `text` ("": dropped); ranges come in order, apart."""
        self._pieces += (self.source[self._copied : start], text)
        self.offsets.keep(self._copied, start)
        self.offsets.replace(start, end, len(text))
        self._copied = end

    def finish(self) -> tuple[str, OffsetMap] | None:
        """The rewritten text and its map; None when nothing was replaced."""
        if not self._pieces:
            return None
        self._pieces.append(self.source[self._copied :])
        self.offsets.keep(self._copied, len(self.source))
        return "".join(self._pieces), self.offsets


@dataclass(frozen=True, slots=True)
class Normalised:
    """A text as the rules read it, and the way back to the text as written."""

    text: str
    """What the rules read."""
    source: str
    """The text as written."""
    maps: tuple[OffsetMap, ...] = ()
    """The steps from `source` to `text`, first step first (none: `text` is `source`)."""

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The range of `source` that the non-empty range [start, end) of `text` came from:
        from the first character's first source character to the last one's last."""
        for step in reversed(self.maps):
            start, end = step.source_start(start), step.source_end(end)
        return start, end


def normalise(text: str) -> Normalised:
    """`text` as the rules read it (see the module's docstring), with the way back."""
    maps: list[OffsetMap] = []
    read = text
    if not read.isascii() and (folded := _fold_characters(read)) is not None:
        read, step = folded
        maps.append(step)
    if (gaps := _fold_digit_gaps(read)) is not None:
        read, step = gaps
        maps.append(step)
    return Normalised(text=read, source=text, maps=tuple(maps))


def _attaches(char: str) -> bool:
    """Whether `char` joins the cluster before it: a combining mark, or an invisible
    character (which may stand between a letter and its mark: "e<ZWSP><acute>")."""
    return unicodedata.category(char) in _MARKS or _is_invisible(char)


def _is_invisible(char: str) -> bool:
    return char in INVISIBLE or unicodedata.category(char) == "Cf"


@lru_cache(maxsize=8192)
def _fold_cluster(cluster: str) -> str:
    """What one cluster (a character and its combining marks) reads as."""
    kept = "".join(char for char in cluster if not _is_invisible(char))
    out = []
    for char in unicodedata.normalize("NFKC", kept):
        if char.isascii():
            out.append(char)
        elif char.isspace():
            out.append(" ")
        elif char in _EXTRA_DASHES or unicodedata.category(char) == "Pd":
            out.append("-")
        elif not _is_invisible(char):
            out.append(char)
    return "".join(out)


def _fold_characters(text: str) -> tuple[str, OffsetMap] | None:
    """Steps 1–3 on a text that holds non-ASCII characters; None when nothing changes."""
    rewrite = Rewrite(text)
    for run in _NON_ASCII.finditer(text):
        start, end = run.span()
        if start > 0 and _attaches(text[start]):
            start -= 1  # a combining mark belongs to the ASCII letter before it
        position = start
        while position < end:
            after = position + 1
            while after < end and _attaches(text[after]):
                after += 1
            cluster = text[position:after]
            read = _fold_cluster(cluster)
            if read != cluster:
                rewrite.replace(position, after, read)
            position = after
    return rewrite.finish()


def _fold_digit_gaps(text: str) -> tuple[str, OffsetMap] | None:
    """Step 4; None when the text has no gap to fold."""
    if not any(space in text for space in _CONTROL_SPACES):
        return None  # a few `in` scans: several times cheaper than the regex's search
    gap = _DIGIT_GAP.search(text)
    if gap is None:
        return None
    rewrite = Rewrite(text)
    while gap is not None:
        start, end = gap.span(1)
        rewrite.replace(start, end, " ")
        gap = _DIGIT_GAP.search(text, end)
    return rewrite.finish()
