"""Engines behind one interface, chosen by URI scheme (`litertlm:PATH`, `scripted:FILE`, …).

The registry is explicit: each scheme maps to a factory that imports its SDK lazily, so
`import redacto` never pulls in a heavy runtime that a run does not use.
"""

from __future__ import annotations

from collections.abc import Callable

from redacto.engines.base import (
    CandidateScore,
    ChatRequest,
    ConstraintUnsupportedError,
    Decoding,
    Engine,
    EngineError,
    MissingExtraError,
    ModelIdentity,
    OnText,
    Reply,
    ReplyConstraint,
    ReplyStats,
    ScoreRequest,
    Scores,
    ScoringUnsupportedError,
)

__all__ = [
    "CandidateScore",
    "ChatRequest",
    "ConstraintUnsupportedError",
    "Decoding",
    "Engine",
    "EngineError",
    "MissingExtraError",
    "ModelIdentity",
    "OnText",
    "Reply",
    "ReplyConstraint",
    "ReplyStats",
    "ScoreRequest",
    "Scores",
    "ScoringUnsupportedError",
    "open_engine",
    "register_engine",
]

EngineFactory = Callable[[str, str], Engine]
"""Builds an engine from (full URI, the part after the scheme)."""

_REGISTRY: dict[str, EngineFactory] = {}


def register_engine(scheme: str, factory: EngineFactory) -> None:
    """Make `scheme:` URIs open engines built by `factory`."""
    _REGISTRY[scheme] = factory


def open_engine(uri: str) -> Engine:
    """Open the engine a URI names, e.g. `litertlm:build/models/tiny/model.litertlm`."""
    scheme, sep, rest = uri.partition(":")
    if not sep or not rest:
        raise EngineError(f"engine URI must look like SCHEME:TARGET, got {uri!r}")
    factory = _REGISTRY.get(scheme)
    if factory is None:
        known = ", ".join(sorted(_REGISTRY))
        raise EngineError(f"unknown engine scheme {scheme!r}; known: {known}")
    return factory(uri, rest)


def _scripted(uri: str, target: str) -> Engine:
    from redacto.engines.scripted import ScriptedEngine

    return ScriptedEngine.from_file(target, uri=uri)


def _litertlm(uri: str, target: str) -> Engine:
    from redacto.engines.litertlm import LiteRtLmEngine

    return LiteRtLmEngine(target, uri=uri)


register_engine("scripted", _scripted)
register_engine("litertlm", _litertlm)
