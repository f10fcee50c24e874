"""The micro-benchmarks (tests/bench/, pytest-benchmark) timed, or compared with a commit.

    python -m devtools.bench.micro [-k EXPRESSION] [--baseline COMMIT]

Runs `pytest tests/bench --benchmark-enable` (the normal test run only runs each once).
With `--baseline COMMIT` it runs them twice, with this checkout's code and then with
COMMIT's (the same tests, from a git worktree's `tools/`), and prints each benchmark's
median side by side with the ratio.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from devtools.bench.harness import (
    ROOT,
    BenchError,
    bench_parser,
    commit_line,
    environment_lines,
    python_env,
    worktree,
)


def pytest_command(selection: str | None, *extra: str) -> list[str]:
    """pytest on tests/bench with the timings on."""
    command = [sys.executable, "-m", "pytest", "tests/bench", "--benchmark-enable", "-q"]
    command.append("--benchmark-columns=min,median,iqr,ops,rounds")
    return [*command, *(["-k", selection] if selection else []), *extra]


def medians(selection: str | None, tree: Path, out: Path) -> dict[str, float]:
    """Each benchmark's median in seconds, run with `tree`'s code."""
    done = subprocess.run(
        pytest_command(selection, f"--benchmark-json={out}"),
        cwd=ROOT,
        env=python_env(tree),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or not out.exists():
        raise BenchError(f"pytest failed with {tree}'s code:\n{done.stdout[-3000:]}")
    report = json.loads(out.read_text(encoding="utf-8"))
    return {bench["fullname"]: bench["stats"]["median"] for bench in report["benchmarks"]}


def compared(here: dict[str, float], there: dict[str, float], commit: str) -> list[str]:
    """A Markdown table of both runs' medians in microseconds, and there ÷ here."""
    lines = [
        f"| benchmark | now µs ({commit_line()}) | {commit} µs | {commit} ÷ now |",
        "|---|--:|--:|--:|",
    ]
    for name, seconds in here.items():
        before = there.get(name)
        cells = (
            ("—", "—") if before is None else (f"{before * 1e6:,.1f}", f"{before / seconds:.2f}")
        )
        short = name.removeprefix("tests/bench/")
        lines.append(f"| {short} | {seconds * 1e6:,.1f} | {cells[0]} | {cells[1]} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("-k", dest="selection", help="pytest's -k: which benchmarks")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    if not args.baseline:
        return subprocess.run(pytest_command(args.selection), cwd=ROOT, env=python_env()).returncode
    with tempfile.TemporaryDirectory(prefix="bench-micro-") as folder:
        here = medians(args.selection, ROOT, Path(folder) / "here.json")
        with worktree(args.baseline) as tree:
            there = medians(args.selection, tree, Path(folder) / "there.json")
    print("\n".join([*compared(here, there, args.baseline), "", *environment_lines(load_before)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
