#!/usr/bin/env python3
"""Benchmark the OCR engines: seconds per page, peak memory, word recall and box coverage.

Each engine setting runs in its own child process, so peak RSS belongs to that setting
alone. Pages are synthetic (`redacto.ocr.synthetic`): clean A4 pages at 150 dpi in three
fonts, and phone-like photos (3024 px wide, the sheet framed on a desk, tilted, blurred,
noisy). Recall and coverage are measured against the known words; coverage only on clean
pages, where ink boxes are exact.

    python -m devtools.bench.ocr                      # every setting, 2 clean + 2 photo pages
    python -m devtools.bench.ocr --settings ppocr tesseract --clean 1 --photos 1
    python -m devtools.bench.ocr --json bench.json
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from devtools.bench.harness import ROOT, bench_parser, main_or_compare

if TYPE_CHECKING:
    from redacto.ocr import OcrEngine
    from redacto.ocr.synthetic import RenderedPage

SETTINGS: dict[str, tuple[str, dict[str, int]]] = {
    "ppocr": ("ppocr", {}),
    "ppocr-det1280": ("ppocr", {"det_max_side": 1280}),
    "ppocr-det960": ("ppocr", {"det_max_side": 960}),
    "tesseract": ("tesseract", {}),  # Tesseract is measured with its defaults only
}


@dataclass
class PageResult:
    page: str
    wall_s: float
    cpu_s: float
    words: int
    recall: float
    min_coverage: float | None
    box_to_ink: float
    order_violations: int


def open_setting(name: str) -> OcrEngine:
    engine, overrides = SETTINGS[name]
    if engine == "ppocr":
        from redacto.ocr.ppocr import PpocrEngine, PpocrSettings

        return PpocrEngine(PpocrSettings(**overrides))
    from redacto.ocr.tesseract import TesseractEngine, TesseractSettings

    return TesseractEngine(TesseractSettings())


def pages(clean: int, photos: int) -> Iterator[tuple[str, RenderedPage, bool]]:
    """(label, page, whether its ink boxes are exact) for each page to read."""
    from redacto.ocr.synthetic import degrade_like_photo, render_form_page

    for number in range(clean):
        yield f"clean-{number}", render_form_page(seed=100 + number, font_set=number % 3), True
    for number in range(photos):
        page = render_form_page(seed=200 + number, width=3024, font_set=number % 3)
        yield f"photo-{number}", degrade_like_photo(page, seed=number, frame=0.75), False


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def worker(setting: str, clean: int, photos: int) -> dict[str, object]:
    from redacto.ocr.synthetic import score_ocr

    started = time.perf_counter()
    engine = open_setting(setting)
    load_s = time.perf_counter() - started
    results = []
    for label, page, exact in pages(clean, photos):
        wall, cpu = time.perf_counter(), cpu_seconds()
        elements = engine.read(page.image)
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        score = score_ocr(page.words, elements)
        results.append(
            PageResult(
                page=label,
                wall_s=round(wall, 2),
                cpu_s=round(cpu, 2),
                words=score.words,
                recall=round(score.recall, 4),
                min_coverage=round(score.min_coverage, 4) if exact else None,
                box_to_ink=round(score.box_to_ink, 2),
                order_violations=score.order_violations,
            )
        )
    own_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "setting": setting,
        "engine": engine.name,
        "load_s": round(load_s, 2),
        "peak_rss_mb": round(own_kb / 1024),
        "peak_child_rss_mb": round(child_kb / 1024),
        "pages": [asdict(result) for result in results],
    }


def summarize(run: dict[str, object]) -> str:
    results = run["pages"]
    assert isinstance(results, list)
    lines = [f"{run['setting']}: {run['engine']}"]
    lines.append(
        f"  load {run['load_s']} s, peak RSS {run['peak_rss_mb']} MB"
        f" (child process {run['peak_child_rss_mb']} MB)"
    )
    for result in results:
        coverage = result["min_coverage"]
        lines.append(
            f"  {result['page']:8} {result['wall_s']:6.2f} s wall {result['cpu_s']:6.2f} s CPU"
            f"  recall {result['recall']:.3f} ({result['words']} words)"
            f"  min coverage {'-' if coverage is None else f'{coverage:.3f}'}"
            f"  box/ink {result['box_to_ink']:.2f}  order errors {result['order_violations']}"
        )
    count = max(len(results), 1)
    lines.append(
        f"  mean {sum(r['wall_s'] for r in results) / count:.2f} s wall,"
        f" {sum(r['cpu_s'] for r in results) / count:.2f} s CPU per page,"
        f" recall {sum(r['recall'] for r in results) / count:.3f}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--settings", nargs="+", choices=sorted(SETTINGS), default=list(SETTINGS))
    parser.add_argument("--clean", type=int, default=2, help="clean pages per setting")
    parser.add_argument("--photos", type=int, default=2, help="phone-like photos per setting")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    # a --worker child prints one JSON line that its parent reads: nothing after it
    packages = ("rapidocr", "onnxruntime")
    return main_or_compare(
        __spec__.name, args, argv, run, packages=packages, environment=not args.worker
    )


def run(args: argparse.Namespace) -> int:

    if args.worker:
        print(json.dumps(worker(args.worker, args.clean, args.photos)))
        return 0

    runs = []
    for setting in args.settings:
        # One setting at a time: the machine is shared, and parallel runs would skew timings.
        child = subprocess.run(
            [
                sys.executable,
                "-m",
                "devtools.bench.ocr",
                "--worker",
                setting,
                "--clean",
                str(args.clean),
                "--photos",
                str(args.photos),
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
        if child.returncode != 0:
            print(f"{setting}: failed\n{child.stderr[-2000:]}", file=sys.stderr)
            return 1
        run = json.loads(child.stdout.strip().splitlines()[-1])
        runs.append(run)
        print(summarize(run), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(runs, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
