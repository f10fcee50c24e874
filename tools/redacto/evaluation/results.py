"""The files of one evaluation run, and their typed contents.

A run directory holds:

- `run.json` — what was run (`RunConfig`); a rerun into the same directory must match it;
- `results.jsonl` — one `DocumentResult` per line, appended as each document finishes,
  so an interrupted run resumes where it stopped;
- `summary.json` — the `RunSummary` (all rates), rewritten at the end of every run;
- `report.md`, `report.html` — for people.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from redacto.corpus.schema import PageInput
from redacto.document import ConstrainedDecoding, Frozen, ImageReading, Mode
from redacto.evaluation.prediction import Prediction
from redacto.evaluation.scorer import DocumentScore
from redacto.evaluation.summary import ModeRatio, ModeSummary
from redacto.pipeline.state import MAX_ROUNDS

OcrChoice = Literal["gold", "ppocr", "tesseract"]

RUN_FILE = "run.json"
RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"


class RunError(RuntimeError):
    """The run cannot start or continue (bad directory, mismatched resume, unknown suite)."""


class RunConfig(Frozen):
    """What a run evaluates. Two runs with equal configs are resumable into each other."""

    suite: str
    split: str | None = None
    system: str
    modes: tuple[Mode, ...]
    ocr: OcrChoice = "gold"
    rules: bool = True
    detectors: str = "rules,model"
    """The tiers that read the pages (`--detectors`), in `rules,ner,model` order; a run
    recorded before the NER tier existed had the rules and the model."""
    gold_category: bool = False
    """Each document's own category is given to the pipeline (classify skipped), to measure
    detect, rules and validate apart from classification."""
    limit: int | None = None
    image_reading: ImageReading | None = None
    """How image mode shows pages to the model; None: the model's manifest decides."""
    max_rounds: int = MAX_ROUNDS
    """Redact+validate rounds at most (`PipelineOptions.max_rounds`)."""
    page_input: PageInput = PageInput.IMAGE
    """What image mode reads: the photo, or the page as a born-digital or scanned PDF
    (read by `redacto.pdf.read_pdf`, with `ocr` as its OCR engine)."""
    constrained_decoding: ConstrainedDecoding | None = None
    """Which calls decode under a pattern built from the page; None: the manifest decides."""
    strict: bool = False
    """`--strict`: every word no reader could explain was redacted (docs/lexicon.md)."""

    def same_work(self, other: RunConfig) -> bool:
        """True when `other` asks for the same predictions (the limit may grow on resume; a
        run recorded with the model's absolute path is the same as its `portable` form)."""
        from redacto.host.resources import portable

        def work(config: RunConfig) -> RunConfig:
            return config.model_copy(update={"limit": None, "system": portable(config.system)})

        return work(self) == work(other)


class RunInfo(BaseModel):
    """`run.json`: the config plus when it started and which system identity answered."""

    model_config = ConfigDict(extra="forbid")

    config: RunConfig
    started: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    system_identity: str = ""


class DocumentResult(BaseModel):
    """One line of `results.jsonl`: what the system did to a document, and its score."""

    model_config = ConfigDict(extra="forbid")

    document_id: str
    mode: Mode
    prediction: Prediction
    score: DocumentScore


class RunSummary(BaseModel):
    """`summary.json`: every figure of the run, per mode, and image ÷ text cost."""

    model_config = ConfigDict(extra="forbid")

    info: RunInfo
    documents: int
    wall_s: float
    modes: dict[Mode, ModeSummary]
    image_vs_text: ModeRatio | None = None


def read_results(run_dir: Path) -> list[DocumentResult]:
    """All complete lines of `results.jsonl`; a torn last line (a killed run) is skipped."""
    path = run_dir / RESULTS_FILE
    if not path.exists():
        return []
    results: list[DocumentResult] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            results.append(DocumentResult.model_validate_json(line))
        except ValidationError as error:
            if number == len(lines):
                break  # written while the process died; it will be redone
            raise RunError(f"{path}:{number} is not a document result: {error}") from error
    return results


def append_result(run_dir: Path, result: DocumentResult) -> None:
    """Append one result and flush it, so a crash loses at most the document in flight."""
    with (run_dir / RESULTS_FILE).open("a", encoding="utf-8") as handle:
        handle.write(result.model_dump_json() + "\n")
        handle.flush()


def drop_torn_line(run_dir: Path) -> None:
    """Cut an unterminated last line so appending starts on a fresh line."""
    path = run_dir / RESULTS_FILE
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def read_info(run_dir: Path) -> RunInfo | None:
    path = run_dir / RUN_FILE
    if not path.exists():
        return None
    return RunInfo.model_validate_json(path.read_text(encoding="utf-8"))


def write_info(run_dir: Path, info: RunInfo) -> None:
    (run_dir / RUN_FILE).write_text(info.model_dump_json(indent=2) + "\n", encoding="utf-8")


def read_summary(run_dir: Path) -> RunSummary:
    """The summary of a finished run; a clear error when the directory holds none."""
    path = run_dir / SUMMARY_FILE
    if not path.exists():
        raise RunError(f"{run_dir} holds no {SUMMARY_FILE}: is it a finished evaluation run?")
    return RunSummary.model_validate_json(path.read_text(encoding="utf-8"))


def write_summary(run_dir: Path, summary: RunSummary) -> None:
    text = json.dumps(summary.model_dump(mode="json"), indent=2, sort_keys=False)
    (run_dir / SUMMARY_FILE).write_text(text + "\n", encoding="utf-8")
