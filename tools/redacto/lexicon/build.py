"""The lexicon artefact: each dictionary's word forms, written once, pinned by sha256.

`redacto lexicon build` expands Debian's Hunspell dictionaries (`expand`) into one file per
language under `lexicon/` at the repository's top level (shipped in the wheel like
`prompts/`, read by the phone from the same files): `<language>.words.gz`, UTF-8, one form a
line, NFC, the typographic apostrophe written `'`, edge punctuation trimmed as the residual
check trims a word (`etc.` is `etc`), forms holding a digit left out (the check reads numbers
itself), no repeats, sorted by code point, gzip with no file name and time 0 so the same
dictionary always gives the same bytes. Case is kept as the dictionary writes it, so a form
known only capitalised (`Marie`, `Paris`) stays marked as a proper noun.

`lexicon/manifest.json` records, per language, the Debian package and version, the sha256
of its `.dic` and `.aff`, the form count and the sha256 of the written file; the reader
refuses a file whose sha256 differs. `--check` rebuilds in memory and compares: it fails on
any difference, and says it cannot judge (exit 0, explained) where the installed dictionary
is not the one the manifest was built from.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

from redacto.lexicon.expand import expand
from redacto.lexicon.words import trim

HUNSPELL_DIR = Path("/usr/share/hunspell")


@dataclass(frozen=True)
class DictionarySource:
    """One Debian dictionary the lexicon is built from."""

    language: str
    dictionary: str
    package: str
    copyright: str


SOURCES = (
    DictionarySource("en", "en_US", "hunspell-en-us", "/usr/share/doc/hunspell-en-us/copyright"),
    DictionarySource(
        "fr", "fr", "hunspell-fr-classical", "/usr/share/doc/hunspell-fr-classical/copyright"
    ),
)
"""The languages the residual check knows, and where their dictionaries come from."""


@dataclass(frozen=True)
class LexiconEntry:
    """The manifest's record of one language's file."""

    language: str
    file: str
    dictionary: str
    package: str
    package_version: str
    dic_sha256: str
    aff_sha256: str
    forms: int
    sha256: str
    licence: str


def normalised_forms(forms: set[str] | list[str]) -> list[str]:
    """The forms as the artefact writes them (see the module's docstring), sorted."""
    kept: set[str] = set()
    for form in forms:
        word = trim(unicodedata.normalize("NFC", form).replace("’", "'"))
        if word and not any(char.isdigit() for char in word):
            kept.add(word)
    return sorted(kept)


def encode(forms: list[str]) -> bytes:
    """One form a line, gzip at level 9 with no name and time 0 (the same bytes every build)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as out:
        out.write(("\n".join(forms) + "\n").encode("utf-8"))
    return buffer.getvalue()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _package_version(package: str) -> str:
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def licence_notice(source: DictionarySource) -> str:
    """The package's copyright file, followed by the licence texts it points to in
    `/usr/share/common-licenses/` (the MPL asks for its text to travel with the files)."""
    notice = Path(source.copyright).read_text(encoding="utf-8")
    parts = [
        f"The {source.dictionary} word list is built from Debian's {source.package}.\n",
        notice,
    ]
    for name in ("MPL-2.0",):
        licence = Path("/usr/share/common-licenses") / name
        if f"common-licenses/{name}" in notice and licence.is_file():
            parts.append(f"\n----- /usr/share/common-licenses/{name} -----\n")
            parts.append(licence.read_text(encoding="utf-8"))
    return "".join(parts)


def build_language(
    source: DictionarySource, hunspell_dir: Path = HUNSPELL_DIR
) -> tuple[LexiconEntry, bytes]:
    """Expand one installed dictionary: its manifest entry and the file's bytes."""
    dic = hunspell_dir / f"{source.dictionary}.dic"
    aff = hunspell_dir / f"{source.dictionary}.aff"
    forms = normalised_forms(set(expand(dic, aff)))
    data = encode(forms)
    entry = LexiconEntry(
        language=source.language,
        file=f"{source.language}.words.gz",
        dictionary=source.dictionary,
        package=source.package,
        package_version=_package_version(source.package),
        dic_sha256=_sha256(dic.read_bytes()),
        aff_sha256=_sha256(aff.read_bytes()),
        forms=len(forms),
        sha256=_sha256(data),
        licence=f"LICENSE.{source.language}.txt",
    )
    return entry, data


@dataclass(frozen=True)
class CheckResult:
    """What `--check` found for one language."""

    language: str
    ok: bool
    judged: bool
    message: str


def build(target: Path, hunspell_dir: Path = HUNSPELL_DIR) -> list[LexiconEntry]:
    """Write every language's file, its licence notice and the manifest under `target`."""
    target.mkdir(parents=True, exist_ok=True)
    entries = []
    for source in SOURCES:
        entry, data = build_language(source, hunspell_dir)
        (target / entry.file).write_bytes(data)
        (target / entry.licence).write_text(licence_notice(source), encoding="utf-8")
        entries.append(entry)
    manifest = {"format": 1, "languages": [asdict(entry) for entry in entries]}
    (target / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return entries


def check(target: Path, hunspell_dir: Path = HUNSPELL_DIR) -> list[CheckResult]:
    """Compare the committed files with a fresh build from the installed dictionaries."""
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    recorded = {entry["language"]: entry for entry in manifest["languages"]}
    results = []
    for source in SOURCES:
        entry = recorded.get(source.language)
        if entry is None:
            results.append(CheckResult(source.language, False, True, "not in the manifest"))
            continue
        committed = target / entry["file"]
        if not committed.is_file() or _sha256(committed.read_bytes()) != entry["sha256"]:
            results.append(
                CheckResult(
                    source.language, False, True, f"{entry['file']} does not match its sha256"
                )
            )
            continue
        dic = hunspell_dir / f"{source.dictionary}.dic"
        aff = hunspell_dir / f"{source.dictionary}.aff"
        if not dic.is_file() or not aff.is_file():
            results.append(
                CheckResult(source.language, True, False, f"{dic} is not installed: not rebuilt")
            )
            continue
        installed = (_sha256(dic.read_bytes()), _sha256(aff.read_bytes()))
        if installed != (entry["dic_sha256"], entry["aff_sha256"]):
            results.append(
                CheckResult(
                    source.language,
                    True,
                    False,
                    f"the installed {source.dictionary} differs from the one built from "
                    f"({entry['package']} {entry['package_version']}): not rebuilt",
                )
            )
            continue
        fresh, _ = build_language(source, hunspell_dir)
        same = fresh.sha256 == entry["sha256"]
        message = "rebuilt identical" if same else "a rebuild gives other bytes"
        results.append(CheckResult(source.language, same, True, message))
    return results
