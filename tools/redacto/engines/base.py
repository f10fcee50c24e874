"""The one small interface every model runtime implements.

"Send this system prompt and this user message in a new conversation, give me the reply
(or its stream)." Each call is a fresh conversation and decoding is greedy: the phone's
NPU exposes no sampling knobs, so the workstation must not rely on any either.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Self

from redacto.document import Step
from redacto.modelfile.manifest import PipelineSettings
from redacto.report import ModelIdentity


class Decoding(StrEnum):
    """What an `on_text` callback tells the engine after each piece of the reply."""

    CONTINUE = "continue"
    STOP = "stop"
    """The caller has what it needs, or knows the rest is unusable: stop generating."""


OnText = Callable[[str], Decoding | None]
"""Receives each piece as it is generated; `Decoding.STOP` ends the reply there."""


class EngineError(RuntimeError):
    """The engine could not produce a reply (load failure, runtime error, script exhausted)."""


class MissingExtraError(EngineError):
    """An engine's SDK is not installed; the message names the extra to install."""

    def __init__(self, engine: str, extra: str, module: str) -> None:
        super().__init__(
            f"the {engine} engine needs the Python module '{module}': "
            f"install the '{extra}' extra (pip install -e '.[{extra}]')"
        )


class ConstraintUnsupportedError(EngineError):
    """The engine was asked to constrain a reply and cannot: the caller should not have
    asked (see `Engine.supports_constraints`)."""


class ScoringUnsupportedError(EngineError):
    """The engine was asked to score replies and cannot (see `Engine.supports_scoring`)."""


@dataclass(frozen=True)
class ReplyConstraint:
    """The whole reply must match `pattern`, a regular expression (`re.fullmatch`).

    Written in the syntax Python's `re`, Rust's `regex` (LiteRT-LM's LLGuidance) and Java's
    `Pattern` share; `redacto.pipeline.constraint` builds them from the page.
    """

    pattern: str


@dataclass(frozen=True)
class ChatRequest:
    """One call: a fresh conversation with a system prompt and one user message."""

    step: Step
    system: str
    user: str
    max_output_tokens: int = 512
    constraint: ReplyConstraint | None = None
    """Decode only replies that match it. Only for an engine whose `supports_constraints`
    is true; any other refuses the request with `ConstraintUnsupportedError`."""


@dataclass(frozen=True)
class ReplyStats:
    """What one call cost. Token counts are None where the runtime cannot say."""

    ms: float
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    ttft_ms: float | None = None
    stopped: bool = False
    """The caller stopped decoding before the model ended its reply."""


@dataclass(frozen=True)
class Reply:
    """A finished reply: the whole text and its statistics."""

    text: str
    stats: ReplyStats


@dataclass(frozen=True)
class ScoreRequest:
    """How likely each candidate is as the start of the reply to one fresh call.

    The call is the one `ChatRequest(step, system, user)` makes: the same conversation,
    rendered by the same chat template; nothing is generated.
    """

    step: Step
    system: str
    user: str
    candidates: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.candidates or not all(self.candidates):
            raise ValueError("a score request needs at least one candidate, none of them empty")


@dataclass(frozen=True)
class CandidateScore:
    """One candidate's log-likelihood as the reply's beginning."""

    text: str
    log_prob: float
    """Natural log of P(the reply starts with `text`): the sum of its tokens' log-probabilities
    (0 is certain, more negative is less likely)."""
    tokens: int | None = None
    """How many tokens the candidate is, where the runtime says."""


@dataclass(frozen=True)
class Scores:
    """Every candidate of a `ScoreRequest`, in request order, and what scoring cost."""

    candidates: tuple[CandidateScore, ...]
    stats: ReplyStats

    def log_prob(self, text: str) -> float:
        """The log-likelihood of the candidate `text` (a KeyError if it was not asked)."""
        for candidate in self.candidates:
            if candidate.text == text:
                return candidate.log_prob
        raise KeyError(text)


class Engine(ABC):
    """A model runtime. Implementations must open a new conversation for every call."""

    identity: ModelIdentity
    settings: PipelineSettings = PipelineSettings()
    """How a run may use this model's answers (`run_pipeline` applies them): what the model
    itself carries — a `.litertlm` file's verified policy (`redacto.modelfile.policy`), a
    script's declared settings — never what its name suggests. An engine that knows of none
    keeps these fail-closed defaults: its validator's PASS is not trusted."""
    supports_constraints: bool = False
    """Whether `complete` can honour `ChatRequest.constraint` (constrained decoding)."""
    supports_scoring: bool = False
    """Whether `score` can say how likely given replies are (log-likelihoods)."""

    @abstractmethod
    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        """Run one call; `on_text` receives each piece of the reply as it is generated.

        When `on_text` returns `Decoding.STOP` the engine stops decoding at once and returns
        the reply up to and including that piece, with `stats.stopped` set. A request with
        a `constraint` is refused (`ConstraintUnsupportedError`) unless
        `supports_constraints`.
        """

    def score(self, request: ScoreRequest) -> Scores:
        """The log-likelihood of each candidate as the beginning of the reply to the call
        `request` describes, in a fresh conversation; nothing is generated.

        Only for an engine whose `supports_scoring` is true; any other raises
        `ScoringUnsupportedError`, so a caller never mistakes "cannot" for a score.
        """
        raise ScoringUnsupportedError(
            f"the engine {self.identity.name!r} cannot score replies; "
            'use the answer verdict (`validator_verdict = "answer"`)'
        )

    def refuse_constraint(self, request: ChatRequest) -> None:
        """Raise `ConstraintUnsupportedError` for a constrained request: for engines that
        cannot constrain decoding, so a constraint is never silently ignored."""
        if request.constraint is not None and not self.supports_constraints:
            raise ConstraintUnsupportedError(
                f"the engine {self.identity.name!r} cannot constrain its replies; "
                "run it with constrained decoding off"
            )

    def close(self) -> None:  # noqa: B027 - optional hook, most engines hold nothing
        """Release the runtime. Safe to call more than once."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
