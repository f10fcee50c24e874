"""Model names resolve to engine URIs; an unbuilt model fails with the command to build it."""

from __future__ import annotations

import pytest

from redacto.models import (
    DEFAULT_MODEL,
    ModelError,
    ModelNotBuiltError,
    UnknownModelError,
    resolve_model,
)


@pytest.fixture
def empty_build_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    "uri",
    ["litertlm:/models/x.litertlm", "scripted:tests/replies.json", "openai:http://localhost:8080"],
)
def test_uris_pass_through(uri):
    assert resolve_model(uri) == uri


@pytest.mark.parametrize(
    ("name", "command"),
    [
        (DEFAULT_MODEL, "`redacto model build redacto-270m`"),
        ("gemma-3-270m", "`redacto model build gemma-3-270m`"),
        ("gemma-3-270m@int4", "`redacto model build gemma-3-270m --quant int4`"),
        ("tiny", "`redacto model build tiny`"),
    ],
)
def test_an_unbuilt_model_names_the_exact_build_command(empty_build_dir, name, command):
    with pytest.raises(ModelNotBuiltError) as raised:
        resolve_model(name)
    assert command in str(raised.value)


def test_unknown_names_and_missing_files_are_errors(empty_build_dir):
    with pytest.raises(UnknownModelError):
        resolve_model("no-such-model")
    with pytest.raises(ModelError, match="no model file"):
        resolve_model(str(empty_build_dir / "absent.litertlm"))


def test_a_litertlm_path_becomes_an_absolute_uri(tmp_path, monkeypatch):
    (tmp_path / "m.litertlm").write_bytes(b"x")
    monkeypatch.chdir(tmp_path)
    assert resolve_model("m.litertlm") == f"litertlm:{tmp_path / 'm.litertlm'}"


def test_a_file_without_its_build_record_is_not_a_finished_build(empty_build_dir):
    from redacto.models import model_file

    path = model_file("tiny", "int8")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"half-written")
    with pytest.raises(ModelNotBuiltError):
        resolve_model("tiny")
