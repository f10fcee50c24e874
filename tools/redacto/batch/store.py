"""The batch's output folder: each input's files put in place whole, and the marker that
says they are complete.

An input's files are written into a fresh folder under `DIR/.redacto/tmp/`, which is then
renamed to `DIR/<its path>` (a rename within one file system: the folder appears whole or
not at all; an earlier run's folder is moved aside first and removed after). Only then is
its completion marker written, atomically, under `DIR/.redacto/done/`: the input's sha256,
the run key (model and options) and every file's sha256. `--resume` trusts an input as done
only when all of these still match, so a run stopped at any point (Ctrl-C, SIGTERM, a killed
worker) leaves nothing that passes for done but is not. Markers live outside the input's
folder so that folder is exactly what a single run writes.

Ctrl-C and SIGTERM wait while a folder is swapped in and its marker written (a few renames
and one small file), then stop the run: a stop never leaves an earlier run's folder moved
aside with none in its place, nor a complete folder without its marker, which `--resume`
would redo.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from redacto.batch.summary import SUMMARY_FILES, SummaryRow
from redacto.inputs import OutputFile, atomic_write, write_files
from redacto.modelfile.record import sha256_of

STATE = ".redacto"
MARKER_VERSION = 1


@dataclass(frozen=True)
class RunKey:
    """What makes two runs of one input the same: the model (its URI and file's sha256)
    and every option that changes the outputs, the prompts' own digest among them."""

    model: str
    model_sha256: str
    options: tuple[tuple[str, str], ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "model_sha256": self.model_sha256,
            "options": dict(self.options),
        }


class OutputStore:
    """`--out DIR` of a batch: where outputs are committed and markers read."""

    def __init__(self, root: Path, key: RunKey) -> None:
        self.root = root
        self.key = key
        self.state = root / STATE

    def open(self) -> None:
        """Make the folder, and clear what an interrupted run left half-made (its temporary
        folders) and the summary of an earlier run, which no longer describes the folder."""
        (self.state / "done").mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.state / "tmp", ignore_errors=True)
        (self.state / "tmp").mkdir()
        for name in SUMMARY_FILES:
            (self.root / name).unlink(missing_ok=True)

    def done(self, relative: PurePosixPath, sha256: str) -> SummaryRow | None:
        """The recorded row of an input whose outputs are complete for these bytes and this
        key, or None (no marker, another input or key, a file missing or changed)."""
        try:
            marker = json.loads(self._marker(relative).read_text(encoding="utf-8"))
            if (
                marker.get("version") != MARKER_VERSION
                or marker.get("input_sha256") != sha256
                or marker.get("key") != self.key.as_json()
            ):
                return None
            folder = self.root / relative
            for name, digest in marker["files"].items():
                if sha256_of(folder / name) != digest:
                    return None
            return SummaryRow.from_json(marker["row"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def commit(
        self,
        relative: PurePosixPath,
        files: Sequence[OutputFile],
        input_path: Path,
        row: SummaryRow,
    ) -> None:
        """Put `files` in place as the folder of `relative`, then write its marker.

        Raises `OSError` when they cannot be; the folder is then as it was or absent, and
        has no marker."""
        target = self.root / relative
        self._marker(relative).unlink(missing_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.parent.resolve().is_relative_to(self.root.resolve()):
            raise OSError(f"{target.parent} leads outside the output folder")
        marker = {
            "version": MARKER_VERSION,
            "file": str(relative),
            "input_sha256": row.sha256,
            "key": self.key.as_json(),
            "files": {file.name: hashlib.sha256(file.data).hexdigest() for file in files},
            "row": row.as_json(),
        }
        staging = Path(tempfile.mkdtemp(dir=self.state / "tmp"))
        try:
            write_files(staging, files, input_path)
            with stops_held():
                self._swap(staging, target)
                atomic_write(self._marker(relative), json.dumps(marker, indent=1).encode("utf-8"))
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _swap(self, staging: Path, target: Path) -> None:
        """Rename `staging` to `target`; an earlier output folder there is moved aside first
        (anything else there, a file or a link, is left alone and refused)."""
        aside: Path | None = None
        if target.is_symlink() or (target.exists() and not target.is_dir()):
            raise FileExistsError(f"{target}: exists and is not an output folder")
        if target.exists():
            aside = Path(tempfile.mkdtemp(dir=self.state / "tmp")) / "old"
            os.rename(target, aside)
        os.rename(staging, target)
        if aside is not None:
            shutil.rmtree(aside.parent, ignore_errors=True)

    def _marker(self, relative: PurePosixPath) -> Path:
        name = hashlib.sha256(str(relative).encode("utf-8")).hexdigest()
        return self.state / "done" / f"{name}.json"


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM that arrive inside the block take effect when it ends, through the
    handlers that were in place, as if they had arrived then. Off the main thread (where no
    signal handler runs) and under a handler Python did not install, the block runs as is."""
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    if threading.current_thread() is not threading.main_thread() or None in previous.values():
        yield
        return
    held: list[int] = []

    def hold(number: int, _frame: object) -> None:
        held.append(number)

    for number in STOP_SIGNALS:
        signal.signal(number, hold)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if held:
            signal.raise_signal(held[0])
