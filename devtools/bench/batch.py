"""Files per minute for a folder of short letters: a shell loop, one process, two worker
processes and a local Ray with two actors, side by side in one run.

    REDACTO_LITERTLM_THREADS=1 python -m devtools.bench.batch [--texts 8] [--model NAME] [--no-ray]

Writes `--texts` one-paragraph letters (English and French, each naming people, a phone,
an address) into a temporary folder, then times, each from a cold start as a user would
type it: `redacto redact FILE` once per file in a bash loop (the model loaded per file),
`redacto redact FOLDER --out DIR` (one process, the model loaded once), the same with
`--workers 2`, and with `--ray local` (two actors; Ray's own start counted). Every mode
must write the same statuses. Prints a Markdown table; figures: docs/batch.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from devtools.bench.harness import bench_parser, main_or_compare

REDACTO = [sys.executable, "-c", "from redacto.cli import app; app()", "redact"]
LETTERS = (
    "Dear Mrs. Chen, your appointment with Dr. Paul Martin is on 12 March at 9:30. "
    "Please call 408-555-1234 or write to 22 Baker Street, London if you cannot come.",
    "Madame Claire Dupont, nous confirmons votre rendez-vous du 4 juin avec le docteur "
    "Luc Bernard. Merci de rappeler le 06 12 34 56 78 ou d'écrire au 12 rue des Lilas, Lyon.",
    "Hello Mr. John Doe, the invoice for your order was sent to john.doe@example.com. "
    "Your account manager, Ana Garcia, can be reached on 555-0100 until Friday.",
    "Monsieur Marc Dubois, votre dossier est suivi par Mme Sophie Leroy. Pour toute "
    "question, écrivez à sophie.leroy@example.fr ou appelez le 01 23 45 67 89.",
)


@dataclass(frozen=True)
class Timing:
    mode: str
    command: str
    seconds: float
    files: int
    statuses: tuple[str, ...]

    @property
    def per_minute(self) -> float:
        return self.files / self.seconds * 60


def write_letters(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True)
    paths = []
    for number in range(count):
        path = folder / f"letter-{number:02d}.txt"
        path.write_text(LETTERS[number % len(LETTERS)] + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def model_flags(model: str | None) -> list[str]:
    return ["--model", model] if model else []


def shell_loop(inputs: list[Path], out: Path, model: str | None) -> Timing:
    lines = [
        " ".join(map(shlex.quote, [*REDACTO, str(path), *model_flags(model), "--out"]))
        + f' {shlex.quote(str(out))}/"$(basename {shlex.quote(str(path))})"'
        for path in inputs
    ]
    script = "\n".join(f"{line} >/dev/null 2>&1 || true" for line in lines)
    started = time.perf_counter()
    subprocess.run(["bash", "-c", script], check=True)
    seconds = time.perf_counter() - started
    statuses = tuple(
        json.loads((out / path.name / "report.json").read_text(encoding="utf-8"))["status"]
        for path in inputs
    )
    shown = "for f in DIR/*.txt; do redacto redact $f --out OUT/$(basename $f); done"
    return Timing("shell loop", shown, seconds, len(inputs), statuses)


def batch(mode: str, folder: Path, out: Path, model: str | None, flags: list[str]) -> Timing:
    command = [*REDACTO, str(folder), *model_flags(model), "--out", str(out), *flags]
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - started
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))["rows"]
    statuses = tuple(row["status"] for row in rows)
    shown = " ".join(["redacto redact DIR --out OUT", *flags])
    return Timing(mode, shown, seconds, len(rows), statuses)


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--texts", type=int, default=8)
    parser.add_argument("--model", default=None, help="default: the embedded default model")
    parser.add_argument("--no-ray", action="store_true", help="leave out --ray local")
    args = parser.parse_args(argv)
    return main_or_compare(__spec__.name, args, argv, run, packages=("ray",))


def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch:
        root = Path(scratch)
        inputs = write_letters(root / "letters", args.texts)
        timings = [shell_loop(inputs, root / "loop", args.model)]
        runs = [("one process", []), ("--workers 2", ["--workers", "2"])]
        if not args.no_ray and importlib.util.find_spec("ray") is not None:
            runs.append(("--ray local (2 actors)", ["--ray", "local"]))
        for number, (mode, flags) in enumerate(runs):
            out = root / f"out-{number}"
            timings.append(batch(mode, root / "letters", out, args.model, flags))
    threads = os.environ.get("REDACTO_LITERTLM_THREADS", "default")
    print(
        f"{args.texts} letters, model {args.model or 'default'}, "
        f"{os.cpu_count()} cores, REDACTO_LITERTLM_THREADS={threads}\n"
    )
    print("| mode | wall s | files/min | vs. shell loop | statuses |")
    print("|---|---:|---:|---:|---|")
    base = timings[0].per_minute
    for timing in timings:
        counts = {s: timing.statuses.count(s) for s in sorted(set(timing.statuses))}
        shown = ", ".join(f"{count} {status}" for status, count in counts.items())
        print(
            f"| {timing.mode} | {timing.seconds:.1f} | {timing.per_minute:.1f} | "
            f"{timing.per_minute / base:.2f}× | {shown} |"
        )
    if len({tuple(sorted(t.statuses)) for t in timings}) != 1:
        print("\nwarning: the modes ended with different statuses", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
