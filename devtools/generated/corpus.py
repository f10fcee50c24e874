"""The committed evaluation suites and the bundled sample photo, and the suites' photos.

    python -m devtools.generated --write corpus   # rewrite eval/suites/* and examples/sample-*
    python -m devtools.generated.corpus smoke     # render a suite's photos into .cache/corpus

The suites are made by rule from seeded generators (`redacto.corpus`), so they are rendered
and compared like any generated file; the photos a run renders from them are a cache, never
committed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from redacto.corpus import RECIPES, RENDER_CACHE_DIR, load_suite, regenerate_suites, render_page
from redacto.corpus.sample import write_sample

ROOT = Path(__file__).resolve().parents[2]
SUITES_DIR = ROOT / "eval" / "suites"
EXAMPLES_DIR = ROOT / "examples"


def _files(folder: Path, relative_to: Path) -> dict[str, bytes]:
    prefix = relative_to.relative_to(ROOT).as_posix()
    return {f"{prefix}/{path.name}": path.read_bytes() for path in sorted(folder.iterdir())}


def outputs() -> dict[str, bytes]:
    """Every suite's JSONL and manifest, and the sample's photo, gold and elements files
    (relative to the repository root), written afresh in a scratch folder."""
    with tempfile.TemporaryDirectory() as scratch:
        suites, examples = Path(scratch) / "suites", Path(scratch) / "examples"
        regenerate_suites(list(RECIPES), suites)
        write_sample(examples)
        return _files(suites, SUITES_DIR) | _files(examples, EXAMPLES_DIR)


def main() -> int:
    """Render the named suites' photos (all by default) into the render cache."""
    parser = argparse.ArgumentParser(description="Render suites' photos into .cache/corpus.")
    parser.add_argument(
        "suites", nargs="*", help=f"suites to render (default: {', '.join(RECIPES)})"
    )
    for name in parser.parse_args().suites or list(RECIPES):
        documents = load_suite(name)
        started = time.perf_counter()
        for document in documents:
            render_page(document, RENDER_CACHE_DIR)
        seconds = time.perf_counter() - started
        print(f"{name}: {len(documents)} pages in {seconds:.1f} s -> {RENDER_CACHE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
