"""One way to open a model, for every face (redact, eval, serve, proxy, proofread, tuning).

`open_model(choice)` takes what a user types — a manifest name (`redacto-270m`,
`redacto-270m@int4`), a `.litertlm` path, an engine URI (`litertlm:PATH`, `scripted:FILE`),
or None for the embedded default — and returns the open engine. The engine is the whole
answer: `engine.identity` says which file answered and what policy it carries,
`engine.settings` how a run may use it, both read from the model itself (a built file's
sealed policy, `redacto.modelfile.policy`), never from the name it was given; the pipeline
applies them (`redacto.pipeline.policy`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from redacto.engines import Engine, EngineError, ModelIdentity, open_engine
from redacto.modelfile.manifest import ModelError

DEFAULT_MODEL = "redacto-270m"
"""The embedded default: Gemma 3 270M from PyPI with the committed LoRA adapter merged in
(`docs/tuning.md`). Its validator's PASS is not trusted (its manifest says why)."""

ModelChoice = Engine | str | None
"""An open engine (its opener keeps it open and closes it), or what `open_model` takes."""


def open_model(choice: str | None = None) -> Engine:
    """Open the model `choice` names (None: `DEFAULT_MODEL`).

    Raises `EngineError` when it cannot: a model that is not built yet (the message is the
    command that builds it), a missing file, an unknown name or scheme, a file the runtime
    refuses.
    """
    from redacto.models import resolve_model

    try:
        uri = resolve_model(choice or DEFAULT_MODEL)
    except ModelError as error:
        raise EngineError(str(error)) from error
    return open_engine(uri)


def using_model(choice: ModelChoice) -> AbstractContextManager[Engine]:
    """The engine to run on: an open one as it is (left open for its opener), or the one
    `open_model` opens for `choice`, closed when the block ends. Raises as `open_model`."""
    if isinstance(choice, Engine):
        return nullcontext(choice)
    return open_model(choice)


def chosen_identity(choice: ModelChoice) -> ModelIdentity:
    """Who answers, or would have: an open engine's identity, else the name as given, for
    the report of a run that ended before the model was open (its policy unread)."""
    if isinstance(choice, Engine):
        return choice.identity
    uri = choice or DEFAULT_MODEL
    return ModelIdentity(uri=uri, name=Path(uri.partition(":")[2] or uri).name)
