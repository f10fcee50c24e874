"""Time the NER tier: model load, per short text, per page.

    python -m devtools.bench.ner [--repeats 3] [--threads 1]

Loads Rampart in a fresh session (file checks included) and times `find_ner_detections` on
every text of the outside suite's test split (short messages and forms) and on every page
of the main suite's test split (forms and letters of 40–250 words, a phone page), in text
mode. Prints the median and 95th percentile CPU and wall milliseconds, and the load time.
CPU time is the steadier figure on a shared machine; wall time is printed beside it. No
budget is asserted: the figures go to docs/ner.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

from devtools.bench.harness import bench_parser, main_or_compare, spread
from redacto.corpus.suites import load_suite
from redacto.document import Category, Document
from redacto.ner import ner_session
from redacto.ner.runtime import NerSession
from redacto.prompts import PromptLibrary


def _time(session: NerSession, texts: Sequence[str], repeats: int) -> tuple[list[float], ...]:
    from redacto.ner import find_ner_spans

    allowed = PromptLibrary.load().category_labels(Category.GENERAL)
    cpu, wall = [], []
    for _ in range(repeats):
        for text in texts:
            started_cpu, started_wall = time.process_time(), time.perf_counter()
            find_ner_spans(text, Category.GENERAL, allowed)
            cpu.append((time.process_time() - started_cpu) * 1000)
            wall.append((time.perf_counter() - started_wall) * 1000)
    return cpu, wall


def _line(name: str, texts: Sequence[str], cpu: list[float], wall: list[float]) -> str:
    tokens = statistics.median(len(text.split()) for text in texts)
    return (
        f"{name}: {len(texts)} texts (median {tokens:.0f} words), "
        f"CPU ms {spread(cpu)}; wall ms {spread(wall)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    return main_or_compare(__spec__.name, args, argv, run, packages=("onnxruntime", "tokenizers"))


def run(args: argparse.Namespace) -> None:

    os.environ["REDACTO_NER_THREADS"] = str(args.threads)
    started = time.perf_counter()
    session = ner_session()  # the process's session, which the timed calls reuse
    load_ms = (time.perf_counter() - started) * 1000
    print(f"load: {load_ms:.0f} ms wall (sha256 checks, tokenizer, ONNX session)")
    suites = (("outside test texts", "outside"), ("main test pages", "main"))
    for name, suite in suites:
        texts = [d.text for d in load_suite(suite) if d.split == "test"]
        Document.from_text(texts[0])  # the texts are documents the pipeline accepts
        cpu, wall = _time(session, texts, args.repeats)
        print(_line(name, texts, cpu, wall))
    print(f"threads: {args.threads} (REDACTO_NER_THREADS for the product)")


if __name__ == "__main__":
    sys.exit(main())
