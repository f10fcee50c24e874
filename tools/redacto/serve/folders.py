"""Where the review server keeps uploads: private folders under one known parent.

Every server process makes one run folder, `run-*`, inside a parent that only this user can
enter (`redacto-serve-<uid>` in the system's temporary folder, mode 0700), and one folder
per job inside it (0700; uploads 0600). The process holds an exclusive `flock` on its run
folder for as long as it lives; the kernel drops that lock when the process dies, however it
dies. So a server that starts finds the leftovers of one that crashed (or was killed) by
trying each run folder's lock: a run folder whose lock it can take belongs to no living
server, and is removed. Nothing else in the parent is touched.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

RUN_PREFIX = "run-"
JOB_PREFIX = "job-"


class FolderError(OSError):
    """The parent folder cannot be trusted (another user's, a link, open to others)."""


def default_parent() -> Path:
    """`redacto-serve-<uid>` in the system's temporary folder (`TMPDIR`)."""
    return Path(tempfile.gettempdir()) / f"redacto-serve-{os.getuid()}"


class RunFolder:
    """This process's run folder: made private, locked while the server lives, and every
    dead server's run folder under the same parent removed when it is made."""

    def __init__(self, parent: Path | None = None) -> None:
        self.parent = parent or default_parent()
        _private_parent(self.parent)
        # Under the parent's lock, so that a server starting at the same moment cannot see
        # this run folder between its making and its locking, and take it for a dead one.
        parent_lock = _lock(self.parent, blocking=True)
        try:
            self.swept = sweep_stale_runs(self.parent)
            self.path = Path(tempfile.mkdtemp(prefix=RUN_PREFIX, dir=self.parent))
            self._lock: int | None = _lock(self.path, blocking=True)
        finally:
            if parent_lock is not None:
                os.close(parent_lock)

    def new_job_folder(self) -> Path:
        """A fresh private folder (0700) for one job."""
        return Path(tempfile.mkdtemp(prefix=JOB_PREFIX, dir=self.path))

    def remove(self) -> None:
        """Remove the run folder and everything in it, then release its lock."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def sweep_stale_runs(parent: Path) -> int:
    """Remove the run folders under `parent` that no living server holds; returns how many.

    Only `run-*` folders owned by this user whose lock is free are removed: those are a dead
    server's (a live one holds its lock until it exits). Call it holding the parent's lock.
    """
    removed = 0
    for entry in parent.iterdir():
        if not entry.name.startswith(RUN_PREFIX):
            continue
        info = entry.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        try:
            descriptor = _lock(entry, blocking=False)
        except OSError:
            continue
        if descriptor is None:
            continue  # a living server's
        try:
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
        finally:
            os.close(descriptor)
    return removed


def _private_parent(parent: Path) -> None:
    """Make `parent` (0700), or check that the one there is this user's own real folder."""
    with contextlib.suppress(FileExistsError):
        parent.mkdir(mode=0o700, parents=True)
    info = parent.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise FolderError(f"{parent} is not a folder of this user's; remove it or set TMPDIR")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(parent, 0o700)


def _lock(folder: Path, *, blocking: bool) -> int | None:
    """An exclusive lock on `folder` (its open descriptor), or None when another holds it."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(descriptor)
        return None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
