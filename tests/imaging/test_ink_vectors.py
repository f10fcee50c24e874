"""The burn check's golden vectors (`devtools/generated/ink_vectors.py`, tests/vectors/ink/):
the stored pixels give the stored answer and the cases show each behaviour; Kotlin's
`InkCoverVectorTest` reads the same files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devtools.generated.ink_vectors import VECTORS, stored_image
from redacto.document import Box
from redacto.imaging.ink_cover import cover_ink

FILES = sorted(VECTORS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


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
