"""The one build step pyproject.toml cannot say: the wheel carries `prompts/` and `models/`.

They stay at the repository's top level (one source for the phone and the workstation), so
`build_py` copies them into the built package as `redacto/_data/prompts` and
`redacto/_data/models`, where `redacto.host.resources` finds them with `importlib.resources`.
An editable install copies nothing: it reads the checkout's own folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = {
    "prompts": ("**/*",),
    # Manifests, the chat templates and tiny corpus they name, the committed LoRA adapter.
    "models": ("*.toml", "*.txt", "chat/*", "adapters/**/*", "ner/*"),
    # The residual check's dictionaries, their manifest and licence notices.
    "lexicon": ("*",),
}


class BuildPyWithData(build_py):
    """`build_py`, then the shipped folders copied under `redacto/_data/`."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "redacto" / "_data"
        for folder, patterns in SHIPPED.items():
            for pattern in patterns:
                for source in sorted((ROOT / folder).glob(pattern)):
                    if source.is_file():
                        copy = target / folder / source.relative_to(ROOT / folder)
                        copy.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(source, copy)


setup(cmdclass={"build_py": BuildPyWithData})
