"""The Python API's fixtures: the `counted:` model scheme (`redactor_cases.CountedModels`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redactor_cases import TEXT_REPLIES, CountedModels

import redacto.engines


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountedModels]:
    """`counted:` registered for one test, each step answered as `TEXT_REPLIES` says, five
    times over (enough for several runs of the same text)."""
    models = CountedModels({step: answers * 5 for step, answers in TEXT_REPLIES.items()})
    monkeypatch.setitem(redacto.engines._REGISTRY, "counted", models)
    yield models
