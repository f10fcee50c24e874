"""Hunspell's affix rules expanded into word forms, on small hand-made dictionaries, and the
committed artefact against its manifest and the installed Debian dictionaries."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from redacto.host.resources import SOURCE_ROOT
from redacto.lexicon.build import SOURCES, build, check, encode, normalised_forms
from redacto.lexicon.dictionary import manifest
from redacto.lexicon.expand import expand

LEXICON = SOURCE_ROOT / "lexicon"


def _forms(tmp_path: Path, aff: str, dic: list[str]) -> set[str]:
    (tmp_path / "t.aff").write_text(aff, encoding="utf-8")
    (tmp_path / "t.dic").write_text(f"{len(dic)}\n" + "\n".join(dic) + "\n", encoding="utf-8")
    return set(expand(tmp_path / "t.dic", tmp_path / "t.aff"))


ENGLISH_AFF = """SET UTF-8
SFX S Y 2
SFX S 0 s [^y]
SFX S y ies [^aeiou]y
PFX U Y 1
PFX U 0 un .
SFX D Y 1
SFX D 0 ed/S .
"""


def test_suffixes_prefixes_and_their_cross_product(tmp_path):
    forms = _forms(tmp_path, ENGLISH_AFF, ["city/S", "lock/SU", "Wiik"])
    assert forms == {"city", "cities", "lock", "locks", "unlock", "unlocks", "Wiik"}


def test_a_suffixs_continuation_flags_allow_a_second_suffix(tmp_path):
    assert _forms(tmp_path, ENGLISH_AFF, ["walk/D"]) == {"walk", "walked", "walkeds"}


FRENCH_AFF = """SET UTF-8
FLAG long
NEEDAFFIX ()
PFX L' Y 2
PFX L' 0 l' [aeiouh]
PFX L' a l'A a
SFX S. Y 2
SFX S. 0 0/L' [^sxz]
SFX S. 0 s [^sxz]
"""


def test_long_flags_needaffix_and_elision(tmp_path):
    forms = _forms(tmp_path, FRENCH_AFF, ["homme/S.()", "Allemagne/S.()", "chat/S."])
    # The stems need an affix; the empty suffix gives them back. Elisions are written as
    # their particle only (`l'homme` is read as `l'` + `homme`).
    assert forms == {"homme", "hommes", "Allemagne", "Allemagnes", "chat", "chats", "l'"}


def test_the_artefact_normalises_its_forms():
    assert normalised_forms(["l'", "etc.", "1er", "aujourd’hui", "Cafe\u0301", "dog"]) == [
        "Café",
        "aujourd'hui",
        "dog",
        "etc",
        "l",
    ]


def test_the_same_forms_give_the_same_bytes():
    assert encode(["a", "b"]) == encode(["a", "b"])
    assert gzip.decompress(encode(["a", "b"])) == b"a\nb\n"


def test_every_committed_file_matches_its_pinned_sha256():
    entries = manifest(LEXICON)["languages"]
    assert {entry["language"] for entry in entries} == {source.language for source in SOURCES}
    for entry in entries:
        data = (LEXICON / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        forms = gzip.decompress(data).decode("utf-8").splitlines()
        assert len(forms) == entry["forms"]
        assert forms == sorted(forms)
        assert all(form and not any(c.isdigit() for c in form) for form in forms)
        # Code points above the BMP would make Kotlin's UTF-16 offsets differ.
        assert all(ord(c) <= 0xFFFF for form in forms for c in form)
        assert (LEXICON / entry["licence"]).is_file()
    assert "MPL" in (LEXICON / "LICENSE.fr.txt").read_text(encoding="utf-8")
    assert "SCOWL" in (LEXICON / "LICENSE.en.txt").read_text(encoding="utf-8")


def _installed(source) -> bool:
    entry = {e["language"]: e for e in manifest(LEXICON)["languages"]}[source.language]
    dic = Path("/usr/share/hunspell") / f"{source.dictionary}.dic"
    return dic.is_file() and hashlib.sha256(dic.read_bytes()).hexdigest() == entry["dic_sha256"]


@pytest.mark.skipif(
    not all(_installed(source) for source in SOURCES),
    reason="the installed Hunspell dictionaries are not the ones lexicon/ was built from",
)
@pytest.mark.slow
def test_a_rebuild_from_the_installed_dictionaries_gives_the_committed_files():
    results = check(LEXICON)
    assert all(result.ok and result.judged for result in results), results


def test_check_fails_on_a_changed_file_and_does_not_judge_another_dictionary(tmp_path):
    folder = tmp_path / "lexicon"
    shutil.copytree(LEXICON, folder)
    (folder / "en.words.gz").write_bytes(encode(["changed"]))
    hunspell = tmp_path / "hunspell"
    hunspell.mkdir()
    for source in SOURCES:
        (hunspell / f"{source.dictionary}.dic").write_text("1\nother\n", encoding="utf-8")
        (hunspell / f"{source.dictionary}.aff").write_text("SET UTF-8\n", encoding="utf-8")
    results = {result.language: result for result in check(folder, hunspell)}
    assert not results["en"].ok and results["en"].judged
    assert results["fr"].ok and not results["fr"].judged
    assert "differs" in results["fr"].message


def test_build_writes_files_licences_and_manifest(tmp_path):
    hunspell = tmp_path / "hunspell"
    hunspell.mkdir()
    for source in SOURCES:
        (hunspell / f"{source.dictionary}.dic").write_text("2\nWiik\ncat\n", encoding="utf-8")
        (hunspell / f"{source.dictionary}.aff").write_text("SET UTF-8\n", encoding="utf-8")
    entries = build(tmp_path / "out", hunspell)
    written = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert [e["forms"] for e in written["languages"]] == [2, 2] == [e.forms for e in entries]
    assert gzip.decompress((tmp_path / "out" / "en.words.gz").read_bytes()) == b"Wiik\ncat\n"


@pytest.mark.skipif(
    shutil.which("hunspell") is None or not all(_installed(source) for source in SOURCES),
    reason="needs the hunspell program and the dictionaries lexicon/ was built from",
)
@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=lambda source: source.language)
def test_hunspell_accepts_every_form_written(source):
    """The expansion is checked against Hunspell itself (`hunspell -l` lists the words it
    rejects). Its own tokeniser cuts a few forms apart: a lone elided `ç` (`ç'`) and words
    in letters outside Latin (`Dᴏꜱꜱᴍᴀɴɴ` in small capitals)."""
    import subprocess

    data = (LEXICON / f"{source.language}.words.gz").read_bytes()
    rejected = subprocess.run(
        ["hunspell", "-d", f"/usr/share/hunspell/{source.dictionary}", "-l"],
        input=gzip.decompress(data).decode("utf-8"),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout.split()
    odd = [w for w in rejected if len(w) > 2 and all(ord(c) <= 0x024F for c in w)]
    assert odd == []
