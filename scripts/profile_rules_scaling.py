"""How the proxy's detection time grows with the size of one message, and what 1 KB costs.

    python scripts/profile_rules_scaling.py [--sizes 0.8,1.6,3.2] [--profile]
    python scripts/profile_rules_scaling.py --per-text [--against REV] [--rounds 5]

For each kind of text (prose with ordinary numbers, the PII message repeated, one long
token without whitespace, a list of numbers under one context word) and each size in MB,
times the rules tier (`RuleTier.find`) and the whole request redaction (rules, vault,
placeholders: `RequestRedactor.redact` on a one-message chat body), and prints a Markdown
table with the time per MB: constant per MB means linear. `--profile` prints the heaviest
functions under cProfile at the largest size. Used for docs/proxy-http.md (§ One big message).

`--per-text` times the rules tier on `scripts/bench_proxy.py`'s three 1 KB texts instead: CPU
µs per call, the minimum over many repeats (on a machine shared with other work the minimum
of the thread's CPU time is what the code costs; wall time and means measure the neighbours).
`--against REV` times the rules tier of git revision REV and of this tree in turn, in fresh
processes, `--rounds` times each, and prints both minimums side by side (docs/journal/proxy.md,
§ The proxy's benchmark runs).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_proxy import PROSE, TEXTS, WITH_PII  # noqa: E402

from redacto.proxy.detectors import RuleTier  # noqa: E402
from redacto.proxy.payload import RequestRedactor  # noqa: E402
from redacto.vault import Vault  # noqa: E402

MB = 1_000_000
KINDS: dict[str, str] = {
    "prose with numbers": PROSE + " ",
    "PII message": WITH_PII.replace("536-22-8741", "536-22-87{n:02}") + " ",
    "one token, digits and O's": "12O4-",
    "numbers listed after 'account'": "Account numbers: " + "44718{n:02}9, " * 40,
}
"""Each is repeated up to the size; `{n}` varies the values so the vault keeps growing."""


def text_of(kind: str, size: int) -> str:
    unit = KINDS[kind]
    pieces: list[str] = []
    length = number = 0
    while length < size:
        piece = unit.replace("{n:02}", f"{number % 100:02}")
        pieces.append(piece)
        length += len(piece)
        number += 1
    return "".join(pieces)[:size]


def seconds(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def redact_request(text: str) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": text}]}
    redactor = RequestRedactor(rules=RuleTier())
    asyncio.run(redactor.redact("chat", body, Vault(max_values=10**9)))


def per_text_micros(repeats: int = 100, calls: int = 20) -> dict[str, float]:
    """CPU µs per `RuleTier.find` call on each 1 KB text: the fastest of `repeats` batches."""
    tier = RuleTier()
    fastest = {}
    for name, text in TEXTS.items():
        tier.find(text)
        best = float("inf")
        for _ in range(repeats):
            started = time.thread_time()
            for _ in range(calls):
                tier.find(text)
            best = min(best, (time.thread_time() - started) / calls)
        fastest[name] = best * 1e6
    return fastest


def compare(revision: str, rounds: int) -> None:
    """Time REV's rules tier and this tree's in turn, each in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "archive",
                revision,
                "pyproject.toml",
                "tools",
                "prompts",
                "models",
            ],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        sides = {revision: str(Path(folder) / "tools"), "this tree": str(ROOT / "tools")}
        best: dict[str, dict[str, float]] = {side: {} for side in sides}
        for _ in range(rounds):
            for side, tools in sides.items():
                env = {**os.environ, "PYTHONPATH": tools}
                out = subprocess.run(
                    [sys.executable, __file__, "--per-text", "--json"],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                for name, micros in json.loads(out).items():
                    best[side][name] = min(best[side].get(name, micros), micros)
    print(f"| 1 KB text | {revision} µs | this tree µs | ratio |")
    print("|---|--:|--:|--:|")
    for name in TEXTS:
        before, after = best[revision][name], best["this tree"][name]
        print(f"| {name} | {before:.0f} | {after:.0f} | {before / after:.2f}× |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="0.8,1.6,3.2", help="sizes in MB, comma-separated")
    parser.add_argument("--profile", action="store_true", help="cProfile the largest size")
    parser.add_argument("--per-text", action="store_true", help="µs per 1 KB text instead")
    parser.add_argument("--against", metavar="REV", help="with --per-text: REV beside this tree")
    parser.add_argument("--rounds", type=int, default=5, help="with --against: runs of each")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.per_text and args.against:
        compare(args.against, args.rounds)
        return
    if args.per_text:
        micros = per_text_micros()
        if args.json:
            print(json.dumps(micros))
        else:
            for name, value in micros.items():
                print(f"{name}: {value:.0f} µs")
        return
    sizes = [int(float(size) * MB) for size in args.sizes.split(",")]
    tier = RuleTier()
    print("| text | MB | rules tier s | rules s/MB | whole request s | request s/MB |")
    print("|---|--:|--:|--:|--:|--:|")
    for kind in KINDS:
        for size in sizes:
            text = text_of(kind, size)
            rules = seconds(lambda text=text: tier.find(text))  # type: ignore[misc]
            whole = seconds(lambda text=text: redact_request(text))  # type: ignore[misc]
            megabytes = size / MB
            print(
                f"| {kind} | {megabytes:.1f} | {rules:.2f} | {rules / megabytes:.2f} "
                f"| {whole:.2f} | {whole / megabytes:.2f} |"
            )
    if args.profile:
        for kind in KINDS:
            text = text_of(kind, sizes[-1])
            profiler = cProfile.Profile()
            profiler.runcall(redact_request, text)
            print(f"\n{kind}, {sizes[-1] / MB:.1f} MB:")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(8)


if __name__ == "__main__":
    main()
