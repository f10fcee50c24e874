"""Where the package finds the files it ships: the prompts and the model manifests.

The repository keeps them at its top level (`prompts/`, `models/`: one source for the phone
and the workstation). A wheel carries a copy inside the package, `redacto/_data/prompts`
and `redacto/_data/models` (`setup.py` copies them in at build time), found here through
`importlib.resources`; a source checkout (an editable install, the tests) has no such copy
and reads the repository's own folders, so an edited prompt shows at once.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path
from typing import Literal

ShippedFolder = Literal["prompts", "models", "lexicon"]

SOURCE_ROOT = Path(__file__).resolve().parents[3]
"""The repository root when the package runs from a checkout (this file is
`tools/redacto/host/resources.py` in it)."""


def checkout_root() -> Path | None:
    """The repository this package runs from, or None for an installed wheel."""
    if (SOURCE_ROOT / "pyproject.toml").is_file() and (SOURCE_ROOT / "tools").is_dir():
        return SOURCE_ROOT
    return None


def shipped_dir(name: ShippedFolder) -> Path:
    """The folder of shipped files: the wheel's copy, else the checkout's own folder."""
    packaged = files("redacto").joinpath("_data", name)
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    root = checkout_root()
    if root is not None and (root / name).is_dir():
        return root / name
    raise FileNotFoundError(
        f"the redacto package holds no {name}/ folder (redacto/_data/{name} in a wheel, "
        f"{name}/ beside tools/ in a checkout): reinstall it"
    )


def data_home() -> Path:
    """Where an installed package keeps what it builds (models): `$XDG_DATA_HOME/redacto`,
    by default `~/.local/share/redacto`. A checkout uses its git-ignored `build/` instead."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "redacto"


def in_checkout(relative: str | Path) -> Path:
    """A path inside the source checkout (the generated Kotlin files live there).

    Raises `FileNotFoundError` for an installed wheel: it has no checkout to write into.
    """
    root = checkout_root()
    if root is None:
        raise FileNotFoundError(
            f"{relative} lies in the source checkout, and this redacto is an installed "
            "package: run it from a checkout, or say where with --out"
        )
    return root / relative


def portable(uri: str) -> str:
    """An engine URI (or a path) as a report keeps it: a file inside the checkout relative
    to it (`litertlm:build/models/…`), so a committed report names no machine's folders.
    Anything else is left as it is."""
    root = checkout_root()
    if root is None:
        return uri
    scheme, sep, rest = uri.partition(":")
    target = rest if sep and scheme.isidentifier() else uri
    path = Path(target)
    if not path.is_absolute() or not path.is_relative_to(root):
        return uri
    relative = str(path.relative_to(root))
    return f"{scheme}:{relative}" if target is rest else relative
