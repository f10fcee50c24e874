"""Bad inputs in a batch: each is an ERROR row with its reason, the others still run, the
originals are left as they were and nothing is written outside `--out`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli_runs import digest, redact

pytestmark = pytest.mark.slow  # the tiny model runs

LETTER = "Dear Mrs. Chen, call 408-555-1234.\n"


def tree(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every entry under `root` (links not followed, `skip` left out): a regular file's
    digest, a link's target, or its kind; never read from a FIFO or a link."""
    found: dict[str, str] = {}
    for folder, names, files in os.walk(root):
        if skip is not None and Path(folder) == skip:
            names.clear()
            continue
        for name in names + files:
            path = Path(folder) / name
            if skip is not None and path == skip:
                continue
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = "-> " + os.readlink(path)
            elif path.is_file():
                found[key] = digest(path)
            else:
                found[key] = "folder" if path.is_dir() else "other"
    return found


def unreadable(path: Path) -> None:
    """A file that cannot be read: mode 000, or, for root (whom modes do not stop), a link
    to /proc/self/mem, a regular file whose first bytes no process can read."""
    if os.geteuid() != 0:
        path.write_text(LETTER, encoding="utf-8")
        path.chmod(0)
    elif Path("/proc/self/mem").exists():
        path.symlink_to("/proc/self/mem")
    else:
        pytest.skip("no way to make an unreadable file as root here")


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    inbox = tmp_path / "inbox"
    (inbox / "sub").mkdir(parents=True)
    (inbox / "fine.txt").write_text(LETTER, encoding="utf-8")
    (inbox / "same.txt").write_text("Mr. Paul Martin, 22 Baker Street.\n", encoding="utf-8")
    (inbox / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage\n")
    (inbox / "empty.png").write_bytes(b"")
    (inbox / "loop.txt").symlink_to("loop.txt")
    (inbox / "nowhere.txt").symlink_to("gone.txt")
    (inbox / "sub" / "up").symlink_to("..")
    os.mkfifo(inbox / "pipe.txt")
    unreadable(inbox / "locked.txt")
    (inbox / ".hidden.txt").write_text(LETTER, encoding="utf-8")
    (inbox / "notes.docx").write_bytes(b"PK\x03\x04")
    other = tmp_path / "other"
    other.mkdir()
    (other / "same.txt").write_text("Ms. Ana Garcia, card 4111 1111 1111 1111.\n", encoding="utf-8")
    return tmp_path


def test_each_bad_input_is_a_row_and_the_rest_run(bad_folder, tiny_model_path):
    before = tree(bad_folder)
    out = bad_folder / "out"
    inbox, other = bad_folder / "inbox", bad_folder / "other"
    result = redact(
        inbox, other / "same.txt", "--model", f"litertlm:{tiny_model_path}", "--out", out
    )
    assert result.exit_code == 1, result.output
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))["rows"]
    by_file = {
        Path(row["file"]).name if "other" not in row["file"] else "other": row for row in rows
    }
    assert by_file["fine.txt"]["status"] in ("PASS", "NEEDS_REVIEW")
    assert (out / "fine.txt" / "report.json").is_file()
    reasons = {name: row["reason"] for name, row in by_file.items() if row["status"] == "ERROR"}
    assert set(reasons) == {
        "same.txt", "other", "corrupt.pdf", "empty.png", "loop.txt", "nowhere.txt", "up",
        "pipe.txt", "locked.txt",
    }  # fmt: skip
    assert "the same output folder" in reasons["same.txt"] and "same output" in reasons["other"]
    assert "loops" in reasons["loop.txt"] and "above it" in reasons["up"]
    assert "to nothing" in reasons["nowhere.txt"]
    assert "not a regular file" in reasons["pipe.txt"]
    assert "cannot read" in reasons["locked.txt"]
    for name in ("same.txt", "corrupt.pdf", "empty.png", "loop.txt", "locked.txt"):
        assert not (out / name).exists(), name
    assert len(rows) == 10  # hidden files and files of no input kind are passed over
    assert "2 in the folders passed over" in result.output
    assert tree(bad_folder, skip=out) == before, "something outside --out changed"


def test_the_output_folder_inside_an_input_folder_is_not_read(tmp_path, tiny_model_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "fine.txt").write_text(LETTER, encoding="utf-8")
    model = f"litertlm:{tiny_model_path}"
    for _ in range(2):  # the second run finds the first one's outputs under inbox/out
        result = redact(inbox, "--model", model, "--out", inbox / "out")
        assert result.exit_code in (0, 10), result.output
        rows = json.loads((inbox / "out" / "summary.json").read_text(encoding="utf-8"))["rows"]
        assert [Path(row["file"]).name for row in rows] == ["fine.txt"]


def test_an_input_folder_as_the_output_folder_is_refused(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "fine.txt").write_text(LETTER, encoding="utf-8")
    before = tree(tmp_path)
    result = redact(inbox, "--out", inbox)
    assert result.exit_code == 2
    assert "output folder is an input folder" in result.output
    assert tree(tmp_path) == before


def test_a_folder_with_no_input_writes_nothing_and_exits_2(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "notes.docx").write_bytes(b"PK\x03\x04")
    result = redact(inbox, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "no input found" in result.output
    assert not (tmp_path / "out").exists()
