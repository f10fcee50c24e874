"""Regenerate the committed evaluation suites and the bundled sample photo.

python scripts/make_corpus.py                 # rewrite eval/suites/* and examples/sample-*
python scripts/make_corpus.py --check         # exit 1 if a committed suite is stale
python scripts/make_corpus.py --render smoke  # render a suite's photos into .cache/corpus
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from redacto.corpus import (
    RECIPES,
    RENDER_CACHE_DIR,
    build_suite,
    load_suite,
    regenerate_suites,
    render_page,
)
from redacto.corpus.sample import write_sample

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "suites", nargs="*", help=f"suites to handle (default: {', '.join(RECIPES)})"
    )
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--render", action="store_true", help="render the suites' photos")
    arguments = parser.parse_args()
    names = arguments.suites or list(RECIPES)

    if arguments.check:
        stale = [name for name in names if load_suite(name) != build_suite(name)]
        for name in stale:
            print(f"stale: eval/suites/{name}.jsonl (run python scripts/make_corpus.py {name})")
        return 1 if stale else 0
    if arguments.render:
        for name in names:
            documents = load_suite(name)
            started = time.perf_counter()
            for document in documents:
                render_page(document, RENDER_CACHE_DIR)
            seconds = time.perf_counter() - started
            print(f"{name}: {len(documents)} pages in {seconds:.1f} s -> {RENDER_CACHE_DIR}")
        return 0
    for path in regenerate_suites(names):
        print(f"wrote {path}")
    print(f"wrote {write_sample(EXAMPLES_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
