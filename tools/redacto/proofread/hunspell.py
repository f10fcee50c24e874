"""The offline proofreader: a real spelling check with Hunspell, no network at all.

Debian's `hunspell` in its pipe mode (`hunspell -a`, the ispell protocol: each input line
prefixed with `^` so that no line is read as a command) with its dictionaries
(`hunspell-en-us`, `hunspell-fr`). It reads the same placeholder text the LLM would (the
placeholders blanked, so a hidden name is never "misspelt") and reports each word its
dictionary does not know as a `Mistake` with the first suggestion as the correction.
It finds spelling only: a word that exists but is wrong there ("there" for "their",
"a" for "à"), agreement and grammar need an LLM (docs/proofread.md).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from redacto.proofread.mistakes import Mistake
from redacto.vault import PLACEHOLDER

DICTIONARIES = {"en": "en_US", "fr": "fr_FR"}
"""Language code → Hunspell dictionary (Debian's `hunspell-en-us`, `hunspell-fr`)."""
LANGUAGE_NAMES = {"en": "English", "fr": "French"}
DICTIONARY_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"))
CONTEXT_WORDS = 4
"""Words of the line before a misspelt word given as its `context_before`."""
_EDGE = ".,;:!?…\"'’“”«»()[]"
_TIMEOUT_S = 120


class HunspellError(RuntimeError):
    """Hunspell or a dictionary is missing, or the check failed."""


@dataclass(frozen=True)
class SpellCheck:
    """One Hunspell dictionary, run in pipe mode."""

    dictionary: str

    @classmethod
    def for_language(cls, language: str, text: str) -> SpellCheck:
        """The check for `language` (`en`, `fr`), or for `auto` the installed dictionary
        that knows the most words of `text`."""
        _require_hunspell()
        if language != "auto":
            if language not in DICTIONARIES:
                known = ", ".join(sorted(DICTIONARIES))
                raise HunspellError(f"no dictionary for language {language!r}; use {known}")
            check = cls(DICTIONARIES[language])
            check._require_dictionary()
            return check
        installed = [cls(name) for name in DICTIONARIES.values() if cls(name).installed()]
        if not installed:
            raise HunspellError(
                "no Hunspell dictionary is installed (Debian: hunspell-en-us, hunspell-fr)"
            )
        return min(installed, key=lambda check: sum(1 for _ in check.mistakes(text)))

    def installed(self) -> bool:
        return any((folder / f"{self.dictionary}.dic").is_file() for folder in DICTIONARY_DIRS)

    def _require_dictionary(self) -> None:
        if not self.installed():
            raise HunspellError(
                f"the Hunspell dictionary {self.dictionary} is not installed "
                "(Debian: hunspell-en-us, hunspell-fr)"
            )

    def mistakes(self, text: str) -> Iterator[Mistake]:
        """Each word of `text` the dictionary does not know, in reading order."""
        lines = text.split("\n")
        answer = self._run([_blank_placeholders(line) for line in lines])
        for line, results in zip(lines, answer, strict=True):
            for result in results:
                mistake = _mistake(line, result, self.dictionary)
                if mistake is not None:
                    yield mistake

    def _run(self, lines: list[str]) -> list[list[str]]:
        """Hunspell's answer lines for each input line (one group per line)."""
        command = ["hunspell", "-a", "-i", "utf-8", "-d", self.dictionary]
        feed = "".join(f"^{line}\n" for line in lines)
        try:
            done = subprocess.run(
                command, input=feed, capture_output=True, text=True, timeout=_TIMEOUT_S
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise HunspellError(f"hunspell could not run: {type(error).__name__}") from error
        if done.returncode != 0:
            raise HunspellError(f"hunspell failed (exit {done.returncode})")
        groups: list[list[str]] = [[]]
        for answer in done.stdout.split("\n")[1:]:  # the first line is the version banner
            if answer == "":
                groups.append([])
            else:
                groups[-1].append(answer)
        return groups[: len(lines)] + [[] for _ in range(len(lines) - len(groups))]


def _require_hunspell() -> None:
    if shutil.which("hunspell") is None:
        raise HunspellError("hunspell is not installed (Debian: apt-get install hunspell)")


def _blank_placeholders(line: str) -> str:
    """The line with each placeholder replaced by as many spaces (offsets kept)."""
    return PLACEHOLDER.sub(lambda found: " " * len(found.group(0)), line)


_WORD_CHARS = re.compile(r"[^\W\d_]", re.UNICODE)


def _mistake(line: str, result: str, dictionary: str) -> Mistake | None:
    """A Mistake from one `&` (suggestions) or `#` (none) answer line about `line` (its
    placeholders kept in the context: restored, a name beside the word places it), or None
    for a word that is not prose: holding digits, `@` or `/`, in capitals or mixed case (acronyms,
    degrees such as `BSc`, product names)."""
    if result[:1] not in ("&", "#"):
        return None
    head, _, suggestions = result.partition(": ")
    parts = head.split()
    word, offset = parts[1], int(parts[-1]) - 1  # offsets count the `^` prefix
    if line[offset : offset + len(word)] != word:
        return None
    stripped = word.strip(_EDGE)
    if not stripped or not _WORD_CHARS.search(stripped):
        return None
    if any(ch.isdigit() or ch in "@/_" for ch in stripped) or any(
        ch.isupper() for ch in stripped[1:]
    ):
        return None
    start = offset + word.index(stripped)
    options = [s.strip(_EDGE) for s in suggestions.split(", ")] if suggestions else []
    options = [s for s in options if s and s != stripped]
    if result.startswith("&") and options and options[0].casefold() == stripped.casefold():
        return None
    context = " ".join(line[:start].split()[-CONTEXT_WORDS:])
    correction = options[0] if options else ""
    language = dictionary.split("_")[0]
    description = _DESCRIPTIONS.get(language, _DESCRIPTIONS["en"]).format(
        word=stripped, dictionary=dictionary
    )
    return Mistake(
        error_text=stripped, correction=correction, context_before=context, description=description
    )


_DESCRIPTIONS = {
    "en": "Spelling: “{word}” is not in the {dictionary} dictionary.",
    "fr": "Orthographe : « {word} » n’est pas dans le dictionnaire {dictionary}.",
}
