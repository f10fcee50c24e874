"""`redacto model …` is a thin layer: each command shows what the Python API returns."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import redacto.cli.model  # noqa: F401 - registers `model` on the app
from redacto.cli._app import app
from redacto.models import ModelError, verify_model

runner = CliRunner()


@pytest.mark.slow
def test_list_path_build_and_verify_on_the_tiny_model(tiny_model_path):
    listed = runner.invoke(app, ["model", "list"])
    assert listed.exit_code == 0
    assert "tiny" in listed.output and "gemma-4-e2b" in listed.output

    path = runner.invoke(app, ["model", "path", "tiny"])
    assert path.exit_code == 0
    assert path.output.strip() == str(tiny_model_path)

    again = runner.invoke(app, ["model", "build", "tiny"])
    assert again.exit_code == 0
    assert "up to date" in again.output

    verified = runner.invoke(app, ["model", "verify", "tiny"])
    assert verified.exit_code == 0
    assert "TTFT" in verified.output and "decode" in verified.output


def test_path_of_an_unbuilt_model_prints_the_build_command(tmp_path, monkeypatch):
    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path))
    result = runner.invoke(app, ["model", "path", "gemma-3-270m@int4"])
    assert result.exit_code == 1
    assert "redacto model build gemma-3-270m --quant int4" in result.output


def test_every_model_command_has_help():
    for command in ("list", "build", "verify", "path"):
        result = runner.invoke(app, ["model", command, "--help"])
        assert result.exit_code == 0
        assert len(result.output.strip()) > 40


NOT_MODELS = {
    "empty": b"",
    "random bytes": random.Random(53).randbytes(4096),
    "the magic, then random bytes": b"LITERTLM" + random.Random(6).randbytes(4096),
}


def assert_refused(path: Path, *flags: str) -> None:
    result = runner.invoke(app, ["model", "verify", str(path), *flags])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert f"{path.name} is not a readable model file" in " ".join(result.output.split())


@pytest.mark.parametrize("flags", [(), ("--no-smoke",)], ids=["smoke", "no-smoke"])
@pytest.mark.parametrize("kind", sorted(NOT_MODELS))
def test_verify_exits_1_on_a_file_it_cannot_read(tmp_path, kind, flags):
    path = tmp_path / "model.litertlm"
    path.write_bytes(NOT_MODELS[kind])
    assert_refused(path, *flags)


@pytest.mark.slow  # needs the tiny model
@pytest.mark.parametrize("flags", [(), ("--no-smoke",)], ids=["smoke", "no-smoke"])
@pytest.mark.parametrize("keep", [0.5, 0.99], ids=["half", "all-but-1%"])
def test_verify_exits_1_on_a_truncated_model(tmp_path, tiny_model_path, keep, flags):
    whole = tiny_model_path.read_bytes()
    path = tmp_path / "truncated.litertlm"
    path.write_bytes(whole[: int(len(whole) * keep)])
    assert_refused(path, *flags)


def test_the_api_refuses_a_file_it_cannot_read_before_litert_lm_opens_it(tmp_path):
    path = tmp_path / "empty.litertlm"
    path.touch()
    with pytest.raises(ModelError, match="not a readable model file"):
        verify_model(str(path))


VECTORS = Path(__file__).parents[1] / "vectors" / "policy"


@pytest.mark.parametrize(
    "case",
    json.loads((VECTORS / "files.json").read_text(encoding="utf-8"))["cases"],
    ids=lambda case: case["file"],
)
def test_verify_exits_1_exactly_on_the_policy_vectors_it_cannot_read(case):
    result = runner.invoke(
        app, ["model", "verify", str(VECTORS / "files" / case["file"]), "--no-smoke"]
    )
    assert isinstance(result.exception, SystemExit) or result.exception is None, result.exception
    assert result.exit_code == (1 if case["state"] == "unreadable" else 0), result.output
