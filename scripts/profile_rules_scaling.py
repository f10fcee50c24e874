"""How the proxy's detection time grows with the size of one message.

    python scripts/profile_rules_scaling.py [--sizes 0.8,1.6,3.2] [--profile]

For each kind of text (prose with ordinary numbers, the PII message repeated, one long
token without whitespace, a list of numbers under one context word) and each size in MB,
times the rules tier (`RuleTier.find`) and the whole request redaction (rules, vault,
placeholders: `RequestRedactor.redact` on a one-message chat body), and prints a Markdown
table with the time per MB: constant per MB means linear. `--profile` prints the heaviest
functions under cProfile at the largest size. Used for docs/proxy.md (§ One big message).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_proxy import PROSE, WITH_PII  # noqa: E402

from redacto.proxy.detectors import RuleTier  # noqa: E402
from redacto.proxy.payload import RequestRedactor  # noqa: E402
from redacto.proxy.vault import Vault  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="0.8,1.6,3.2", help="sizes in MB, comma-separated")
    parser.add_argument("--profile", action="store_true", help="cProfile the largest size")
    args = parser.parse_args()
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
