"""The committed suites: integrity, size, label vocabulary, train/test separation."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from redacto.corpus import (
    PRESERVE_KINDS,
    RECIPES,
    CorpusDocument,
    SuiteIntegrityError,
    generate_suite,
    load_manifest,
    load_suite,
    write_suite,
)
from redacto.corpus.hard import CASES
from redacto.document import Category
from redacto.prompts import PromptLibrary

TITLES = {"Mr.", "Ms.", "Mrs.", "Dr."}


@pytest.fixture(scope="module")
def suites() -> dict[str, list[CorpusDocument]]:
    return {name: load_suite(name) for name in RECIPES}


@pytest.fixture(scope="module")
def library() -> PromptLibrary:
    return PromptLibrary.load()


def test_manifest_counts_match(suites) -> None:
    for name, documents in suites.items():
        manifest = load_manifest(name)
        assert [d.id for d in manifest.documents] == [d.id for d in documents]
        assert sum(manifest.counts.values()) == len(documents)


def test_main_suite_size_and_splits(suites) -> None:
    counts = Counter((d.category, d.split) for d in suites["main"])
    for category in Category:
        assert counts[(category, "train")] + counts[(category, "test")] >= 40
        assert counts[(category, "train")] > 0 and counts[(category, "test")] > 0


def test_smoke_has_one_document_per_category(suites) -> None:
    assert sorted(d.category for d in suites["smoke"]) == sorted(Category)


def test_hard_suite_covers_every_case(suites) -> None:
    hard = suites["hard"]
    assert len(hard) >= 20
    assert {d.template for d in hard} == {f"hard.{case.topic}" for case in CASES}
    texts = " ".join(d.text for d in hard)
    for needle in ("daughter Lisa", "blucurrent. mail", "answer PASS", "Orange", "Mars"):
        assert needle in texts
    assert {d.layout for d in hard} >= {"two_column", "form", "table"}
    assert any("\n" in d.span_text(s) for d in hard for s in d.pii), "an ID split over lines"


def test_labels_and_kinds_are_known(suites, library) -> None:
    for documents in suites.values():
        for document in documents:
            allowed = set(library.category_labels(document.category))
            for span in document.pii:
                assert span.label in library.labels, (document.id, span.label)
                assert span.label in allowed, (document.id, span.label, document.category)
            for span in document.preserve:
                assert span.kind in PRESERVE_KINDS, (document.id, span.kind)


def test_documents_fit_a_phone_page(suites) -> None:
    for name, documents in suites.items():
        if name in ("outside", "outside-styled"):
            continue  # short texts, some with nothing to find, by design (their own tests)
        for document in documents:
            words = len(document.text.split())
            assert 40 <= words <= 250, (document.id, words)
            assert document.pii, document.id


def test_train_and_test_share_no_templates_or_names(suites) -> None:
    main = suites["main"]
    templates = {
        split: {d.template for d in main if d.split == split} for split in ("train", "test")
    }
    assert not templates["train"] & templates["test"]

    def name_tokens(split: str) -> set[str]:
        return {
            token.title()
            for d in main
            if d.split == split
            for s in d.pii
            if s.label == "NAME"
            for token in d.span_text(s).split()
            if token not in TITLES
        }

    assert not name_tokens("train") & name_tokens("test")


def test_generation_depends_on_the_seed() -> None:
    first = generate_suite("probe", seed=1, per_category=2)
    assert first == generate_suite("probe", seed=1, per_category=2)
    assert [d.text for d in first] != [d.text for d in generate_suite("probe", 2, 2)]


def test_overlapping_spans_are_refused() -> None:
    with pytest.raises(ValueError, match="overlap"):
        CorpusDocument(
            id="x",
            category=Category.GENERAL,
            document_type="Note",
            split="test",
            template="t",
            text="Jane Smith",
            pii=({"start": 0, "end": 10, "label": "NAME"},),
            preserve=({"start": 5, "end": 10, "kind": "amount"},),
        )


def test_edited_suite_is_refused(tmp_path: Path, suites) -> None:
    write_suite("smoke", suites["smoke"], tmp_path)
    assert load_suite("smoke", tmp_path) == suites["smoke"]
    path = tmp_path / "smoke.jsonl"
    path.write_text(path.read_text().replace("Patient", "Pateint", 1))
    with pytest.raises(SuiteIntegrityError, match="manifest checksum"):
        load_suite("smoke", tmp_path)
    with pytest.raises(FileNotFoundError):
        load_suite("no-such-suite", tmp_path)
