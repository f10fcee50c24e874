"""The four-step pipeline: classify → detect → redact → validate, in at most three rounds.

`run_pipeline(document, engine, prompts, options=..., on_event=...)` is the entry point;
each step is a module of its own (`classify`, `detect`, `redact`, `validate`), the line
parsers live in `parsing`, placeholders in `placeholders`, the text locator in `locator`.
"""

from redacto.pipeline.run import DetectionFailed, find_detections, run_pipeline
from redacto.pipeline.state import (
    ImageReading,
    OnEvent,
    OutputBudget,
    Phase,
    PipelineOptions,
    PipelineResult,
    ProgressEvent,
)

__all__ = [
    "DetectionFailed",
    "ImageReading",
    "OnEvent",
    "OutputBudget",
    "Phase",
    "PipelineOptions",
    "PipelineResult",
    "ProgressEvent",
    "find_detections",
    "run_pipeline",
]
