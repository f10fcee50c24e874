"""An engine for work that must make no model call at all.

A person's review reruns only the deterministic redact step, and training examples are
rendered from gold answers; both need a `StepContext`, whose steps could call a model. This
engine makes any such call an error that names the work, so a step that reaches for a model
where none may be used fails loudly instead of answering.
"""

from __future__ import annotations

from redacto.engines.base import ChatRequest, Engine, EngineError, ModelIdentity, OnText, Reply


class NoModelEngine(Engine):
    """Refuses every call: `complete` raises `EngineError` saying which work made it."""

    def __init__(self, work: str) -> None:
        self.work = work
        self.identity = ModelIdentity(uri=f"none:<{work}>", name="no model")

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        raise EngineError(f"{self.work} makes no model calls; a {request.step.value} call was made")
