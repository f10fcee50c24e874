"""`python -m devtools.generated`: check, write or list the committed generated files.

    python -m devtools.generated --check [NAME...]   # exit 1 naming each stale file
    python -m devtools.generated --write [NAME...]   # rewrite what differs
    python -m devtools.generated --list              # the registry

Without names, `--check` compares every family that can be compared and `--write` writes
those same families; a family marked unchecked (not reproducible byte for byte, or too
slow for every run) is written only when named.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from devtools.generated.engine import ROOT, Generated, differences, write
from devtools.generated.registry import REGISTRY


def _chosen(names: Sequence[str], registry: Sequence[Generated]) -> list[Generated]:
    if not names:
        return [generated for generated in registry if not generated.unchecked]
    known = {generated.name for generated in registry}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise KeyError(f"no generated family {', '.join(unknown)}; known: {', '.join(known)}")
    return [generated for generated in registry if generated.name in names]


def _list(registry: Sequence[Generated]) -> int:
    for generated in registry:
        note = f"  (unchecked: {generated.unchecked})" if generated.unchecked else ""
        print(f"{generated.name:16} from {generated.sources}{note}")
    return 0


def _check(families: list[Generated], root: Path) -> int:
    stale = []
    for generated in families:
        started = time.perf_counter()
        found = differences(generated, root)
        seconds = time.perf_counter() - started
        print(f"{generated.name}: {'STALE' if found else 'ok'} ({seconds:.1f} s)")
        for difference in found:
            print(f"  {difference.problem}: {difference.path}")
            for line in difference.hint.splitlines():
                print(f"    {line}")
        if found:
            stale.append(generated.name)
    if stale:
        print(f"run: python -m devtools.generated --write {' '.join(stale)}", file=sys.stderr)
    return 1 if stale else 0


def main(
    argv: Sequence[str] | None = None,
    registry: Sequence[Generated] = REGISTRY,
    root: Path = ROOT,
) -> int:
    """Run one command line over `registry` (files under `root`); the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m devtools.generated", description=__doc__.splitlines()[0]
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="compare, exit 1 when one differs")
    action.add_argument("--write", action="store_true", help="rewrite the files that differ")
    action.add_argument("--list", action="store_true", help="list the registered families")
    parser.add_argument("names", nargs="*", help="families to handle (default: every checked one)")
    args = parser.parse_args(argv)
    if args.list:
        return _list(registry)
    try:
        families = _chosen(args.names, registry)
    except KeyError as error:
        parser.error(str(error.args[0]))
    if args.check:
        return _check(families, root)
    for generated in families:
        for path in write(generated, root):
            print(f"wrote {path}")
    return 0
