"""The rules' YAML: labels from the shared vocabulary, and clear errors for bad edits."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from redacto.document import Category
from redacto.rules import CATEGORY_RULES, RECOGNIZERS, recognizers_for
from redacto.rules.catalog import (
    RulesConfigError,
    load_categories,
    load_label_names,
    load_recognizers,
)


def test_every_label_is_in_the_shared_vocabulary() -> None:
    vocabulary = load_label_names()
    assert {r.label for r in RECOGNIZERS.values()} <= vocabulary


def test_every_category_has_rules_in_priority_order() -> None:
    priority = list(RECOGNIZERS)
    for category in Category:
        names = CATEGORY_RULES[category].recognizers
        assert names, category
        assert list(names) == sorted(names, key=priority.index)
        assert [r.name for r in recognizers_for(category)] == list(names)


def test_what_each_category_preserves() -> None:
    preserving = {c: CATEGORY_RULES[c].preserve for c in Category if CATEGORY_RULES[c].preserve}
    assert set(preserving) == {Category.FINANCIAL, Category.JOURNALISM, Category.TACTICAL}
    assert [(r.recognizer, r.digits is not None) for r in preserving[Category.FINANCIAL]] == [
        ("phone", True)
    ]
    (publication,) = preserving[Category.JOURNALISM]
    assert publication.recognizer == "date" and publication.context is not None
    assert ("run", "date") in publication.context_phrases
    (officer,) = preserving[Category.TACTICAL]
    assert officer.recognizer == "badge_number" and officer.context is not None


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


LABELS = frozenset({"EMAIL", "PHONE"})


PLAIN = {"label": "EMAIL", "description": "d", "patterns": [{"name": "p", "regex": "x"}]}


def recognizer_yaml(**changes: object) -> str:
    entry = {key: value for key, value in {**PLAIN, **changes}.items() if value is not None}
    return yaml.safe_dump({"recognizers": {"a": entry}})


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (recognizer_yaml(label="NOPE"), "NOPE"),
        (recognizer_yaml(validator="nope"), "unknown validator"),
        (recognizer_yaml(patterns=[{"name": "p", "regex": "("}]), "bad regex"),
        (
            recognizer_yaml(patterns=[{"name": "p", "regex": "x", "needs_context": True}]),
            "needs context",
        ),
        (recognizer_yaml(patterns=None, patterns_from="b"), "patterns_from"),
        (recognizer_yaml(colour="red"), "colour"),
        ("recognizers: [a, b]\n", "expected a mapping"),
        ("recognizers: {a: [\n", "invalid YAML"),
    ],
)
def test_bad_recognizer_files_fail_with_a_clear_message(
    tmp_path: Path, yaml_text: str, message: str
) -> None:
    with pytest.raises(RulesConfigError, match=message):
        load_recognizers(write(tmp_path, "r.yaml", yaml_text), labels=LABELS)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(RulesConfigError, match="missing file"):
        load_recognizers(tmp_path / "absent.yaml", labels=LABELS)


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("categories:\n  General: {recognizers: [nope]}\n", "unknown recognizers"),
        ("categories:\n  Sports: {recognizers: [email]}\n", "Sports"),
        ("categories:\n  General: {recognizers: [email]}\n", "categories without rules"),
        (
            "categories:\n  General:\n    recognizers: [email]\n"
            "    preserve: [{recognizer: email, digits: '(', reason: r}]\n",
            "bad preserve regex",
        ),
        (
            "categories:\n  General:\n    recognizers: [email]\n"
            "    preserve: [{recognizer: email, reason: r}]\n",
            "exactly one of",
        ),
        (
            "categories:\n  General:\n    recognizers: [date]\n    preserve: [{recognizer: date,"
            " digits: '1', context: {words: [published]}, reason: r}]\n",
            "exactly one of",
        ),
    ],
)
def test_bad_category_files_fail_with_a_clear_message(
    tmp_path: Path, yaml_text: str, message: str
) -> None:
    recognizers = load_recognizers()
    with pytest.raises(RulesConfigError, match=message):
        load_categories(recognizers, write(tmp_path, "c.yaml", yaml_text))


URL_LISTS = {
    "profile_hosts": ["Example.ORG"],  # compared lower-cased, like the URL's host
    "non_profile_paths": ["about"],
    "personal_segments": ["staff"],
    "personal_query_keys": ["who"],
}


def test_personal_url_judges_by_the_lists_in_the_yaml(tmp_path: Path) -> None:
    text = recognizer_yaml(validator="personal_url", lists=URL_LISTS)
    recognizer = load_recognizers(write(tmp_path, "r.yaml", text), labels=LABELS)["a"]
    validator = recognizer.patterns[0].validator
    assert validator is not None
    for url in ("https://example.org/jane", "x.test/Staff/bob", "https://x.test/page?WHO=1"):
        assert validator(url) == url
    for url in ("https://example.org/about", "https://facebook.com/jane", "x.test/users/bob"):
        assert validator(url) is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"validator": "personal_url"}, "needs `lists:`"),
        (
            {"validator": "personal_url", "lists": {**URL_LISTS, "colours": ["red"]}},
            "colours",
        ),
        (
            {"validator": "personal_url", "lists": {**URL_LISTS, "personal_query_keys": None}},
            "personal_query_keys",
        ),
        (
            {
                "validator": "personal_url",
                "lists": {k: v for k, v in URL_LISTS.items() if k != "non_profile_paths"},
            },
            "non_profile_paths",
        ),
        ({"validator": "personal_url", "lists": {**URL_LISTS, "profile_hosts": [1]}}, "lists"),
        ({"validator": "email", "lists": URL_LISTS}, "none of its validators reads word lists"),
    ],
)
def test_bad_word_lists_fail_with_a_clear_message(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesConfigError, match=message):
        load_recognizers(write(tmp_path, "r.yaml", recognizer_yaml(**changes)), labels=LABELS)
