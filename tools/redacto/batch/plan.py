"""From the command's INPUT… to the list of files a batch redacts, each with its output folder.

A file given by name goes to `DIR/<its name>`; a folder's files to `DIR/<their path inside
it>`, names and suffixes kept (so `letter.pdf` and `letter.txt` side by side do not
collide). Folders are read recursively, in name order; hidden entries (`.name`) and files
of no input kind are passed over (counted), the output folder itself too. Every other
thing that cannot be run (a link that loops or leads nowhere, a named file of no input
kind, two inputs meeting in one output folder) becomes an input with a `problem`: an
ERROR row in the summary, nothing written.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from redacto.inputs import BadInputError, input_kind


class BatchError(ValueError):
    """The batch as a whole cannot run (exit 2): nothing has been written."""


@dataclass(frozen=True)
class PlannedInput:
    """One file of the batch: where it is, where its outputs go under `--out`, and why it
    cannot be run (`problem`), if it cannot."""

    path: Path
    relative: PurePosixPath
    problem: str | None = None


@dataclass(frozen=True)
class Plan:
    """The batch's files in order, and how many files in its folders were passed over."""

    inputs: tuple[PlannedInput, ...]
    passed_over: int = 0


def plan_inputs(inputs: Sequence[Path], out_dir: Path) -> Plan:
    """Every file `inputs` name, in order, with its output folder under `out_dir`.

    Raises `BatchError` when `out_dir` is one of the input folders (its outputs would land
    beside the inputs) or is not a folder.
    """
    out_resolved = out_dir.resolve()
    if out_dir.exists() and not out_dir.is_dir():
        raise BatchError(f"{out_dir}: exists and is not a folder")
    walker = _Walker(out_resolved)
    found: list[PlannedInput] = []
    for given in inputs:
        if given.is_dir():
            if given.resolve() == out_resolved:
                raise BatchError(f"{out_dir}: the output folder is an input folder; choose another")
            found.extend(walker.folder(given, PurePosixPath(), frozenset({_identity(given)})))
        else:
            found.extend(walker.entry(given, PurePosixPath(given.name), named=True))
    return Plan(_apart(found), walker.passed_over)


class _Walker:
    """Reads folders recursively, following links, but never into a folder above itself."""

    def __init__(self, out_resolved: Path) -> None:
        self.out_resolved = out_resolved
        self.passed_over = 0

    def folder(
        self, folder: Path, relative: PurePosixPath, above: frozenset[tuple[int, int]]
    ) -> Iterator[PlannedInput]:
        try:
            names = sorted(entry.name for entry in os.scandir(folder))
        except OSError as error:
            yield PlannedInput(folder, relative, f"cannot read the folder ({_why(error)})")
            return
        for name in names:
            if name.startswith("."):
                self.passed_over += 1
                continue
            path = folder / name
            try:
                st = os.stat(path)
            except OSError as error:
                yield PlannedInput(path, relative / name, _link_problem(path, error))
                continue
            if stat.S_ISDIR(st.st_mode):
                identity = (st.st_dev, st.st_ino)
                if identity in above:
                    problem = "a symbolic link that loops back to a folder above it"
                    yield PlannedInput(path, relative / name, problem)
                elif path.resolve() != self.out_resolved:
                    yield from self.folder(path, relative / name, above | {identity})
                continue
            yield from self.entry(path, relative / name, named=False)

    def entry(self, path: Path, relative: PurePosixPath, *, named: bool) -> Iterator[PlannedInput]:
        """One file: an input, an input with a problem, or (in a folder) passed over."""
        try:
            st = os.stat(path)
        except OSError as error:
            yield PlannedInput(path, relative, _link_problem(path, error))
            return
        try:
            input_kind(path)
        except BadInputError as error:
            if named:
                yield PlannedInput(path, relative, str(error))
            else:
                self.passed_over += 1
            return
        if not stat.S_ISREG(st.st_mode):
            yield PlannedInput(path, relative, "not a regular file")
            return
        yield PlannedInput(path, relative)


def _apart(found: list[PlannedInput]) -> tuple[PlannedInput, ...]:
    """The inputs with each output folder used once: the same file met twice (a folder and
    a file in it) is kept once; different files meeting in one folder all become problems,
    as no choice between them would be the user's."""
    by_folder: dict[PurePosixPath, list[PlannedInput]] = defaultdict(list)
    kept: list[PlannedInput] = []
    for planned in found:
        same = [other for other in by_folder[planned.relative] if _same(other.path, planned.path)]
        if same:
            continue
        by_folder[planned.relative].append(planned)
        kept.append(planned)
    result = []
    for planned in kept:
        sharing = by_folder[planned.relative]
        if len(sharing) > 1 and planned.problem is None:
            names = ", ".join(str(other.path) for other in sharing)
            planned = replace(
                planned,
                problem=f"{len(sharing)} inputs map to the same output folder "
                f"{planned.relative}: {names}",
            )
        result.append(planned)
    return tuple(result)


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a == b


def _identity(folder: Path) -> tuple[int, int]:
    st = os.stat(folder)
    return (st.st_dev, st.st_ino)


def _link_problem(path: Path, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "a symbolic link that loops"
    if path.is_symlink():
        return "a symbolic link to nothing"
    return f"cannot read ({_why(error)})"


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__
