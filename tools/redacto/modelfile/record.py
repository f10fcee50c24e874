"""The build record: a JSON file beside each built model saying what it is and what it cost.

Reports cite the model by file name and sha256; the record lets an engine take the sha256
without rehashing hundreds of megabytes, as long as the file's size and mtime still match.
The build (`redacto.models`) writes it; an engine reads it without importing the build.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import platform
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

TOOL_PACKAGES = (
    "litert-torch",
    "litert-lm-api",
    "litert-lm-builder",
    "ai-edge-litert",
    "ai-edge-quantizer",
    "torch",
    "transformers",
    "sentencepiece",
)


class StageRecord(BaseModel):
    """One build stage: how long it took and the most memory its process held."""

    model_config = ConfigDict(frozen=True)

    name: str
    seconds: float
    peak_rss_mb: float | None
    reused: bool = False


class VerifyFigures(BaseModel):
    """What a smoke prompt measured on CPU with LiteRT-LM."""

    model_config = ConfigDict(frozen=True)

    load_s: float
    ttft_ms: float
    prefill_tokens: int
    prefill_tokens_per_s: float
    decode_tokens: int
    decode_tokens_per_s: float
    threads: int
    reply: str


class BuildRecord(BaseModel):
    """Everything known about one built `.litertlm` file."""

    name: str
    quant: str
    recipe: str
    method: str
    file: str
    sha256: str
    size_bytes: int
    mtime_ns: int
    fingerprint: str
    checkpoint: str | None = None
    built_at: str
    seconds: float
    stages: list[StageRecord]
    tool_versions: dict[str, str]
    verify: VerifyFigures | None = None
    content_sha256: str | None = None
    """The sha256 of the file's content (its sections, from `content_start` to the end),
    the digest its policy is sealed with (`redacto.modelfile.policy`), kept so an engine need
    not rehash the file while it still matches this record."""
    content_start: int | None = None

    @property
    def peak_rss_mb(self) -> float | None:
        """The highest peak over all stages (the machine must have at least this much)."""
        peaks = [stage.peak_rss_mb for stage in self.stages if stage.peak_rss_mb is not None]
        return max(peaks) if peaks else None


def record_path(model_file: Path) -> Path:
    """`gemma-3-270m-int8.litertlm` → `gemma-3-270m-int8.build.json`."""
    return model_file.with_suffix(".build.json")


def read_record(model_file: Path) -> BuildRecord | None:
    """The record beside `model_file`, or None when absent or unreadable."""
    path = record_path(model_file)
    try:
        return BuildRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None


def write_record(record: BuildRecord, model_file: Path) -> Path:
    """Write the record beside the model file."""
    path = record_path(model_file)
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def record_matches_file(record: BuildRecord, model_file: Path) -> bool:
    """True when the file is the one the record describes (same size and mtime)."""
    try:
        stat = model_file.stat()
    except OSError:
        return False
    return stat.st_size == record.size_bytes and stat.st_mtime_ns == record.mtime_ns


def sha256_of(path: Path) -> str:
    """Hash a file in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def tool_versions() -> dict[str, str]:
    """Versions of the packages that shape a built file, plus Python's."""
    versions = {"python": platform.python_version()}
    for package in TOOL_PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions
