"""Watching a request for anything it writes: an empty temporary folder and an audit hook.

`watch_disk` (a fixture's body) points `TMPDIR` and Python's `tempfile` at an empty folder
of the test's own, and installs (once per process) a Python audit hook that records, while
`DiskWatch.on`, every file opened for writing, every folder made, every file renamed or
removed and every program started, from any thread. The proxy's and the review server's
tests use it to show that a request creates no file.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_WATCHED = {
    "os.mkdir",
    "os.rename",
    "os.remove",
    "os.rmdir",
    "os.link",
    "os.symlink",
    "os.truncate",
    "shutil.copyfile",
    "shutil.move",
    "tempfile.mkstemp",
    "tempfile.mkdtemp",
    "subprocess.Popen",
    "os.system",
    "os.posix_spawn",
    "os.exec",
}


class DiskWatch:
    """Records what touches the disk while `on`; an audit hook cannot be removed, so the
    one hook of the process checks this flag."""

    on: ClassVar[bool] = False
    seen: ClassVar[list[str]] = []

    @classmethod
    def hook(cls, event: str, args: tuple[Any, ...]) -> None:
        if not cls.on:
            return
        if event == "open":
            path, mode, flags = args
            writes = (mode is not None and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITES
            )
            if writes and path is not None:
                cls.seen.append(f"open for writing: {path}")
        elif event == "os.mkdir" and os.path.isdir(args[0]):
            return  # an existing folder (RapidOCR's own models folder, at load): a no-op
        elif event in _WATCHED:
            cls.seen.append(f"{event}: {args[0] if args else ''}")


_installed = threading.Lock()
_HOOKED: list[bool] = []


def watch_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Install the hook (once), clear what it saw, and point every temporary file at a new
    empty folder under `tmp_path`, which is returned."""
    with _installed:
        if not _HOOKED:
            sys.addaudithook(DiskWatch.hook)
            _HOOKED.append(True)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    DiskWatch.seen = []
    return scratch
