"""Fixtures shared by every test folder.

`tiny_model_path` is the real model chain in miniature: a random Gemma 3 network with a
tokenizer trained offline, converted, quantised, packaged and smoke-tested by the same
`build_model` that builds the shipped models. It is built once per session into
`build/models/tiny/` (or `$REDACTO_BUILD_DIR`) and reused while its manifest is unchanged.
`certs` is a CA and a server certificate for TLS upstreams on loopback.
`slow_guard` fails a run in which a test not marked `slow` takes over 2 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tls_certs import Certs, make_certs

pytest_plugins = ["slow_guard"]


@pytest.fixture(scope="session")
def tiny_model_path() -> Path:
    """The built tiny `.litertlm` (about a minute the first time, instant afterwards)."""
    from redacto.models import build_model, model_file

    record = build_model("tiny")
    return model_file(record.name, record.quant)


@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """A CA made for the session, a server certificate it signed for 127.0.0.1, and an
    unrelated CA (`tls_certs`): for upstreams on loopback that speak TLS."""
    return make_certs(tmp_path_factory.mktemp("tls"))
