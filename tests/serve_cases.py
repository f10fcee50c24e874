"""Shared pieces of the `redacto serve` tests: the sample photo's script and a slow engine.

The replies name values, not word indices (the page is read as text, as the default model
reads it), so they hold whatever the OCR numbers the words. One value cannot be placed on
the page though a word of it is there (a near miss: it must be listed as not located), and
the validator names one the detector missed.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

from redacto.document import ImageReading, Step
from redacto.engines import ChatRequest, Decoding, OnText, Reply
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions
from scripted_models import TRUSTING

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample-medical-note.jpg"
SAMPLE_REPLIES = {
    "classify": ["DOCUMENT_TYPE: Clinic Visit Note\nCATEGORY: Medical"],
    "detect": ["NAME: Jane Marlowe\nDATE: 03/15/1978\nMRN: 4471829\nNAME: Jan Ghostperson\n"],
    "validate": ["FAIL\nNAME: Lisa\n", "PASS"],
}
TEXT_READING = PipelineOptions(image_reading=ImageReading.TEXT, model_redact=False)
"""What the default model's manifest says: pages read as text, no model rewrite of text."""


class SlowEngine(ScriptedEngine):
    """Scripted replies streamed a line every `delay` seconds, like a model that talks
    slowly, so a test can see boxes arrive before the reply ends. `gate`, when given, holds
    the first call until it is set (a job that keeps the model busy)."""

    def __init__(self, replies: dict[str, list[str]], delay: float = 0.0) -> None:
        super().__init__(
            {Step(name): list(texts) for name, texts in replies.items()}, settings=TRUSTING
        )
        self.delay = delay
        self.gate: threading.Event | None = None

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        if self.gate is not None:
            self.gate.wait(timeout=60)

        def slow(piece: str) -> Decoding:
            time.sleep(self.delay)
            return on_text(piece) if on_text is not None else Decoding.CONTINUE

        return super().complete(request, slow if on_text is not None else None)


def sample_replies(times: int = 1) -> dict[str, list[str]]:
    """The sample's script, repeated for `times` uploads."""
    return {step: replies * times for step, replies in SAMPLE_REPLIES.items()}


def post(url: str, body: bytes = b"", headers: dict[str, str] | None = None) -> tuple[int, dict]:
    """POST and read the JSON answer, also for an error status."""
    request = urllib.request.Request(url, data=body, method="POST", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        body = error.read()
        try:
            return error.code, json.loads(body or b"{}")
        except json.JSONDecodeError:
            return error.code, {"text": body.decode()}


def upload(url: str, path: Path, name: str | None = None) -> str:
    """Upload a file as the page does; returns the job id."""
    status, body = post(url + "api/jobs", path.read_bytes(), {"X-File-Name": name or path.name})
    assert status == 201, body
    return body["id"]


def events(url: str, job: str, until: str, timeout: float = 120) -> list[tuple[str, dict]]:
    """Read the job's event stream until an event named `until` (or the stream's end)."""
    seen: list[tuple[str, dict]] = []
    name = ""
    with urllib.request.urlopen(f"{url}api/jobs/{job}/events", timeout=timeout) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                seen.append((name, json.loads(line.removeprefix("data: "))))
                if name in (until, "end"):
                    break
    return seen
