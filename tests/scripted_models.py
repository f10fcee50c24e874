"""Scripted models for tests whose run may end PASS.

A script is its own model and carries its own policy (`redacto.engines.scripted`): without
a `"pipeline"` table it is an unknown model and a PASS ends NEEDS_REVIEW, as any model file
without a verified policy does. A test about what the pipeline does on a PASS uses one of
these, whose declared policy trusts its validator.
"""

from __future__ import annotations

from collections.abc import Mapping

from redacto.engines.scripted import PIPELINE_KEY, ScriptedEngine
from redacto.modelfile.manifest import PipelineSettings

TRUSTING = PipelineSettings(trust_validator_pass=True)
"""A model's policy that trusts its validator's PASS."""
TRUSTING_TABLE = {PIPELINE_KEY: {"trust_validator_pass": True}}
"""The same as a script file's `"pipeline"` table."""


def trusting(replies: Mapping[str, object], uri: str = "scripted:<memory>") -> ScriptedEngine:
    """`ScriptedEngine.from_mapping(replies)` with a policy that trusts its validator."""
    return ScriptedEngine.from_mapping({**replies, **TRUSTING_TABLE}, uri=uri)
