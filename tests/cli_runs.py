"""Shared helpers for tests that run `redacto redact` through the CLI with a scripted model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import Result
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from redacto.cli import app
from scripted_models import TRUSTING_TABLE


def digest(path: Path) -> str:
    """The sha256 of a file's bytes: a test's proof that an input was left as it was."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def all_files(root: Path) -> dict[Path, str]:
    """Every file under `root` with its digest: what a run wrote, or did not."""
    return {p: digest(p) for p in root.rglob("*") if p.is_file()}


def timeless(value: object) -> object:
    """A report (as JSON) without its timings (`ms`, `ttft_ms`): two runs differ only there."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in {"ms", "ttft_ms"}}
    if isinstance(value, list):
        return [timeless(item) for item in value]
    return value


def redact(*args: str | Path) -> Result:
    """`redacto redact ARGS…` in-process, as a user would type it."""
    return CliRunner().invoke(app, ["redact", *map(str, args)])


def script(tmp_path: Path, **replies: list[str]) -> str:
    """A scripted engine URI answering each step from `replies` (DESIGN.md's `scripted:FILE`),
    a model whose declared policy trusts its validator (`scripted_models`)."""
    path = tmp_path / "replies.json"
    path.write_text(json.dumps({**replies, **TRUSTING_TABLE}), encoding="utf-8")
    return f"scripted:{path}"


SHORT_PAGE = ("Patient: Jane Smith", "Email jane.doe@example.com or 408-555-0199")


def render_short_page(path: Path, lines: tuple[str, ...] = SHORT_PAGE) -> Path:
    """A small page of real rendered text (two lines); short because the tiny test model's
    512-token vocabulary spends ~12 tokens per element and its KV cache holds 1,024."""
    from redacto.ocr.synthetic import REGULAR_FONTS, load_font

    image = Image.new("RGB", (1100, 150), "white")
    draw = ImageDraw.Draw(image)
    font = load_font(REGULAR_FONTS[0], 30)
    for top, line in zip((25, 85), lines, strict=False):
        draw.text((30, top), line, fill="black", font=font)
    image.save(path)
    return path
