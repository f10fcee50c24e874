"""`redacto model …` is a thin layer: each command shows what the Python API returns."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import redacto.cli.model  # noqa: F401 - registers `model` on the app
from redacto.cli._app import app

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
