"""Every golden vector in tests/vectors/pipeline runs through the Python pipeline."""

import pytest
from pipeline_vectors import check_vector, load_vectors, run_vector

VECTORS = load_vectors()


def test_there_are_enough_vectors_to_cover_the_behaviours():
    assert len(VECTORS) >= 25


@pytest.mark.parametrize("vector", VECTORS, ids=[vector.name for vector in VECTORS])
def test_vector(vector, prompts):
    result, engine = run_vector(vector, prompts)
    check_vector(vector, result, engine)
