"""The proxy's inspection of one request, in-process: `Proxy._redact` (parse, walk, the
rules tier, serialise) on `bench_proxy.py`'s PII-free prose with numbers, a fresh vault
each call — the steadiest way to compare two versions of the code on a shared machine.

    PYTHONPATH=tools python scripts/bench_proxy_inspection.py [--no-rules] [--calls N] [--rounds N]

Prints the mean of `--calls` calls, best of `--rounds` rounds. `--no-rules` puts a detector
that finds nothing where the rules tier was, leaving the cost of everything around it.
Run it from two checkouts (each with its own `PYTHONPATH=tools`) to compare them.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "proxy"))

from bench_proxy import BODIES  # noqa: E402

from redacto.proxy import ProxyConfig, build_proxy  # noqa: E402
from redacto.proxy.detectors import Found  # noqa: E402
from redacto.vault import Vault  # noqa: E402


class _FindsNothing:
    def find(self, text: str) -> list[Found]:
        return []


async def _best(raw: bytes, no_rules: bool, calls: int, rounds: int) -> float:
    proxy = build_proxy(ProxyConfig(upstream="http://127.0.0.1:9"))
    if no_rules:
        proxy.redactor.rules = _FindsNothing()
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(calls):
            await proxy._redact("chat", raw, Vault())
        best = min(best, (time.perf_counter() - started) / calls)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-rules", action="store_true")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    body = BODIES[0]
    raw = body.json()
    micros = asyncio.run(_best(raw, args.no_rules, args.calls, args.rounds))
    tier = "a detector that finds nothing" if args.no_rules else "the rules tier"
    print(f"{body.label} ({len(raw):,} bytes), {tier}: {micros:.1f} µs a request")


if __name__ == "__main__":
    main()
