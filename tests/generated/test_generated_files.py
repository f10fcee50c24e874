"""The one command for generated files (`python -m devtools.generated`): it names a stale,
missing or left-over file with a hint, writes only what differs, leaves unchecked families to
be named, and the registry covers every generated file the repository commits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.generated import ner_vectors
from devtools.generated.cli import main
from devtools.generated.engine import ROOT, Generated, diff_hint, differences, write
from devtools.generated.registry import REGISTRY


def _family(name: str = "greetings", **options: object) -> Generated:
    return Generated(
        name,
        "a test",
        lambda: {"out/a.txt": "hello\nworld\n", "out/b.bin": b"\x00\x01\x02"},
        **options,
    )


def _written(root: Path) -> None:
    (root / "out").mkdir()
    (root / "out" / "a.txt").write_text("hello\nworld\n", encoding="utf-8")
    (root / "out" / "b.bin").write_bytes(b"\x00\x01\x02")


def test_files_as_rendered_differ_in_nothing(tmp_path: Path) -> None:
    _written(tmp_path)
    assert differences(_family(), tmp_path) == []


def test_a_stale_file_is_named_with_a_diff_and_a_missing_one_as_missing(tmp_path: Path) -> None:
    _written(tmp_path)
    (tmp_path / "out" / "a.txt").write_text("hello\nWorld\n", encoding="utf-8")
    (tmp_path / "out" / "b.bin").unlink()
    found = differences(_family(), tmp_path)
    assert [(d.path, d.problem) for d in found] == [
        ("out/a.txt", "stale"),
        ("out/b.bin", "missing"),
    ]
    assert found[0].hint.splitlines() == ["@@ -2 +2 @@", "-World", "+world"]


def test_a_byte_file_hint_says_where_it_first_differs() -> None:
    assert diff_hint(b"\x00\x01\x07\x08", b"\x00\x01\x02") == (
        "committed 4 bytes, rendered 3 bytes, first difference at byte 2"
    )
    assert diff_hint(b"\x00\x01", b"\x00\x01\x02").endswith("first difference at byte 2")


def test_a_left_over_file_is_stale_and_write_removes_it(tmp_path: Path) -> None:
    _written(tmp_path)
    (tmp_path / "out" / "c.txt").write_text("old case", encoding="utf-8")
    family = _family(strays="out/*")
    assert [(d.path, d.problem) for d in differences(family, tmp_path)] == [
        ("out/c.txt", "left over")
    ]
    assert write(family, tmp_path) == ["out/c.txt (removed)"]
    assert differences(family, tmp_path) == []


def test_write_touches_only_what_differs(tmp_path: Path) -> None:
    _written(tmp_path)
    (tmp_path / "out" / "a.txt").write_text("stale\n", encoding="utf-8")
    assert write(_family(), tmp_path) == ["out/a.txt"]
    assert (tmp_path / "out" / "a.txt").read_text(encoding="utf-8") == "hello\nworld\n"
    assert write(_family(), tmp_path) == []


def test_a_family_with_its_own_comparison_keeps_a_file_it_judges_the_same(
    tmp_path: Path,
) -> None:
    _written(tmp_path)
    (tmp_path / "out" / "a.txt").write_text("HELLO\nWORLD\n", encoding="utf-8")
    family = _family(same=lambda stored, rendered: str(stored).lower() == str(rendered).lower())
    assert differences(family, tmp_path) == []
    assert write(family, tmp_path) == []
    assert (tmp_path / "out" / "a.txt").read_text(encoding="utf-8") == "HELLO\nWORLD\n"


def test_the_command_checks_writes_and_names_what_to_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _written(tmp_path)
    (tmp_path / "out" / "a.txt").write_text("stale\n", encoding="utf-8")
    registry = [_family("greetings"), _family("unchecked", unchecked="not reproducible")]
    assert main(["--check"], registry, tmp_path) == 1
    out, err = capsys.readouterr()
    assert "greetings: STALE" in out and "stale: out/a.txt" in out
    assert "unchecked" not in out, "an unchecked family is compared only when named"
    assert "--write greetings" in err
    assert main(["--write", "greetings"], registry, tmp_path) == 0
    assert main(["--check"], registry, tmp_path) == 0
    with pytest.raises(SystemExit):
        main(["--check", "nonesuch"], registry, tmp_path)


def test_the_registry_names_each_family_once_and_each_file_once() -> None:
    names = [generated.name for generated in REGISTRY]
    assert len(names) == len(set(names))
    assert {"kotlin-prompts", "kotlin-rules", "ner-unicode", "corpus"} <= set(names)


def test_every_file_marked_generated_is_registered() -> None:
    """A committed file that says it is generated is one that the registry renders; the
    Kotlin files are cheap to render, so their paths are compared for real."""
    marked = subprocess.run(
        ["git", "grep", "-l", "^// GENERATED", "--", "android"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert marked, "the generated Kotlin files say so in their first line"
    rendered = set()
    for name in ("kotlin-prompts", "kotlin-rules"):
        rendered |= set(next(g for g in REGISTRY if g.name == name).render())
    from devtools.generated.ner_unicode_tables import OUT

    rendered.add(OUT.relative_to(ROOT).as_posix())
    assert set(marked) <= rendered


def test_ner_vectors_compare_numbers_within_the_tolerance_and_decisions_exactly() -> None:
    stored = json.dumps({"best": [[1, 0.9731]], "readings": [[1, 0.9731, True]]})
    close = json.dumps({"best": [[1, 0.9741]], "readings": [[1, 0.9741, True]]})
    far = json.dumps({"best": [[1, 0.9631]], "readings": [[1, 0.9631, True]]})
    decided = json.dumps({"best": [[2, 0.9731]], "readings": [[1, 0.9731, True]]})
    assert ner_vectors.same(stored, close)
    assert not ner_vectors.same(stored, far)
    assert not ner_vectors.same(stored, decided)


def test_the_command_runs_as_a_module_from_the_root() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "devtools.generated", "--list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert [line.split()[0] for line in listed.splitlines()] == [g.name for g in REGISTRY]
