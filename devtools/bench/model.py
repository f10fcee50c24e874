"""Build-and-run benchmark for one model: time and peak memory per build stage, then
LiteRT-LM figures (load, TTFT, prefill and decode tokens/s) over a few verify runs.

    python -m devtools.bench.model gemma-3-270m            # reuse the build if up to date
    python -m devtools.bench.model tiny --fresh --runs 5   # build from scratch in a temp dir

Stage figures come from the build record, i.e. from the build that produced the file;
`--fresh` builds again into a temporary folder so the numbers are this machine's, today.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

from devtools.bench.harness import bench_parser, main_or_compare
from redacto import models
from redacto.modelfile.record import BuildRecord, VerifyFigures


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("name", nargs="?", default=models.DEFAULT_MODEL)
    parser.add_argument("--quant", default="int8")
    parser.add_argument("--fresh", action="store_true", help="build again in a temp folder")
    parser.add_argument("--runs", type=int, default=3, help="verify runs (median reported)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    return main_or_compare(
        __spec__.name, args, argv, run, packages=("litert-lm-api", "litert-torch", "torch")
    )


def run(args: argparse.Namespace) -> int:

    with tempfile.TemporaryDirectory(prefix="redacto-bench-") as scratch:
        if args.fresh:
            os.environ["REDACTO_BUILD_DIR"] = scratch
        started = time.perf_counter()
        record = models.build_model(args.name, quant=args.quant, on_progress=_progress)
        print(f"build call: {time.perf_counter() - started:.1f} s")
        _print_build(record)
        figures = [
            models.verify_model(f"{args.name}@{args.quant}", threads=args.threads)
            for _ in range(args.runs)
        ]
        _print_verify(figures)
    return 0


def _progress(event: models.StageEvent) -> None:
    if event.state == "started":
        print(f"  [{event.index}/{event.total}] {event.stage}: {event.description} …", flush=True)


def _print_build(record: BuildRecord) -> None:
    print(f"\n{record.name} ({record.quant}, {record.recipe} via {record.method})")
    print(f"  file {record.file}: {record.size_bytes / 1e6:.1f} MB, sha256 {record.sha256}")
    print(f"  {'stage':<12}{'seconds':>10}{'peak RSS':>12}")
    for stage in record.stages:
        peak = f"{stage.peak_rss_mb / 1024:.2f} GiB" if stage.peak_rss_mb else "-"
        note = "  (reused)" if stage.reused else ""
        print(f"  {stage.name:<12}{stage.seconds:>10.1f}{peak:>12}{note}")
    overall = f"{record.peak_rss_mb / 1024:.2f} GiB" if record.peak_rss_mb else "-"
    print(f"  {'total':<12}{record.seconds:>10.1f}{overall:>12}  (built {record.built_at})")
    print(f"  tools: {', '.join(f'{k} {v}' for k, v in record.tool_versions.items())}")


def _print_verify(figures: list[VerifyFigures]) -> None:
    def median(values: list[float]) -> float:
        return statistics.median(values)

    print(f"\nverify: {len(figures)} run(s), {figures[0].threads} threads, medians")
    print(f"  load      {median([f.load_s for f in figures]):8.2f} s")
    print(f"  TTFT      {median([f.ttft_ms for f in figures]):8.0f} ms")
    print(
        f"  prefill   {median([f.prefill_tokens_per_s for f in figures]):8.1f} tok/s "
        f"({figures[0].prefill_tokens} tokens)"
    )
    print(
        f"  decode    {median([f.decode_tokens_per_s for f in figures]):8.1f} tok/s "
        f"({figures[0].decode_tokens} tokens)"
    )
    print(f"  reply     {figures[0].reply.strip()!r}")


if __name__ == "__main__":
    sys.exit(main())
