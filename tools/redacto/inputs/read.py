"""From a path to an input: its kind by file name, the checks before any slow work, the read.

`check_input` runs first and also checks that the output folder can be written, so that is
never found after minutes of model time; `read_input` then reads the file as its kind does.
Both raise `BadInputError` (nothing written). The input file is only ever read.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from redacto.document import Mode
from redacto.inputs.base import OUTPUTS, BadInputError, InputFile, ReadOptions, same_file
from redacto.inputs.image import ImageInput
from redacto.inputs.pdf import PdfInput
from redacto.inputs.text import TextInput

INPUT_KINDS: tuple[type[InputFile], ...] = (ImageInput, TextInput, PdfInput)
"""Every kind of input, each known by its suffixes."""


def input_kind(path: Path) -> type[InputFile]:
    """The kind of input a file is, from its name; anything else is bad input."""
    suffix = path.suffix.lower()
    for kind in INPUT_KINDS:
        if suffix in kind.suffixes:
            return kind
    known = ", ".join(sorted(s for kind in INPUT_KINDS for s in kind.suffixes))
    raise BadInputError(f"{path}: unsupported file type {suffix or '(none)'}; use one of {known}")


def input_mode(path: Path) -> Mode:
    """Image (photos and PDFs) or text, from the file name; anything else is bad input."""
    return input_kind(path).mode


def read_input(path: Path, options: ReadOptions | None = None) -> InputFile:
    """Read `path` as its kind: OCR or `--elements` for a photo, the text layer or OCR per
    page for a PDF, UTF-8 for text.

    Raises `BadInputError` for unreadable input, `EngineError` when OCR itself fails.
    """
    return input_kind(path).read(path, options or ReadOptions())


def read_input_bytes(data: bytes, name: Path, options: ReadOptions | None = None) -> InputFile:
    """Read an input held in memory (an upload) as its kind, by `name`'s suffix: the same
    checks and limits as `read_input`, and no file written or read for it.

    Raises `BadInputError` for unreadable input, `EngineError` when OCR itself fails.
    """
    return input_kind(name).from_bytes(data, name, options or ReadOptions())


def check_input(path: Path, out_dir: Path, elements_path: Path | None = None) -> Mode:
    """Cheap checks before any slow work: the file exists, its type, where outputs go."""
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    kind = input_kind(path)
    if elements_path is not None:
        if not kind.takes_elements:
            raise BadInputError(f"--elements gives word boxes of a photo; the input is {kind.noun}")
        if not elements_path.is_file():
            raise BadInputError(f"{elements_path}: no such file")
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInputError(f"{out_dir}: exists and is not a folder")
    for name in OUTPUTS:
        if same_file(out_dir / name, path):
            raise BadInputError(
                f"{out_dir / name} is the input itself (the same file or a link to it): "
                "the output would overwrite the input; choose another --out, or remove it"
            )
    _check_writable(out_dir)
    return kind.mode


def _check_writable(out_dir: Path) -> None:
    """The output folder, or the nearest folder that would hold it, takes a new file.

    A temporary file is made and removed at once: permission bits do not say enough (root
    ignores them, a read-only mount does not show in them).
    """
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise BadInputError(f"{out_dir}: cannot be created, {existing} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        raise BadInputError(
            f"{out_dir}: cannot write there ({error.strerror or type(error).__name__})"
        ) from error
