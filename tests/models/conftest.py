"""The built embedded default, shared by the tests that need it (skipped where not built)."""

from __future__ import annotations

import pytest

from redacto.engines import open_engine
from redacto.models import DEFAULT_MODEL, ModelNotBuiltError, resolve_model


@pytest.fixture(scope="module")
def default_engine():
    try:
        uri = resolve_model(DEFAULT_MODEL)
    except ModelNotBuiltError as error:
        pytest.skip(str(error))
    with open_engine(uri) as engine:
        yield engine
