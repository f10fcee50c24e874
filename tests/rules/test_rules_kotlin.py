"""`RuleFiles.kt`: the rule files compiled into the Kotlin core, value for value (that the
committed file is current is `python -m devtools.generated --check`'s to say)."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from redacto.cli import app
from redacto.host.resources import SOURCE_ROOT
from redacto.rules.catalog import CATEGORIES_FILE, RECOGNIZERS_FILE
from redacto.rules.kotlin import KOTLIN_RELATIVE_PATH, kotlin_value, render_kotlin

COMMITTED = SOURCE_ROOT / KOTLIN_RELATIVE_PATH


def test_check_fails_on_a_stale_file_and_names_the_command(tmp_path):
    stale = tmp_path / "RuleFiles.kt"
    stale.write_text(render_kotlin().replace('"EMAIL"', '"MAIL"'), encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "kotlin", "--check", "--out", str(stale)])
    assert result.exit_code == 1
    assert "redacto rules kotlin" in result.stderr


@pytest.mark.parametrize(
    ("value", "kotlin"),
    [
        (None, "null"),
        (True, "true"),
        (3, "3L"),
        ("a$\\b", '"a\\$\\\\b"'),
        ([], "emptyList<Any?>()"),
        ({}, "emptyMap<String, Any?>()"),
        (["x"], 'listOf(\n    "x",\n)'),
        ({"k": 1}, 'mapOf(\n    "k" to 1L,\n)'),
    ],
)
def test_yaml_values_become_kotlin_expressions(value, kotlin):
    assert kotlin_value(value, "") == kotlin


@pytest.mark.parametrize("value", [1.5, {1: "x"}])
def test_values_the_rule_files_do_not_use_are_refused(value):
    with pytest.raises(ValueError):
        kotlin_value(value, "")


def test_every_rule_file_value_is_in_the_kotlin_file():
    text = COMMITTED.read_text(encoding="utf-8")
    for path in (RECOGNIZERS_FILE, CATEGORIES_FILE):
        names = yaml.safe_load(path.read_text(encoding="utf-8"))
        top = next(iter(names.values()))
        for name in top:
            assert f'"{name}" to mapOf(' in text, name
