"""The model toolchain: manifests under `models/`, builds under `build/models/<name>/`.

`build_model("gemma-3-270m")` turns a manifest into a quantised `.litertlm` with a build
record beside it; `resolve_model("gemma-3-270m")` gives the engine URI of the built file
(`litertlm:/abs/path`) so the pipeline, the eval and the CLI can name models by name.

A model file's identity (its manifest, build record and sealed policy) needs none of this
toolchain, so it lives apart in `redacto.modelfile`, where the pipeline and the engines may
read it; this package re-exports the manifest's and the record's names for its own callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from redacto.modelfile.manifest import (
    Manifest,
    ModelError,
    PipelineSettings,
    UnknownModelError,
    list_manifests,
    load_manifest,
    manifest_and_quant,
)
from redacto.modelfile.policy import ModelFileCheck, check_model_file
from redacto.modelfile.record import (
    BuildRecord,
    StageRecord,
    VerifyFigures,
    read_record,
    record_matches_file,
)
from redacto.models.build import (
    BuildError,
    OnProgress,
    StageEvent,
    build_model,
    build_root,
    model_dir,
    model_file,
)
from redacto.models.open import (
    DEFAULT_MODEL,
    ModelChoice,
    chosen_identity,
    open_model,
    using_model,
)

__all__ = [
    "DEFAULT_MODEL",
    "BuildError",
    "BuildRecord",
    "Manifest",
    "ModelChoice",
    "ModelError",
    "ModelInspection",
    "ModelNotBuiltError",
    "OnProgress",
    "PipelineSettings",
    "StageEvent",
    "StageRecord",
    "UnknownModelError",
    "VerifyFigures",
    "build_model",
    "build_root",
    "built_record",
    "chosen_identity",
    "inspect_model",
    "list_manifests",
    "load_manifest",
    "model_dir",
    "model_file",
    "model_path",
    "open_model",
    "resolve_model",
    "using_model",
    "verify_model",
]


class ModelNotBuiltError(ModelError):
    """The model has a manifest but no finished build; the message is the command to run."""


def build_command(name: str, quant: str | None = None) -> str:
    """The exact command that builds a model."""
    manifest = load_manifest(name)
    flag = f" --quant {quant}" if quant and quant != manifest.default_quant else ""
    return f"redacto model build {name}{flag}"


def built_record(name: str) -> BuildRecord:
    """The record of a finished build of `name` (`NAME` or `NAME@int4`)."""
    manifest, quant = manifest_and_quant(name)
    path = model_file(manifest.name, quant)
    record = read_record(path)
    if record is None or not record_matches_file(record, path):
        raise ModelNotBuiltError(
            f"model {manifest.name!r} ({quant}) is not built: run "
            f"`{build_command(manifest.name, quant)}`"
        )
    return record


def resolve_model(name_or_uri: str) -> str:
    """An engine URI for a model name, a `.litertlm` path, or a URI (passed through).

    `gemma-3-270m` → `litertlm:/…/build/models/gemma-3-270m/gemma-3-270m-int8.litertlm`;
    `gemma-3-270m@int4` names another quantisation. Raises `ModelNotBuiltError` (its
    message is the build command) when the model has not been built.
    """
    scheme, sep, rest = name_or_uri.partition(":")
    if sep and rest and scheme.isidentifier():
        return name_or_uri
    as_path = Path(name_or_uri).expanduser()
    if as_path.suffix == ".litertlm":
        if not as_path.is_file():
            raise ModelError(f"no model file at {as_path}")
        return f"litertlm:{as_path.resolve()}"
    manifest, quant = manifest_and_quant(name_or_uri)
    built_record(name_or_uri)
    return f"litertlm:{model_file(manifest.name, quant)}"


@dataclass(frozen=True)
class ModelInspection:
    """What `redacto model verify` says of a file before it loads it."""

    path: Path
    check: ModelFileCheck
    """The policy the file carries and whether it verifies (`redacto.modelfile.policy`)."""
    known_build: BuildRecord | None
    """The build on this machine whose recorded sha256 is the file's, if any."""


def _built_name(name_or_path: str) -> tuple[Manifest, str] | None:
    """The manifest and quantisation a model name means, or None when it is a file's path
    (a `.litertlm` name, or any file that exists)."""
    as_path = Path(name_or_path).expanduser()
    if as_path.suffix == ".litertlm" or as_path.is_file():
        return None
    return manifest_and_quant(name_or_path)


def model_path(name_or_path: str) -> Path:
    """The `.litertlm` file a built model name (`NAME`, `NAME@int4`) or a path means."""
    named = _built_name(name_or_path)
    if named is None:
        as_path = Path(name_or_path).expanduser()
        if not as_path.is_file():
            raise ModelError(f"no model file at {as_path}")
        return as_path.resolve()
    built_record(name_or_path)
    return model_file(named[0].name, named[1])


def inspect_model(name_or_path: str) -> ModelInspection:
    """Read the policy a model file carries, verify it, and look for a build on this machine
    with the same sha256 (any name, any folder: the bytes decide)."""
    path = model_path(name_or_path)
    check = check_model_file(path)
    known = None
    for record_file in sorted((build_root() / "models").glob("*/*.build.json")):
        record = read_record(record_file.with_name(record_file.name.removesuffix(".build.json")))
        if record is not None and record.sha256 == check.sha256:
            known = record
            break
    return ModelInspection(path, check, known)


def verify_model(name_or_path: str, threads: int | None = None) -> VerifyFigures:
    """Load a built model (by name or `.litertlm` path) and measure the smoke prompt."""
    from redacto.modelfile.manifest import VerifySettings
    from redacto.models.verify import verify_file

    named = _built_name(name_or_path)
    settings = VerifySettings() if named is None else named[0].verify
    return verify_file(model_path(name_or_path), settings, threads=threads)
