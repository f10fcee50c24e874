"""Shared helpers for tests that run `redacto redact` through the CLI with a scripted model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from redacto.cli import app
from scripted_models import TRUSTING_TABLE


def digest(path: Path) -> str:
    """The sha256 of a file's bytes: a test's proof that an input was left as it was."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def all_files(root: Path) -> dict[Path, str]:
    """Every file under `root` with its digest: what a run wrote, or did not."""
    return {p: digest(p) for p in root.rglob("*") if p.is_file()}


def redact(*args: str | Path) -> Result:
    """`redacto redact ARGS…` in-process, as a user would type it."""
    return CliRunner().invoke(app, ["redact", *map(str, args)])


def script(tmp_path: Path, **replies: list[str]) -> str:
    """A scripted engine URI answering each step from `replies` (DESIGN.md's `scripted:FILE`),
    a model whose declared policy trusts its validator (`scripted_models`)."""
    path = tmp_path / "replies.json"
    path.write_text(json.dumps({**replies, **TRUSTING_TABLE}), encoding="utf-8")
    return f"scripted:{path}"
