"""`ModelSettings.kt`: the manifests' `[pipeline]` tables in the app, never stale, read by
the same file-name rule as Python's `pipeline_settings`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from model_cases import GOOD_TINY
from typer.testing import CliRunner

import redacto.cli.model  # noqa: F401 - registers `model` on the app
from kotlin_program import KOTLINC, run_kotlin_main
from redacto.cli._app import app
from redacto.document import ConstrainedDecoding
from redacto.model_manifest import PipelineSettings
from redacto.models import list_manifests, pipeline_settings
from redacto.models.kotlin import (
    KOTLIN_RELATIVE_PATH,
    StaleModelSettingsError,
    check_kotlin,
    render_kotlin,
)
from redacto.resources import SOURCE_ROOT

COMMITTED = SOURCE_ROOT / KOTLIN_RELATIVE_PATH
runner = CliRunner()

TINY_UNTRUSTED = (
    GOOD_TINY.format(name="tiny")
    + '[pipeline]\ntrust_validator_pass = false\nimage_reading = "text"\nmodel_redact = false\n'
    + 'constrained_decoding = "detect+validate"\n'
)

FILE_NAMES = [
    "redacto-270m-int8.litertlm",
    "redacto-270m-int4.litertlm",
    "/data/user/0/dev.redacto/files/models/redacto-270m-int8.litertlm",
    "gemma-3-270m-int8.litertlm",
    "gemma-4-e2b-int4.litertlm",
    "tiny-int8.litertlm",
    "other.litertlm",
    "my-model.litertlm",
    "redacto-270m.litertlm",
]


def settings_line(settings: PipelineSettings) -> str:
    """`true indexed true off`: a model's settings as the Kotlin dump below prints them."""
    trust, redact = (
        str(flag).lower() for flag in (settings.trust_validator_pass, settings.model_redact)
    )
    constrained = settings.constrained_decoding.value
    return f"{trust} {settings.image_reading.value} {redact} {constrained}"


def test_committed_file_is_current():
    check_kotlin(list_manifests(), COMMITTED)
    assert COMMITTED.read_text(encoding="utf-8").isascii()


def test_the_generated_map_holds_every_manifests_settings():
    entries = re.findall(
        r'^\s+"([^"]+)" to PipelineSettings\(trustValidatorPass = (true|false), '
        r"imageReading = ImageReading\.(\w+), modelRedact = (true|false), "
        r"constrainedDecoding = ConstrainedDecoding\.(\w+)\),$",
        COMMITTED.read_text(),
        re.MULTILINE,
    )
    expected = {m.name: settings_line(m.pipeline) for m in list_manifests()}
    constrained = {setting.name: setting.value for setting in ConstrainedDecoding}
    found = {
        name: f"{trust} {reading.lower()} {redact} {constrained[decoding]}"
        for name, trust, reading, redact, decoding in entries
    }
    assert found == expected
    assert expected["redacto-270m"].startswith("false text false ")


def test_cli_check_passes_then_fails_on_a_stale_file(tmp_path: Path):
    result = runner.invoke(app, ["model", "kotlin", "--check"])
    assert result.exit_code == 0, result.output
    stale = tmp_path / "ModelSettings.kt"
    text = COMMITTED.read_text(encoding="utf-8")
    distrusted = '"redacto-270m" to PipelineSettings(trustValidatorPass = false,'
    assert distrusted in text
    stale.write_text(text.replace(distrusted, distrusted.replace("false", "true")))
    result = runner.invoke(app, ["model", "kotlin", "--check", "--out", str(stale)])
    assert result.exit_code == 1
    assert "stale" in result.output and "redacto model kotlin" in result.output


def test_a_manifest_change_makes_the_committed_file_stale(tmp_path: Path, monkeypatch):
    (tmp_path / "corpus.txt").write_text("some text")
    (tmp_path / "tiny.toml").write_text(TINY_UNTRUSTED)
    monkeypatch.setenv("REDACTO_MODELS_DIR", str(tmp_path))
    result = runner.invoke(app, ["model", "kotlin", "--check"])
    assert result.exit_code == 1 and "stale" in result.output
    with pytest.raises(StaleModelSettingsError):
        check_kotlin(list_manifests(), COMMITTED)
    assert '"tiny" to PipelineSettings(trustValidatorPass = false,' in render_kotlin(
        list_manifests()
    )


def test_cli_writes_the_file_and_reports_missing(tmp_path: Path):
    out = tmp_path / "ModelSettings.kt"
    result = runner.invoke(app, ["model", "kotlin", "--check", "--out", str(out)])
    assert result.exit_code == 1 and "missing" in result.output
    assert runner.invoke(app, ["model", "kotlin", "--out", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == render_kotlin(list_manifests())
    assert "unchanged" in runner.invoke(app, ["model", "kotlin", "--out", str(out)]).output


DUMP_KT = """
import dev.redacto.core.ModelSettings
import java.io.File

fun main(args: Array<String>) {
    val names = File(args[0]).readLines()
    val answers = names.map { name ->
        val settings = ModelSettings.forFile(name)
        "${settings.trustValidatorPass} ${settings.imageReading.wire} ${settings.modelRedact} " +
            settings.constrainedDecoding.wire
    }
    File(args[1]).writeText(answers.joinToString("\\n"))
}
"""


NESTED_NAMES = {"tiny": True, "tiny-big": False, "tiny-big-x": True}
"""Manifest names that prefix one another: the longest name a file's stem starts with wins."""

NESTED_FILES = [
    "tiny-int8.litertlm",
    "tiny-big-int8.litertlm",
    "/sdcard/Download/tiny-big-int4.litertlm",
    "tiny-big-x-int8.litertlm",
    "tiny-bigger-int8.litertlm",
    "tiny.litertlm",
    "other-int8.litertlm",
]


def write_nested_manifests(folder: Path) -> None:
    (folder / "corpus.txt").write_text("some text")
    for name, trusted in NESTED_NAMES.items():
        manifest = TINY_UNTRUSTED.replace('name = "tiny"', f'name = "{name}"')
        if trusted:
            manifest = manifest.replace("trust_validator_pass = false", "")
        (folder / f"{name}.toml").write_text(manifest)


@pytest.mark.slow
@pytest.mark.skipif(not KOTLINC.exists(), reason="kotlinc not installed (scripts/setup.sh)")
@pytest.mark.parametrize("manifests", ["repository", "nested names"])
def test_kotlin_answers_like_python_for_every_file_name(tmp_path: Path, monkeypatch, manifests):
    """Compile the rendered object with kotlinc; its answers equal `pipeline_settings`'."""
    source, names = COMMITTED, FILE_NAMES
    if manifests == "nested names":
        folder = tmp_path / "models"
        folder.mkdir()
        write_nested_manifests(folder)
        monkeypatch.setenv("REDACTO_MODELS_DIR", str(folder))
        source, names = tmp_path / "ModelSettings.kt", NESTED_FILES
        source.write_text(render_kotlin(list_manifests()), encoding="utf-8")
    (tmp_path / "names.txt").write_text("\n".join(names), encoding="utf-8")
    answers = tmp_path / "answers.txt"
    settings = SOURCE_ROOT / "android/core/src/main/kotlin/dev/redacto/core/PipelineSettings.kt"
    run_kotlin_main(
        [source, settings], DUMP_KT, [str(tmp_path / "names.txt"), str(answers)], tmp_path
    )
    kotlin = answers.read_text(encoding="utf-8").splitlines()
    python = [settings_line(pipeline_settings(name)) for name in names]
    assert kotlin == python
    assert any(line.startswith("true") for line in python)
    assert any(line.startswith("false") for line in python)
