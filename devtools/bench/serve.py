"""Uploads in a row through `redacto serve`: time, server memory and temporary files per job.

    REDACTO_LITERTLM_THREADS=1 python -m devtools.bench.serve [--uploads 10] [--model NAME|URI]
        [--ocr ppocr|tesseract] [--file PATH]

Starts the review server in this process with one engine (default: the embedded default
model), then for each upload: sends the file over HTTP as the page does, follows its event
stream to the review, toggles one word's box (image) or redacts one word (text), approves,
and downloads every output. After each job it prints the seconds it took, the process's
resident memory (RSS) and how many entries are left in the process's temporary folder (a
fresh one, `TMPDIR` for everything the server and OCR do). Figures: docs/serve.md. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil

from devtools.bench.harness import bench_parser, main_or_compare

ROOT = Path(__file__).resolve().parents[2]


def post(url: str, body: bytes = b"", headers: dict[str, str] | None = None) -> dict:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers or {})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.load(response)


def follow(url: str, job: str) -> tuple[str, dict]:
    """Read the job's events until its review (or its end); returns the last one."""
    name, data = "", {}
    with urllib.request.urlopen(f"{url}api/jobs/{job}/events", timeout=600) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data = json.loads(line.removeprefix("data: "))
                if name in ("review", "failed", "end"):
                    return name, data
    return name, data


def one_upload(url: str, path: Path, *, text: bool) -> tuple[str, int]:
    """Upload, review (one edit), approve, download; returns (status, bytes downloaded)."""
    job = post(url + "api/jobs", path.read_bytes(), {"X-File-Name": path.name})["id"]
    name, review = follow(url, job)
    if name != "review":
        return f"{name}: {review.get('message', '')}", 0
    label = review["labels"][0]
    edit = {"action": "toggle", "index": 0, "label": label}
    if text:
        edit = {"action": "add", "start": 0, "end": 3, "label": label}
    post(f"{url}api/jobs/{job}/edit", json.dumps(edit).encode(), {"Content-Type": "x/json"})
    files = post(f"{url}api/jobs/{job}/approve")["files"]
    size = 0
    for file in files:
        with urllib.request.urlopen(f"{url}api/jobs/{job}/files/{file['name']}") as response:
            size += len(response.read())
    return review["status"], size


def kept_mb(server) -> float:
    """What the server holds for finished jobs (downloads, page images): it keeps the last
    `ServeConfig.keep_finished` jobs, so this grows until that many are done, then stays."""
    jobs = [server.board.get(job["id"]) for job in server.board.summaries()]
    held = {
        id(b): len(b) for job in jobs for b in (*job.downloads.values(), *job.page_images.values())
    }
    return sum(held.values()) / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--model", default=None, help="default: the embedded default model")
    parser.add_argument("--ocr", default="ppocr")
    parser.add_argument("--file", type=Path, default=ROOT / "examples/sample-medical-note.jpg")
    args = parser.parse_args(argv)
    return main_or_compare(__spec__.name, args, argv, run)


def run(args: argparse.Namespace) -> None:

    from redacto.models import open_model
    from redacto.prompts import PromptLibrary
    from redacto.serve import ReviewServer, ServeConfig

    text = args.file.suffix.lower() in (".txt", ".md")
    process = psutil.Process()
    temp_root = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    os.environ["TMPDIR"] = tempfile.tempdir = str(temp_root)  # every temporary file lands here
    with open_model(args.model) as engine:
        config = ServeConfig(ocr=args.ocr)
        with ReviewServer(engine, PromptLibrary.load(), config).start() as server:
            print(f"model {engine.identity.name}, OCR {args.ocr}, {args.file.name}")
            print(f"after start: RSS {process.memory_info().rss / 2**20:.0f} MB")
            print("upload  seconds  status        downloaded  RSS MB  kept MB  threads  temp left")
            for number in range(1, args.uploads + 1):
                started = time.perf_counter()
                status, size = one_upload(server.url, args.file, text=text)
                seconds = time.perf_counter() - started
                gc.collect()
                left = sum(1 for _ in temp_root.iterdir())
                rss = process.memory_info().rss / 2**20
                print(
                    f"{number:6d}  {seconds:7.1f}  {status:12s}  {size / 1024:7.0f} KB"
                    f"  {rss:6.0f}  {kept_mb(server):7.1f}  {process.num_threads():7d}"
                    f"  {left:9d}",
                    flush=True,
                )
    left_after = sum(1 for _ in temp_root.iterdir())
    print(
        f"after stop: {left_after} entries in the temporary folder, "
        f"open files {len(process.open_files())}, pid {os.getpid()}"
    )
    temp_root.rmdir()


if __name__ == "__main__":
    sys.exit(main())
