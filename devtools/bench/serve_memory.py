"""What one job costs the review server in memory, and whether it comes back afterwards.

    python -m devtools.bench.serve_memory --file PAGE.png [--uploads 2] [--approve] [--json]

Starts `redacto serve`'s server in this process on a scripted model (the model is not what
is measured) with Tesseract, then for each upload: sends the file over HTTP as the page
does, follows its events to the review, discards it (or approves it), and prints the
process's resident memory (RSS) at the start, its peak during the job (sampled every 20 ms)
and after the job ended. `--json` prints every job's figures as one JSON list too.
Figures: docs/serve.md. Prints figures; asserts nothing (tests/serve/test_memory.py does).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psutil

from devtools.bench.harness import bench_parser, main_or_compare
from redacto.document import ImageReading, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig

REPLIES = {
    Step.CLASSIFY: ["CATEGORY: Medical"],
    Step.DETECT: ["NAME: Jane Doe\n"],
    Step.VALIDATE: ["PASS"],
}
MB = 1024 * 1024


class PeakRss:
    """The process's RSS, sampled in the background; `reset` starts a new peak."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.peak = self.now()
        threading.Thread(target=self._sample, daemon=True).start()

    def now(self) -> int:
        return self.process.memory_info().rss

    def reset(self) -> None:
        self.peak = self.now()

    def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, self.now())
            time.sleep(0.02)


def post(url: str, body: bytes = b"", headers: dict[str, str] | None = None) -> dict:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers or {})
    with urllib.request.urlopen(request, timeout=900) as response:
        return json.load(response)


def follow(url: str, job: str) -> str:
    """Read the job's events until its review (or failure); returns that event's name."""
    name = ""
    with urllib.request.urlopen(f"{url}api/jobs/{job}/events", timeout=900) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
                if name in ("review", "failed", "end"):
                    return name
    return name


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--uploads", type=int, default=1)
    parser.add_argument("--approve", action="store_true", help="approve instead of discard")
    parser.add_argument("--max-megapixels", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    # --json: the figures' JSON is the last line, as tests/serve/test_memory.py reads it
    return main_or_compare(__spec__.name, args, argv, run, environment=not args.json)


def run(args: argparse.Namespace) -> None:
    replies = {step: texts * args.uploads for step, texts in REPLIES.items()}
    options = PipelineOptions(image_reading=ImageReading.TEXT, model_redact=False)
    body = args.file.read_bytes()
    rss = PeakRss()
    config = ServeConfig(
        ocr="tesseract",
        options=options,
        max_pixels=args.max_megapixels * 1_000_000,
    )
    with ReviewServer(ScriptedEngine(replies), PromptLibrary.load(), config).start() as server:
        runs: list[dict[str, object]] = []
        for number in range(1, args.uploads + 1):
            start = rss.now()
            rss.reset()
            began = time.monotonic()
            job = post(server.url + "api/jobs", body, {"X-File-Name": args.file.name})["id"]
            outcome = follow(server.url, job)
            if outcome == "review":
                post(f"{server.url}api/jobs/{job}/{'approve' if args.approve else 'discard'}")
            time.sleep(0.5)
            figures: dict[str, object] = {
                "upload": number,
                "outcome": outcome,
                "seconds": round(time.monotonic() - began, 1),
                "start_mb": round(start / MB),
                "peak_mb": round(rss.peak / MB),
                "after_mb": round(rss.now() / MB),
            }
            print(
                f"upload {number}: {outcome} in {figures['seconds']} s, RSS "
                f"{figures['start_mb']} MB at the start, {figures['peak_mb']} MB at the "
                f"peak, {figures['after_mb']} MB after the job ended",
                flush=True,
            )
            runs.append(figures)
    if args.json:
        print(json.dumps(runs))


if __name__ == "__main__":
    sys.exit(main())
