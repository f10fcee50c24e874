"""Fixtures for the pipeline tests: the real prompt library, loaded once."""

import pytest

from redacto.prompts import PromptLibrary


@pytest.fixture(scope="session")
def prompts() -> PromptLibrary:
    return PromptLibrary.load()
