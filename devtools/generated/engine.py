"""Render, compare, write: the one loop behind every committed generated file.

A `Generated` entry names a family of files and a `render` that returns each file's content
(repository-relative path → text or bytes). `differences` compares what is committed with
what renders now and says, for each file that differs, how (a short diff hint); `write`
brings the files in line and removes left-over ones. Nothing here knows what a file holds.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

Content = str | bytes
Rendered = dict[str, Content]

ROOT = Path(__file__).resolve().parents[2]
"""The repository root, which every output path is relative to."""

HINT_LINES = 8
"""How many lines of a unified diff a stale file's hint shows."""


@dataclass(frozen=True)
class Generated:
    """One family of committed files rendered from the repository's sources.

    `render` returns every file's content, `sources` says in a few words what they are
    rendered from. `strays` is a glob (relative to the root) whose files must all be
    outputs: one that `render` no longer makes is stale, and `write` removes it. `same`
    compares a committed file with its rendering where exact bytes are too strict (numbers a
    CPU may round differently); `write` then leaves a file it judges the same untouched.
    `unchecked` says why `--check` does not compare the family (too slow for every CI run, or
    not reproducible byte for byte); `--write` still writes it.
    """

    name: str
    sources: str
    render: Callable[[], Rendered]
    strays: str | None = None
    same: Callable[[Content, Content], bool] | None = None
    unchecked: str = ""


@dataclass(frozen=True)
class Difference:
    """A committed file that is not what its entry renders now."""

    path: str
    problem: str
    """`missing`, `stale` or `left over` (no longer rendered)."""
    hint: str = ""


def _read(path: Path, like: Content) -> Content:
    return path.read_text(encoding="utf-8") if isinstance(like, str) else path.read_bytes()


def _is_same(entry: Generated, stored: Content, rendered: Content) -> bool:
    if entry.same is not None:
        return entry.same(stored, rendered)
    return stored == rendered


def diff_hint(stored: Content, rendered: Content) -> str:
    """A few lines saying how `stored` differs from `rendered`: a unified diff for text, the
    sizes and the first differing byte for bytes."""
    if isinstance(stored, str) and isinstance(rendered, str):
        lines = difflib.unified_diff(
            stored.splitlines(), rendered.splitlines(), "committed", "rendered", n=0, lineterm=""
        )
        shown = [line[:120] for line in list(lines)[2 : 2 + HINT_LINES]]
        return "\n".join(shown)
    old = stored.encode("utf-8") if isinstance(stored, str) else stored
    new = rendered.encode("utf-8") if isinstance(rendered, str) else rendered
    pairs = zip(old, new, strict=False)  # the shorter one's end is a difference too
    first = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(old), len(new)))
    return (
        f"committed {len(old)} bytes, rendered {len(new)} bytes, first difference at byte {first}"
    )


def _strays(entry: Generated, rendered: Iterable[str], root: Path) -> list[str]:
    if entry.strays is None:
        return []
    made = set(rendered)
    found = (path.relative_to(root).as_posix() for path in root.glob(entry.strays))
    return sorted(path for path in found if path not in made)


def differences(entry: Generated, root: Path = ROOT) -> list[Difference]:
    """Each of `entry`'s files under `root` that differs from what it renders now."""
    rendered = entry.render()
    found = []
    for path, content in rendered.items():
        committed = root / path
        if not committed.is_file():
            found.append(Difference(path, "missing"))
            continue
        stored = _read(committed, content)
        if not _is_same(entry, stored, content):
            found.append(Difference(path, "stale", diff_hint(stored, content)))
    found.extend(Difference(path, "left over") for path in _strays(entry, rendered, root))
    return found


def write(entry: Generated, root: Path = ROOT) -> list[str]:
    """Write each of `entry`'s files that differs, remove left-over ones; return the paths
    that changed (a removed one as `path (removed)`)."""
    rendered = entry.render()
    changed = []
    for path, content in rendered.items():
        target = root / path
        if target.is_file() and _is_same(entry, _read(target, content), content):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_bytes(content)
        changed.append(path)
    for path in _strays(entry, rendered, root):
        (root / path).unlink()
        changed.append(f"{path} (removed)")
    return changed
