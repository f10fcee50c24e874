"""The burn check's golden vectors (`scripts/ink_vectors.py`, tests/vectors/ink/) say what
`cover_ink` answers now; Kotlin's `InkCoverVectorTest` reads the same files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from redacto.document import Box
from redacto.host.resources import SOURCE_ROOT
from redacto.imaging.ink_cover import cover_ink

sys.path.insert(0, str(SOURCE_ROOT / "scripts"))
from ink_vectors import VECTORS, main, stale_files, stored_image

FILES = sorted(VECTORS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_vectors_are_what_the_python_gives_now() -> None:
    assert stale_files() == [], "stale ink vectors: run `python scripts/ink_vectors.py --write`"
    assert main([]) == 0


def test_a_stale_or_stray_file_is_named(tmp_path: Path) -> None:
    for path in FILES:
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    edited = tmp_path / "faint.json"
    edited.write_text(edited.read_text(encoding="utf-8").replace("6.0", "7.0", 1), encoding="utf-8")
    (tmp_path / "underline.json").unlink()
    (tmp_path / "extra.json").write_text("{}", encoding="utf-8")
    assert stale_files(tmp_path) == [
        "underline.json (missing)",
        "faint.json",
        "extra.json (no such case)",
    ]


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_the_stored_pixels_give_the_stored_answer(path: Path) -> None:
    """What Kotlin checks: the answer follows from the file alone, whatever draws it."""
    vector = load(path)
    boxes = [Box(x0=b[0], y0=b[1], x1=b[2], y1=b[3]) for b in vector["boxes"]]
    covered = cover_ink(stored_image(vector), boxes)
    assert [[b.x0, b.y0, b.x1, b.y1] for b in covered.boxes] == vector["covered"]
    assert [[b.x0, b.y0, b.x1, b.y1] for b in covered.unresolved] == vector["unresolved"]


def test_the_cases_show_each_behaviour() -> None:
    vectors = [load(path) for path in FILES]
    assert any(v["unresolved"] for v in vectors), "a box left unresolved"
    assert any(v["covered"] != v["boxes"] for v in vectors), "a box widened"
    assert {v["image"]["mode"] for v in vectors} == {"L", "RGB"}
    assert all(v["greys"] for v in vectors if v["image"]["mode"] == "RGB")
