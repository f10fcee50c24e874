"""The benchmarks and measurements: `python -m devtools.bench.NAME` from the repository root.

Each prints its figures and the conditions they were taken in; each takes `--baseline
COMMIT` to measure that commit's code beside this checkout's (`harness`). docs/benchmarks.md
lists them; the function-level timings are pytest-benchmark tests under tests/bench/.
"""
