"""`PipelinePrompts.kt`: escaped correctly, equal to what Python renders (that the committed
file is current is `python -m devtools.generated --check`'s to say)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kotlin_program import KOTLINC, run_kotlin_main
from redacto.cli import app
from redacto.document import Category, Mode, Step
from redacto.prompts import PromptLibrary, default_prompts_dir
from redacto.prompts.kotlin import (
    KOTLIN_RELATIVE_PATH,
    StaleKotlinError,
    check_kotlin,
    kotlin_string,
    render_kotlin,
)

REPO = default_prompts_dir().parent
COMMITTED = REPO / KOTLIN_RELATIVE_PATH
LIBRARY = PromptLibrary.load()

_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
_FIELD = re.compile(rf"(\w+) =\s*((?:{_LITERAL})(?:\s*\+\s*{_LITERAL})*|[\w.]+|listOf\([^)]*\))")


def unescape_kotlin(literal: str) -> str:
    """Decode one Kotlin string literal, independently of the encoder under test."""
    assert literal[0] == literal[-1] == '"'
    body = literal[1:-1]
    simple = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", '"': '"', "\\": "\\", "$": "$", "'": "'"}
    out, i = [], 0
    units: list[int] = []
    while i < len(body):
        char = body[i]
        if char == "$":
            raise AssertionError(f"unescaped $ would start a Kotlin template: {literal}")
        if char != "\\":
            out.append(char)
            i += 1
            continue
        code = body[i + 1]
        if code == "u":
            units.append(int(body[i + 2 : i + 6], 16))
            i += 6
            if not body.startswith("\\u", i):
                out.append(b"".join(u.to_bytes(2, "big") for u in units).decode("utf-16-be"))
                units = []
            continue
        out.append(simple[code])
        i += 2
    return "".join(out)


def parse_templates(kotlin: str) -> list[dict[str, str]]:
    """Every `Template(...)` of the generated file as field name → Kotlin source or text."""
    section = kotlin.split("val TEMPLATES", 1)[1]
    templates = []
    for block in section.split("Template(\n")[1:]:
        fields = {}
        for name, value in _FIELD.findall(block):
            if value.startswith('"'):
                value = "".join(unescape_kotlin(part) for part in re.findall(_LITERAL, value))
            fields[name] = value
        templates.append(fields)
    return templates


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("plain", '"plain"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("costs $5 or ${x}", '"costs \\$5 or \\${x}"'),
        ("back\\slash", '"back\\\\slash"'),
        ("line\nbreak\ttab", '"line\\nbreak\\ttab"'),
        ("résumé…", '"r\\u00e9sum\\u00e9\\u2026"'),
        ("😀", '"\\ud83d\\ude00"'),
        ("{{document}}", '"{{document}}"'),
    ],
)
def test_kotlin_string_escapes(text, literal):
    assert kotlin_string(text) == literal
    assert unescape_kotlin(literal) == text


def test_committed_file_is_ascii():
    assert COMMITTED.read_text(encoding="utf-8").isascii()


def test_every_generated_prompt_equals_what_python_renders():
    parsed = parse_templates(COMMITTED.read_text(encoding="utf-8"))
    templates = LIBRARY.templates()
    assert len(parsed) == len(templates)
    for fields, template in zip(parsed, templates, strict=True):
        assert fields["name"] == template.name
        assert fields["version"] == template.version
        assert fields["step"] == f"Step.{template.step.name}"
        assert fields["mode"] == f"Mode.{template.mode.name}"
        category = f"Category.{template.category.name}" if template.category else "null"
        assert fields["category"] == category
        assert fields["outputFormat"] == template.output_format
        assert fields["system"] == template.system
        assert fields["user"] == template.user


def test_labels_and_category_labels_are_generated():
    kotlin = COMMITTED.read_text(encoding="utf-8")
    for label in LIBRARY.labels:
        assert f"Label({kotlin_string(label.name)}, {kotlin_string(label.definition)}" in kotlin
    for category in Category:
        labels = ", ".join(kotlin_string(label) for label in LIBRARY.category_labels(category))
        assert f"Category.{category.name} to listOf({labels})" in kotlin


def test_cli_check_passes_then_fails_on_an_edited_prompt(tmp_path: Path):
    runner = CliRunner()
    result = runner.invoke(app, ["prompts", "kotlin", "--check"])
    assert result.exit_code == 0, result.output
    copy = tmp_path / "prompts"
    shutil.copytree(default_prompts_dir(), copy)
    detect = copy / "medical" / "detect.md"
    detect.write_text(detect.read_text().replace("You find", "You spot"), encoding="utf-8")
    result = runner.invoke(app, ["prompts", "kotlin", "--check", "--prompts", str(copy)])
    assert result.exit_code == 1
    assert "stale" in result.output and "redacto prompts kotlin" in result.output
    with pytest.raises(StaleKotlinError):
        check_kotlin(PromptLibrary.load(copy), COMMITTED)


def test_cli_writes_the_file_and_reports_missing(tmp_path: Path):
    runner = CliRunner()
    out = tmp_path / "PipelinePrompts.kt"
    result = runner.invoke(app, ["prompts", "kotlin", "--check", "--out", str(out)])
    assert result.exit_code == 1 and "missing" in result.output
    assert runner.invoke(app, ["prompts", "kotlin", "--out", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == render_kotlin(LIBRARY)
    result = runner.invoke(app, ["prompts", "kotlin", "--out", str(out)])
    assert "unchanged" in result.output


def test_cli_show_prints_a_rendered_prompt():
    result = CliRunner().invoke(
        app, ["prompts", "show", "detect", "--mode", "image", "--category", "Field Service"]
    )
    assert result.exit_code == 0, result.output
    expected = LIBRARY.prompt(Step.DETECT, Mode.IMAGE, Category.FIELD_SERVICE)
    assert expected.system in result.output and "field_service.detect" in result.output


DUMP_KT = """
import dev.redacto.core.prompts.PipelinePrompts
import java.io.File

fun main(args: Array<String>) {
    val values = mapOf("document" to "A \\$5 {{detections}} \\u00e9", "elements" to "[0] A",
        "detections" to "NAME: A")
    for (t in PipelinePrompts.TEMPLATES) {
        val (system, user) = t.render(values.filterKeys { it in t.variables })
        File(args[0], "${t.name}.${t.mode.wire}.system").writeText(system)
        File(args[0], "${t.name}.${t.mode.wire}.user").writeText(user)
    }
    try {
        PipelinePrompts.template(Step.DETECT, Mode.TEXT, null)
    } catch (e: IllegalArgumentException) {
        File(args[0], "needs-category").writeText(e.message ?: "")
    }
}
"""


@pytest.mark.slow
@pytest.mark.skipif(not KOTLINC.exists(), reason="kotlinc not installed (scripts/setup.sh)")
def test_generated_kotlin_compiles_and_renders_like_python(tmp_path: Path):
    """Compile the committed file with kotlinc and compare its render() with Python's."""
    source_dir = REPO / "android/core/src/main/kotlin/dev/redacto/core"
    out = tmp_path / "dump"
    out.mkdir()
    sources = [source_dir / "Document.kt", COMMITTED]
    run_kotlin_main(sources, "import dev.redacto.core.*\n" + DUMP_KT, [str(out)], tmp_path)
    values = {"document": "A $5 {{detections}} é", "elements": "[0] A", "detections": "NAME: A"}
    for template in LIBRARY.templates():
        runtime = {name: values[name] for name in template.variables}
        system, user = template.render(**runtime)
        key = f"{template.name}.{template.mode.value}"
        assert (out / f"{key}.system").read_text(encoding="utf-8") == system
        assert (out / f"{key}.user").read_text(encoding="utf-8") == user
    assert "needs a category" in (out / "needs-category").read_text(encoding="utf-8")
