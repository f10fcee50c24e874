#!/usr/bin/env python3
"""Peak memory of `redacto redact` on the largest images the input checks accept.

Two cases, each the real path of the `redact` command (load and check the image, PP-OCR,
the pipeline with a scripted model, burn the boxes, write the clean PNG and the report),
each in its own child process so its peak RSS is its own:

- `strip`: a 20000×20 PNG strip with a line of text on it (the longest side allowed);
- `photo`: a 12247×8165 JPEG (100 megapixels, the most allowed) with text on it.

The target is at most 3 GB each; docs/ocr.md records the figures. A watchdog
kills a child whose RSS passes `--cap-gb` (default 8) so a regression cannot take the
machine down with it; such a case is reported as killed.

    python -m devtools.bench.redact_memory                 # both cases
    python -m devtools.bench.redact_memory --case strip --json memory.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from devtools.bench.harness import ROOT, bench_parser, main_or_compare

CASES = {"strip": (20000, 20), "photo": (12247, 8165)}
TARGET_GB = 3.0
WORDS = ("Patient", "Jane", "Smith", "called", "from", "408-555-1234", "about", "her", "visit")


def make_image(case: str, folder: Path) -> Path:
    """Render the case's image (text across it) into `folder`."""
    from PIL import Image, ImageDraw

    from redacto.ocr.synthetic import REGULAR_FONTS, load_font

    width, height = CASES[case]
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    if case == "strip":
        font, line_height, lines = load_font(REGULAR_FONTS[0], 14), height, 1
    else:
        font, line_height, lines = load_font(REGULAR_FONTS[0], 160), 260, 12
    for line in range(lines):
        x, y, number = 10, 2 + line * line_height, 0
        while x < width - 1000:
            word = WORDS[number % len(WORDS)]
            draw.text((x, y), word, fill="black", font=font)
            x = int(draw.textbbox((x, y), word, font=font)[2]) + line_height // 2
            number += 1
    path = folder / (f"{case}.png" if case == "strip" else f"{case}.jpg")
    image.save(path, quality=90) if case == "photo" else image.save(path)
    return path


def run_case(image: Path, out: Path) -> dict[str, object]:
    """In the child: the `redact` command's own path on `image`; returns its figures."""
    import resource

    from typer.testing import CliRunner

    from redacto.cli import app

    replies = {"detect": ["NONE"] * 200, "validate": ["PASS"] * 200}
    script = out.parent / f"{image.stem}-replies.json"
    script.write_text(json.dumps(replies), encoding="utf-8")
    started = time.perf_counter()
    args = ["redact", str(image), "--model", f"scripted:{script}", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--category", "General", "--no-rules"])
    wall_s = time.perf_counter() - started
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    detect_calls = sum(1 for step in report["steps"] if step["step"] == "detect")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "exit_code": result.exit_code,
        "status": report["status"],
        "detect_calls": detect_calls,
        "wall_s": round(wall_s, 1),
        "peak_rss_gb": round(peak_kb / 1024 / 1024, 2),
    }


def watch(command: list[str], cap_gb: float) -> tuple[int, float, bool]:
    """Run `command`, polling its RSS; kill it above `cap_gb`. (exit code, max seen, killed)"""
    import psutil

    child = subprocess.Popen(command, cwd=ROOT)
    process = psutil.Process(child.pid)
    seen = 0.0
    while child.poll() is None:
        try:
            seen = max(seen, process.memory_info().rss / 1024**3)
        except psutil.NoSuchProcess:
            break
        if seen > cap_gb:
            child.kill()
            child.wait()
            return child.returncode, seen, True
        time.sleep(0.05)
    return child.returncode, seen, False


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--cap-gb", type=float, default=8.0)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--child", nargs=3, metavar=("IMAGE", "OUT", "RESULT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    # a --child prints nothing of its own: its parent reports its figures
    return main_or_compare(__spec__.name, args, argv, run, environment=not args.child)


def run(args: argparse.Namespace) -> int:
    if args.child:
        image, out, result = map(Path, args.child)
        result.write_text(json.dumps(run_case(image, out)), encoding="utf-8")
        return 0
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="redacto-bench-memory-") as tmp:
        folder = Path(tmp)
        for case in args.case or sorted(CASES):
            image = make_image(case, folder)
            result = folder / f"{case}.json"
            command = [
                sys.executable,
                "-m",
                "devtools.bench.redact_memory",
                "--child",
                str(image),
                str(folder / case),
                str(result),
            ]
            code, _, killed = watch(command, args.cap_gb)
            if killed or code != 0 or not result.exists():
                figures[case] = {"killed_above_gb": args.cap_gb} if killed else {"exit": code}
            else:
                figures[case] = json.loads(result.read_text(encoding="utf-8"))
            width, height = CASES[case]
            shown = figures[case]
            peak = shown.get("peak_rss_gb")
            verdict = "ok" if isinstance(peak, float) and peak <= TARGET_GB else "OVER TARGET"
            target = f"target ≤ {TARGET_GB} GB"
            print(f"{case:6} {width}x{height}: {json.dumps(shown)}  [{verdict}, {target}]")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    over = [
        case
        for case, shown in figures.items()
        if not (isinstance(peak := shown.get("peak_rss_gb"), float) and peak <= TARGET_GB)
    ]
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
