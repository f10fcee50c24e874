"""Engines are chosen by URI scheme through an explicit registry."""

import pytest

from redacto.engines import EngineError, open_engine


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("model.litertlm", "SCHEME:TARGET"),
        ("scripted:", "SCHEME:TARGET"),
        ("nosuch:thing", "unknown engine scheme 'nosuch'"),
    ],
)
def test_bad_uris_are_rejected_with_a_clear_message(uri, message):
    with pytest.raises(EngineError, match=message):
        open_engine(uri)
