"""Files generated from the repository's sources and checked in: the app's Kotlin constants.

`redacto prompts kotlin` and `redacto rules kotlin` render one file each, for a user who edits
a prompt or a rule; CI checks them with every other generated file (`python -m
devtools.generated --check`, outside the wheel), so a source edited without regenerating its
file fails the build.
"""

from __future__ import annotations

from pathlib import Path


class StaleGeneratedFileError(RuntimeError):
    """A committed generated file does not match what its sources render."""


def write_generated(text: str, out: Path) -> bool:
    """Write `text` to `out` unless it already holds it; return whether the file changed."""
    if out.is_file() and out.read_text(encoding="utf-8") == text:
        return False
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return True


def check_generated(
    text: str,
    out: Path,
    sources: str,
    command: str,
    error: type[StaleGeneratedFileError] = StaleGeneratedFileError,
) -> None:
    """Raise `error` unless `out` holds exactly `text`; the message names `command`."""
    if not out.is_file():
        raise error(f"{out} is missing: run `{command}`")
    if out.read_text(encoding="utf-8") != text:
        raise error(
            f"{out} is stale: {sources} changed since it was generated; "
            f"run `{command}` and commit the result"
        )
