"""The generated shared vectors (tests/vectors/{locator,policy,text}): Python passes each
case, and every case of the locator's own tables is among them. The Kotlin core reads the
same files (`LocatorVectorTest`, `PolicyVectorTest`, `PyTextVectorTest`); that the files are
what `devtools/generated/shared_vectors.py` renders now is `python -m devtools.generated
--check`'s to say."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import test_locator
import test_locator_mistakes

from devtools.generated.shared_vectors import SHARED_FIELDS
from redacto.host.resources import SOURCE_ROOT
from redacto.modelfile.manifest import load_manifest
from redacto.modelfile.policy import check_model_file, phone_settings
from redacto.pipeline.locator import MISTAKE_METHODS, LocateMethod, Locator, locate_mistake
from redacto.pipeline.policy import apply_model_settings
from redacto.pipeline.state import PipelineOptions
from redacto.report import PolicyState

VECTORS = SOURCE_ROOT / "tests" / "vectors"


def cases(name: str) -> list[dict[str, Any]]:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))["cases"]


def ids(name: str, key: str) -> list[str]:
    return [f"{i}-{case[key]!r}"[:60] for i, case in enumerate(cases(name))]


@pytest.mark.parametrize(
    "case", cases("locator/locate.json"), ids=ids("locator/locate.json", "name")
)
def test_locate(case: dict[str, Any]) -> None:
    locator = Locator(case["text"])
    located = locator.locate(case["value"])
    method = None if located is None else located.method.value
    spans = [] if located is None else [[s.start, s.end] for s in located.spans]
    assert (method, spans) == (case["method"], case["spans"])
    assert [case["text"][start:end] for start, end in spans] == case["found"]
    assert locator.near(case["value"]) is case["near"]


@pytest.mark.parametrize(
    "case", cases("locator/mistakes.json"), ids=ids("locator/mistakes.json", "name")
)
def test_locate_mistake(case: dict[str, Any]) -> None:
    locators = [Locator(page) for page in case["pages"]]
    for method, expected in case["candidates"].items():
        found = [
            [position, span.start, span.end]
            for position, locator in enumerate(locators)
            for span in locator.mistake_candidates(
                LocateMethod(method), case["error"].strip(), case["context_before"]
            )
        ]
        assert found == expected, method
    placed = locate_mistake(locators, case["error"], case["context_before"])
    if case["placed"] is None:
        assert placed is None
        return
    assert placed is not None
    position, located = placed
    (span,) = located.spans
    assert located.method.value == case["placed"]["method"]
    assert [position, [span.start, span.end]] == [case["placed"]["page"], case["placed"]["span"]]
    assert case["pages"][position][span.start : span.end] == case["placed"]["found"]


def wire(settings: Any) -> dict[str, Any]:
    return {
        name: getattr(getattr(settings, name), "value", getattr(settings, name))
        for name in SHARED_FIELDS
    }


@pytest.mark.parametrize("case", cases("policy/files.json"), ids=ids("policy/files.json", "file"))
def test_policy_of_a_file(case: dict[str, Any]) -> None:
    check = check_model_file(VECTORS / "policy" / "files" / case["file"])
    assert check.sha256 == case["sha256"]
    assert check.state is PolicyState[case["state"].upper()]
    assert (check.policy.manifest if check.policy else None) == case["manifest"]
    assert (check.policy.quant if check.policy else None) == case["quant"]
    assert wire(phone_settings(check.settings)) == case["settings"]


def test_every_policy_state_has_a_file() -> None:
    """Each way a file can fail to carry a policy is among the shared files."""
    states = {case["state"] for case in cases("policy/files.json")}
    expected = {state.name.lower() for state in PolicyState}
    assert states == expected - {"declared", "not_opened"}


@pytest.mark.parametrize(
    "case", cases("policy/options.json"), ids=ids("policy/options.json", "name")
)
def test_options_for_a_manifest(case: dict[str, Any]) -> None:
    options = PipelineOptions(**{k: v for k, v in case["caller"].items() if v is not None})
    assert wire(options) == case["caller"]
    if case["manifest"] is None:
        assert case["settings"] is None
    else:
        settings = phone_settings(load_manifest(case["manifest"]).pipeline)
        # The settings are written out so that Kotlin, which knows no manifests, can apply them.
        assert wire(settings) == case["settings"]
        options = apply_model_settings(options, settings)
    assert wire(options) == case["applied"]


@pytest.mark.parametrize(
    "case", cases("text/characters.json"), ids=ids("text/characters.json", "name")
)
def test_character(case: dict[str, Any]) -> None:
    ch = case["char"]
    assert len(ch) == 1
    predicates = {"isspace", "isalpha", "isalnum", "isdecimal", "isdigit", "isupper"}
    assert {p: getattr(ch, p)() for p in predicates} == {p: case[p] for p in predicates}
    assert [ch.casefold(), ch.lower(), ch.upper()] == [
        case["casefold"],
        case["lower"],
        case["upper"],
    ]


@pytest.mark.parametrize("case", cases("text/strings.json"), ids=ids("text/strings.json", "text"))
def test_string(case: dict[str, Any]) -> None:
    text = case["text"]
    methods = [
        "strip",
        "lstrip",
        "rstrip",
        "split",
        "splitlines",
        "isupper",
        "casefold",
        "lower",
        "upper",
    ]
    assert {m: getattr(text, m)() for m in methods} == {m: case[m] for m in methods}


@pytest.mark.parametrize(
    "case", cases("text/strip_chars.json"), ids=ids("text/strip_chars.json", "text")
)
def test_strip_chars(case: dict[str, Any]) -> None:
    assert case["text"].strip(case["chars"]) == case["strip"]
    assert case["text"].rstrip(case["chars"]) == case["rstrip"]


@pytest.mark.parametrize("case", cases("text/regex.json"), ids=ids("text/regex.json", "pattern"))
def test_regex(case: dict[str, Any]) -> None:
    pattern = re.compile(case["pattern"], re.IGNORECASE if case["ignore_case"] else 0)
    found = [
        {"span": [m.start(), m.end()], "groups": list(m.groups())}
        for m in pattern.finditer(case["text"])
    ]
    assert found == case["matches"]


def test_every_case_of_the_locator_tables_is_a_vector() -> None:
    located = {(case["text"], case["value"]) for case in cases("locator/locate.json")}
    note = test_locator.NOTE
    table = [(note, value) for value, _, _ in test_locator.LEVELS]
    table += [(note, value) for value in test_locator.NOT_LOCATED]
    table += [(text, value) for text, value, _ in (*test_locator.NEAR, *test_locator.O_AS_ZERO)]
    assert set(table) <= located, set(table) - located
    mistakes = {(case["error"], case["context_before"]) for case in cases("locator/mistakes.json")}
    placed = [(error, context) for error, context, _, _ in test_locator_mistakes.PLACED]
    assert {*placed, *test_locator_mistakes.UNPLACED} <= mistakes


def test_the_vectors_reach_every_level_and_strategy() -> None:
    strategies = {method.value for method in MISTAKE_METHODS}
    levels = {case["method"] for case in cases("locator/locate.json")}
    assert levels == {method.value for method in LocateMethod} - strategies | {None}
    placed = {(case["placed"] or {}).get("method") for case in cases("locator/mistakes.json")}
    assert placed == strategies | {None}
