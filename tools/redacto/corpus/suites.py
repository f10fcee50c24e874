"""Committed suites: `eval/suites/<name>.jsonl` plus `<name>.manifest.json` with checksums.

The JSONL is what a reviewer reads (one document per line: text, labels, spans); the
manifest records how the suite was made and a sha256 per document, and `load_suite` refuses
a file that no longer matches it, so a hand edit cannot silently change the benchmark.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Literal

from redacto.corpus.generate import GENERATOR_VERSION, generate_suite
from redacto.corpus.hard import hard_suite
from redacto.corpus.outside import generate_outside_suite
from redacto.corpus.schema import CorpusDocument
from redacto.corpus.styled import generate_styled_suite
from redacto.document import Frozen
from redacto.host.resources import SOURCE_ROOT

SUITES_DIR = SOURCE_ROOT / "eval" / "suites"
RENDER_CACHE_DIR = SOURCE_ROOT / ".cache" / "corpus"


class SuiteRecipe(Frozen):
    """How a suite is made: generated from a seed (the main corpus's templates, or the
    outside generator's), the hand-written hard set, or another suite's test split re-typed
    (`styled`: the outside suite's test split, the seed choosing each text's style)."""

    name: str
    generator: Literal["corpus", "outside", "hard", "styled"] = "corpus"
    seed: int | None = None
    per_category: int | None = None
    """The corpus generator: documents per category."""
    split_sizes: tuple[int, int] | None = None
    """The outside generator: (train, test) documents."""
    description: str


RECIPES: dict[str, SuiteRecipe] = {
    recipe.name: recipe
    for recipe in (
        SuiteRecipe(
            name="main",
            seed=20261130,
            per_category=40,
            description="40 generated documents per category, split train/test by template",
        ),
        SuiteRecipe(
            name="smoke",
            seed=7,
            per_category=1,
            description="one generated test-split document per category, for quick runs",
        ),
        SuiteRecipe(
            name="hard",
            generator="hard",
            description="hand-written hard cases (see redacto.corpus.hard)",
        ),
        SuiteRecipe(
            name="outside",
            generator="outside",
            seed=20261201,
            split_sizes=(360, 120),
            description=(
                "short international texts from a generator apart from the corpus's "
                "(redacto.corpus.outside); the test split is the outside dev set"
            ),
        ),
        SuiteRecipe(
            name="outside-styled",
            generator="styled",
            seed=20261204,
            description=(
                "the outside dev set (outside's test split) re-typed, one seeded style per "
                "text: all lower case, lower case without punctuation, names in lower case "
                "(redacto.corpus.styled); test only: never trained or tuned on"
            ),
        ),
    )
}

TEST_ONLY_SUITES = frozenset({"outside-styled"})
"""Suites that only ever judge: training data and fitted thresholds never come from them
(`redacto.tuning.tune_model` and `redacto eval validator --dev-suite` refuse them)."""


def refuse_test_only(suite: str, purpose: str) -> None:
    """Raise when `suite` is a test-only suite and would be used for `purpose`."""
    if suite in TEST_ONLY_SUITES:
        raise ValueError(
            f"suite {suite!r} is test-only (eval/README.md): it cannot be used for {purpose}"
        )


class DocumentChecksum(Frozen):
    id: str
    sha256: str


class SuiteManifest(Frozen):
    """What `<name>.manifest.json` holds."""

    suite: str
    recipe: SuiteRecipe
    generator_version: int
    documents: tuple[DocumentChecksum, ...]
    counts: dict[str, int]
    file_sha256: str


class SuiteIntegrityError(ValueError):
    """A committed suite does not match its manifest (edited by hand, or truncated)."""


def document_line(document: CorpusDocument) -> str:
    """The document's canonical JSONL line (what its checksum is taken over)."""
    return document.model_dump_json()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_suite(name: str) -> list[CorpusDocument]:
    """The documents of a known suite, made from its recipe (generated or hand-written)."""
    recipe = RECIPES.get(name)
    if recipe is None:
        raise KeyError(f"unknown suite {name!r}; known: {', '.join(RECIPES)}")
    if recipe.generator == "hard":
        return hard_suite()
    if recipe.seed is None:
        raise ValueError(f"suite {name!r}: a generated suite needs a seed")
    if recipe.generator == "styled":
        source = [d for d in build_suite("outside") if d.split == "test"]
        return generate_styled_suite(name, recipe.seed, source)
    if recipe.generator == "outside":
        if recipe.split_sizes is None:
            raise ValueError(f"suite {name!r}: the outside generator needs split_sizes")
        return generate_outside_suite(name, recipe.seed, *recipe.split_sizes)
    if recipe.per_category is None:
        raise ValueError(f"suite {name!r}: the corpus generator needs per_category")
    return generate_suite(name, recipe.seed, recipe.per_category)


def write_suite(
    name: str,
    documents: list[CorpusDocument],
    suites_dir: Path | None = None,
    recipe: SuiteRecipe | None = None,
) -> Path:
    """Write `<name>.jsonl` and its manifest; returns the JSONL path."""
    directory = suites_dir or SUITES_DIR
    directory.mkdir(parents=True, exist_ok=True)
    ids = [document.id for document in documents]
    if len(set(ids)) != len(ids):
        raise ValueError(f"suite {name!r} has duplicate document ids")
    lines = [document_line(document) for document in documents]
    content = "".join(line + "\n" for line in lines)
    counts = Counter(f"{d.category.value}/{d.split}" for d in documents)
    manifest = SuiteManifest(
        suite=name,
        recipe=recipe or RECIPES.get(name) or SuiteRecipe(name=name, description="ad hoc"),
        generator_version=GENERATOR_VERSION,
        documents=tuple(
            DocumentChecksum(id=d.id, sha256=_sha256(line))
            for d, line in zip(documents, lines, strict=True)
        ),
        counts=dict(sorted(counts.items())),
        file_sha256=_sha256(content),
    )
    path = directory / f"{name}.jsonl"
    path.write_text(content, encoding="utf-8")
    manifest_text = json.dumps(manifest.model_dump(mode="json"), indent=1) + "\n"
    (directory / f"{name}.manifest.json").write_text(manifest_text, encoding="utf-8")
    return path


def load_manifest(name: str, suites_dir: Path | None = None) -> SuiteManifest:
    """A suite's manifest."""
    path = (suites_dir or SUITES_DIR) / f"{name}.manifest.json"
    if not path.exists():
        raise FileNotFoundError(f"no manifest for suite {name!r} at {path}")
    return SuiteManifest.model_validate_json(path.read_text(encoding="utf-8"))


def load_suite(name: str, suites_dir: Path | None = None) -> list[CorpusDocument]:
    """A committed suite's documents, verified line by line against its manifest."""
    path = (suites_dir or SUITES_DIR) / f"{name}.jsonl"
    if not path.exists():
        known = sorted(p.stem for p in (suites_dir or SUITES_DIR).glob("*.jsonl"))
        raise FileNotFoundError(f"no suite {name!r} at {path}; committed suites: {known}")
    manifest = load_manifest(name, suites_dir)
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) != len(manifest.documents):
        raise SuiteIntegrityError(
            f"{path.name} has {len(lines)} documents, its manifest {len(manifest.documents)}"
        )
    documents = []
    for number, (line, expected) in enumerate(zip(lines, manifest.documents, strict=True), 1):
        if _sha256(line) != expected.sha256:
            raise SuiteIntegrityError(
                f"{path.name} line {number} ({expected.id}) does not match its manifest checksum; "
                "regenerate with `python -m devtools.generated --write corpus`"
            )
        documents.append(CorpusDocument.model_validate_json(line))
    return documents


def regenerate_suites(names: list[str] | None = None, suites_dir: Path | None = None) -> list[Path]:
    """Rebuild and write the named suites (all known ones by default)."""
    return [write_suite(name, build_suite(name), suites_dir) for name in names or list(RECIPES)]
