"""The Kotlin core's packages are layered as the Python package's are (docs/android.md).

`lint-imports` holds the Python layers; Kotlin has no such tool here, so this reads each
`android/core` source file's package and every `dev.redacto.core.<package>` it names (imports
and qualified names alike) and checks that a package uses only packages of lower layers:
no cycle, and the bottom (values, text, the model file's identity) free of the steps above.
"""

from __future__ import annotations

import re
from pathlib import Path

from redacto.host.resources import SOURCE_ROOT

CORE = SOURCE_ROOT / "android" / "core" / "src"
ROOT = ""
"""The root package `dev.redacto.core`: the shared values (`Document.kt`, `Report.kt`)."""

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({ROOT}),
    frozenset({"text", "imaging", "prompts"}),
    frozenset({"modelfile"}),
    frozenset({"engines", "rules"}),
    frozenset({"ner"}),
    frozenset({"lexicon", "ocr"}),
    frozenset({"pipeline"}),
    frozenset({"inputs"}),
    frozenset({"session"}),
)
"""Lowest first. A package may use the packages of the layers below its own, none beside it."""

PACKAGE = re.compile(r"^package dev\.redacto\.core(?:\.(\w+))?\s*$", re.M)
NAMED = re.compile(r"\bdev\.redacto\.core\.([a-z]\w*)\.")


def _layer(package: str) -> int:
    (layer,) = [number for number, names in enumerate(LAYERS) if package in names]
    return layer


def uses(sources: Path = CORE / "main" / "kotlin") -> dict[str, set[str]]:
    """Each package of a source folder, and the other core packages its files name."""
    graph: dict[str, set[str]] = {}
    for path in sorted(sources.rglob("*.kt")):
        text = path.read_text(encoding="utf-8")
        match = PACKAGE.search(text)
        assert match, f"{path} declares no dev.redacto.core package"
        package = match.group(1) or ROOT
        body = PACKAGE.sub("", text)
        graph.setdefault(package, set()).update(set(NAMED.findall(body)) - {package})
    return graph


def test_every_core_package_has_a_layer():
    assert set(uses()) == set().union(*LAYERS)


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{package or '(root)'} -> {used}"
        for package, used_packages in graph.items()
        for used in used_packages
        if _layer(used) >= _layer(package)
    )


def test_a_package_uses_only_the_layers_below_it():
    assert _upward(uses()) == []


def test_the_test_doubles_are_layered_as_what_they_stand_in_for():
    """A double in `src/testFixtures` sits in the package of what it stands in for and uses
    only the layers below it, so `ScriptedEngine` needs no pipeline and a session's doubles
    may use the engine, OCR and NER ones."""
    fixtures = uses(CORE / "testFixtures" / "kotlin")
    assert set(fixtures) <= set().union(*LAYERS)
    assert _upward(fixtures) == []


def test_the_check_sees_imports_and_qualified_names(tmp_path: Path):
    (tmp_path / "Low.kt").write_text(
        "package dev.redacto.core.text\n\nimport dev.redacto.core.pipeline.PageText\n"
        "val x = dev.redacto.core.lexicon.LexiconWords.MASK\n"
    )
    (tmp_path / "Root.kt").write_text(
        "package dev.redacto.core\n\nimport dev.redacto.core.text.PyText\n"
    )
    assert uses(tmp_path) == {"text": {"pipeline", "lexicon"}, ROOT: {"text"}}
