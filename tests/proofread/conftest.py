"""The fake upstream, started once per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fake_upstream import FakeUpstream


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream.start()
    yield server
    server.stop()
