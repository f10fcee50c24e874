"""What a conversation's vault costs a request as it grows: finding known values in 1 KB of
prose, and adding a request's new values one by one (as the proxy does), per vault size.

    python scripts/bench_vault.py [--sizes 0 250 1000 3000 10000] [--rounds 5]

Prints the median milliseconds of `hide_known` on a 1 KB text holding three known values,
and of a request that adds 20 new values, each followed by a lookup (what the proxy's
payload walk does for each text part). `--old-commit REV` runs the same on the vault of an
earlier commit (its `tools/redacto/vault/book.py` loaded beside this one) for comparison.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROSE = (
    "Could you rewrite this note so that it reads more warmly? We met on Tuesday to talk "
    "about the garden project, and everyone agreed the beds by the north wall need more "
    "light. "
)


def old_vault(commit: str) -> Any:
    """The `Vault` class of `commit`'s `vault/book.py`, loaded as its own module."""
    source = subprocess.run(
        ["git", "show", f"{commit}:tools/redacto/vault/book.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader("old_vault_book", loader=None)
    assert spec is not None
    module = ModuleType(spec.name)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    exec(compile(source, "old_vault_book.py", "exec"), module.__dict__)
    return module.Vault


def filled(vault_class: Any, size: int) -> Any:
    vault = vault_class(max_values=size + 1_000)
    for number in range(size):
        vault.placeholder_for("NAME", f"Person{number:05d} Surname{number % 97}")
    return vault


def median_ms(run: Any, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(vault_class: Any, size: int, rounds: int) -> tuple[float, float]:
    vault = filled(vault_class, size)
    known = [f"Person{n:05d} Surname{n % 97}" for n in range(0, max(size, 1), max(size // 3, 1))]
    text = (PROSE * 6)[:1000] + " " + " and ".join(known[:3])
    vault.hide_known(text)  # the lookup as it stands after the vault was filled
    lookup = median_ms(lambda: vault.hide_known(text), rounds)
    counter = iter(range(10**9))

    def request() -> None:
        for _ in range(20):
            vault.placeholder_for("NAME", f"Newcomer {next(counter)}")
            vault.hide_known(text)

    return lookup, median_ms(request, rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 250, 1_000, 3_000, 10_000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--old-commit", default=None, help="also measure this commit's vault")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tools"))
    from redacto.vault import Vault

    variants: list[tuple[str, Any]] = [("now", Vault)]
    if args.old_commit:
        variants.append((args.old_commit[:10], old_vault(args.old_commit)))
    print("vault    values  lookup 1 KB (ms)  request adding 20 values (ms)")
    for name, vault_class in variants:
        for size in args.sizes:
            lookup, request = measure(vault_class, size, args.rounds)
            print(f"{name:<10} {size:>6}  {lookup:>16.3f}  {request:>29.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
