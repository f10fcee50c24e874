"""What the Python API's tests share: scripted models whose opens and closes are counted.

`CountedModels` is an engine scheme (`counted:NAME`) registered in the project's own engine
registry: each open builds a `ScriptedEngine` (the project's test double) from the replies
it was given and counts it, and each engine counts its closes. No mock library: the
`Redactor` opens it by URI, as it opens any model.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field

from redacto.engines import Engine
from redacto.engines.scripted import ScriptedEngine
from scripted_models import TRUSTING_TABLE

TEXT = "Patient Jane Smith\r\nCall 408-555-0199 about the fracture.\r\n"
"""A short letter with Windows line endings: a name the model names, a phone the rules find."""
TEXT_REPLIES: dict[str, list[str]] = {
    "classify": ["DOCUMENT_TYPE: note\nCATEGORY: Medical"],
    "detect": ["NAME: Jane Smith"],
    "redact": ["Patient [NAME_1]\nCall [PHONE_1] about the fracture.\n"],
    "validate": ["PASS"],
}


class CountedEngine(ScriptedEngine):
    """A scripted engine that counts how often it is closed."""

    closes = 0

    def close(self) -> None:
        self.closes += 1


@dataclass
class CountedModels:
    """The `counted:` scheme: every open a fresh `CountedEngine`, kept in `opened`."""

    replies: Mapping[str, object]
    opened: list[CountedEngine] = field(default_factory=list)

    def __call__(self, uri: str, target: str) -> Engine:
        raw = copy.deepcopy({**self.replies, **TRUSTING_TABLE})
        engine = CountedEngine.from_mapping(raw, uri=uri)
        assert isinstance(engine, CountedEngine)
        self.opened.append(engine)
        return engine
