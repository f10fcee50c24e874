"""The outside-styled suite: the outside dev set re-typed in three chat styles, test only."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from redacto.corpus import (
    RECIPES,
    TEST_ONLY_SUITES,
    CorpusDocument,
    GoldSpan,
    PreserveSpan,
    build_suite,
    load_manifest,
    load_suite,
    refuse_test_only,
)
from redacto.corpus.styled import (
    SENTENCE_PUNCTUATION,
    STYLES,
    generate_styled_suite,
    lower,
    restyle,
)
from redacto.corpus.suites import document_line
from redacto.document import Category
from redacto.tuning.recipe import tune_model

NAME = "outside-styled"


@pytest.fixture(scope="module")
def styled() -> list[CorpusDocument]:
    return load_suite(NAME)


@pytest.fixture(scope="module")
def dev_set() -> list[CorpusDocument]:
    return [d for d in load_suite("outside") if d.split == "test"]


def _style(document: CorpusDocument) -> str:
    return document.template.rsplit(":", 1)[-1]


def _retyped(text: str, style: str, label: str | None) -> str:
    if style in ("chat_lower", "chat_bare") or (style == "names_lower" and label == "NAME"):
        return lower(text)
    return text


def _shas(documents: list[CorpusDocument]) -> list[str]:
    return [hashlib.sha256(document_line(d).encode()).hexdigest() for d in documents]


@pytest.mark.slow
def test_same_seed_same_documents(styled, dev_set) -> None:
    again = generate_styled_suite(NAME, RECIPES[NAME].seed or 0, dev_set)
    assert _shas(again) == _shas(styled)
    assert _shas(styled) == [d.sha256 for d in load_manifest(NAME).documents]
    assert _shas(build_suite(NAME)) == _shas(styled)
    other = generate_styled_suite(NAME, (RECIPES[NAME].seed or 0) + 1, dev_set)
    assert [_style(d) for d in other] != [_style(d) for d in styled]


def test_it_is_the_dev_set_in_three_balanced_styles(styled, dev_set) -> None:
    assert len(styled) == len(dev_set) == 120
    assert {d.split for d in styled} == {"test"}
    assert Counter(_style(d) for d in styled) == dict.fromkeys(STYLES, 40)
    for document, source in zip(styled, dev_set, strict=True):
        assert document.id.removeprefix(f"{NAME}-") == source.id.removeprefix("outside-")
        assert document.template == f"{source.template}:{_style(document)}"
        assert (document.category, document.document_type) == (
            source.category,
            source.document_type,
        )
    assert any(not d.pii for d in styled), "texts with nothing to find stay"


def test_every_span_is_its_source_span_retyped(styled, dev_set) -> None:
    for document, source in zip(styled, dev_set, strict=True):
        style = _style(document)
        assert [s.label for s in document.pii] == [s.label for s in source.pii]
        assert [s.kind for s in document.preserve] == [s.kind for s in source.preserve]
        for new, old in zip(document.pii, source.pii, strict=True):
            expected = _retyped(source.span_text(old), style, old.label)
            assert document.span_text(new) == expected, (document.id, expected)
        for new, old in zip(document.preserve, source.preserve, strict=True):
            expected = _retyped(source.span_text(old), style, None)
            assert document.span_text(new) == expected, (document.id, expected)


def test_only_punctuation_and_spaces_outside_spans_are_dropped(styled, dev_set) -> None:
    dropped: Counter[str] = Counter()
    for document, source in zip(styled, dev_set, strict=True):
        style = _style(document)
        if style != "chat_bare":
            whole = lower(source.text) if style == "chat_lower" else document.text
            assert document.text == whole, document.id
            continue
        # the new text is the lower-cased source with characters taken out, none in a span
        inside = {i for s in (*source.pii, *source.preserve) for i in range(s.start, s.end)}
        old, new, position = source.text, document.text, 0
        for index, char in enumerate(old):
            typed = lower(char)
            if new.startswith(typed, position):
                position += len(typed)
                continue
            assert index not in inside, (document.id, index, char)
            assert char in SENTENCE_PUNCTUATION or char.isspace(), (document.id, char)
            dropped[char] += 1
        assert position == len(new), document.id
    assert dropped["."] >= 20 and dropped[","] >= 10, dropped


def test_names_lower_changes_only_the_names(styled, dev_set) -> None:
    for document, source in zip(styled, dev_set, strict=True):
        if _style(document) != "names_lower":
            continue
        names = {i for s in source.pii if s.label == "NAME" for i in range(s.start, s.end)}
        expected = "".join(lower(c) if i in names else c for i, c in enumerate(source.text))
        assert document.text == expected, document.id


def test_values_with_punctuation_keep_it() -> None:
    text = "Hi Bob. Mail bob.smith@x.co.uk, or call (555) 123-4567! Meet at 7.15 (lobby)."
    spans = []
    for value, label in (
        ("Bob", "NAME"),
        ("bob.smith@x.co.uk", "EMAIL"),
        ("(555) 123-4567", "PHONE"),
    ):
        start = text.index(value)
        spans.append(GoldSpan(start=start, end=start + len(value), label=label))
    source = CorpusDocument(
        id="probe-test-000",
        category=Category.GENERAL,
        document_type="message",
        split="test",
        template="probe",
        text=text,
        pii=tuple(spans),
        preserve=(
            PreserveSpan(start=text.index("7.15"), end=text.index("7.15") + 4, kind="amount"),
        ),
    )
    bare = restyle(source, "chat_bare", "probe-styled-test-000")
    assert bare.text == "hi bob mail bob.smith@x.co.uk or call (555) 123-4567 meet at 7.15 lobby"
    assert [bare.span_text(s) for s in bare.pii] == ["bob", "bob.smith@x.co.uk", "(555) 123-4567"]
    assert bare.template == "probe:chat_bare"
    french = source.model_copy(update={"text": "Tél : 06 12 ? Oui !  ", "pii": (), "preserve": ()})
    assert restyle(french, "chat_bare", "x").text == "tél 06 12 oui"
    assert lower("İstanbul") == "istanbul"
    with pytest.raises(ValueError, match="unknown style"):
        restyle(source, "shouting", "x")


def test_it_is_test_only(tmp_path: Path) -> None:
    assert NAME in TEST_ONLY_SUITES
    with pytest.raises(ValueError, match="test-only"):
        refuse_test_only(NAME, "training")
    refuse_test_only("outside", "training")
    with pytest.raises(ValueError, match="test-only"):
        tune_model("redacto-270m", tmp_path / "run", suite=NAME, split="test")
    assert not (tmp_path / "run").exists()
