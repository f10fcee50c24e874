"""Hub-sourced models fail fast and say how to get past a missing hub."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from redacto.models import ModelError, build_model
from redacto.models.checkpoint import HubUnreachableError


@pytest.fixture
def no_hub(monkeypatch, tmp_path):
    # A closed local port: unreachable on every machine, with or without network.
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path))


def test_building_the_phone_model_without_the_hub_fails_in_seconds(no_hub):
    started = time.monotonic()
    with pytest.raises(HubUnreachableError) as raised:
        build_model("gemma-4-e2b")
    assert time.monotonic() - started < 60
    message = str(raised.value)
    assert "Hugging Face hub" in message
    assert "--checkpoint DIR" in message
    assert "not reachable" in message


def test_offline_mode_is_named_as_the_reason(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path))
    with pytest.raises(HubUnreachableError, match=r"HF_HUB_OFFLINE.*--checkpoint"):
        build_model("gemma-4-e2b")


def test_a_checkpoint_that_is_not_one_is_refused(no_hub, tmp_path):
    (tmp_path / "ckpt").mkdir()
    with pytest.raises(ModelError, match=r"not a Hugging Face checkpoint: missing \['config.json'"):
        build_model("gemma-4-e2b", checkpoint=tmp_path / "ckpt")


def test_the_cli_prints_the_way_out_and_exits_1(no_hub):
    import redacto.cli.model  # noqa: F401 - registers `model` on the app
    from redacto.cli._app import app

    result = CliRunner().invoke(app, ["model", "build", "gemma-4-e2b"])
    assert result.exit_code == 1
    assert "--checkpoint" in result.output
