"""Time the rule safety net on a 300-element OCR page, per category.

    python scripts/bench_rules.py [--elements 300] [--repeats 50]

The page is built from a fixed seed: ordinary words with identifiers spread through it,
many OCR split over several elements, so the numbers are comparable between runs. It
prints the median and 95th percentile CPU time of `find_rule_detections` per category (CPU
time, because on a shared machine wall time measures the neighbours; the wall median is
printed beside it), and fails (exit 1) when a CPU median reaches the budget of 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from redacto.document import Category, Document, Element, Mode
from redacto.rules import find_rule_detections

BUDGET_MS = 50.0
FILLER_TEXT = (
    "the patient was seen today for follow up and reports no new symptoms please call if "
    "questions arise statement balance due payment received thank you account summary "
    "page of total amount interest fee credit limit available"
)
FILLER = FILLER_TEXT.split()
IDENTIFIERS = (
    ("Phone:", "(415)", "555-0100"),
    ("Tel", "415", "555", "0199"),
    ("Email:", "jane.doe@example.com"),
    ("Card", "4111", "1111", "1111", "1111"),
    ("IBAN", "DE89", "3704", "0044", "0532", "0130", "00"),
    ("SSN", "123-45-6789"),
    ("DOB", "03/15/1948"),
    ("seen", "March", "5,", "2024"),
    ("MRN:", "4471829"),
    ("Account", "Number:", "1234", "5678", "9012"),
    ("Routing", "021000021"),
    ("Member", "ID:", "XJH123456789"),
    ("from", "192.168.1.20"),
    ("https://www.linkedin.com/in/jane-doe",),
    ("Call", "1-800-555-0199"),
)


def build_page(size: int, seed: int = 7) -> Document:
    """A page of `size` elements, about one in five belonging to an identifier."""
    rng = random.Random(seed)
    words: list[str] = []
    while len(words) < size:
        if rng.random() < 0.12:
            words.extend(rng.choice(IDENTIFIERS))
        else:
            words.append(rng.choice(FILLER))
    elements = [Element(index=i, text=word) for i, word in enumerate(words[:size])]
    return Document(mode=Mode.IMAGE, elements=tuple(elements))


def time_category(
    document: Document, category: Category, repeats: int
) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each of `repeats` runs (after one warm-up run)."""
    find_rule_detections(document, category)
    wall, cpu = [], []
    for _ in range(repeats):
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        find_rule_detections(document, category)
        cpu.append((time.process_time() - cpu_start) * 1000)
        wall.append((time.perf_counter() - wall_start) * 1000)
    return wall, cpu


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()

    document = build_page(args.elements)
    print(f"rules on {args.elements} elements, {args.repeats} runs per category")
    print(
        f"{'category':<14} {'cpu median':>10} {'cpu p95':>8} {'wall median':>11} {'detections':>11}"
    )
    worst = 0.0
    for category in Category:
        wall, cpu = time_category(document, category, args.repeats)
        count = len(find_rule_detections(document, category))
        print(
            f"{category.value:<14} {statistics.median(cpu):>10.2f} {percentile(cpu, 0.95):>8.2f}"
            f" {statistics.median(wall):>11.2f} {count:>11}"
        )
        worst = max(worst, statistics.median(cpu))
    print(f"worst CPU median {worst:.2f} ms per document (budget {BUDGET_MS:.0f} ms)")
    return 0 if worst < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
