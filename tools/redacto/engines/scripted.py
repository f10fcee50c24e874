"""`scripted:FILE` — replies from a JSON file, for tests and golden vectors.

The file is `{"classify": [...], "detect": [...], "redact": [...], "validate": [...]}`;
each list is consumed in call order for its step. Running out is an error, not a silent
empty reply: a test that makes one call too many must fail. So is a canned reply that a
constrained request's pattern forbids: a real model could not have given it, so a test
whose pattern rejects the right answer fails instead of passing on a reply that cannot be.

An optional `"scores": {"validate": [{"PASS": -0.1, "FAIL": -2.3}, ...]}` makes the engine
score (`supports_scoring`): each `score` call takes the step's next table of canned
log-likelihoods, which must name every candidate asked. Without it the engine cannot score
and says so (`ScoringUnsupportedError`), as a runtime without scoring would.

An optional `"pipeline": {...}` is the script's own `[pipeline]` table (`PipelineSettings`,
e.g. `{"trust_validator_pass": true}`): a script is its own model, so its policy travels in
its file as a built model's does. Without one it runs the fail-closed defaults.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from pydantic import ValidationError

from redacto.document import Step
from redacto.engines.base import (
    CandidateScore,
    ChatRequest,
    Decoding,
    Engine,
    EngineError,
    ModelIdentity,
    OnText,
    Reply,
    ReplyStats,
    ScoreRequest,
    Scores,
)
from redacto.modelfile.manifest import PipelineSettings
from redacto.report import PolicyState

_LINE_PIECE = re.compile(r"[^\n]*\n|[^\n]+$")
SCORES_KEY = "scores"
"""The key of a scripted file's canned score tables (`{"scores": {"validate": [...]}}`)."""
PIPELINE_KEY = "pipeline"
"""The key of a scripted file's own `[pipeline]` settings (`{"pipeline": {...}}`)."""


def _score_tables(raw: object) -> dict[Step, list[dict[str, float]]]:
    """Read `{"validate": [{"PASS": -0.1, "FAIL": -2.3}, ...]}`: per step, tables in call order."""
    if not isinstance(raw, dict) or not set(raw) <= {step.value for step in Step}:
        raise EngineError("scripted scores must be an object keyed by step")
    tables: dict[Step, list[dict[str, float]]] = {}
    for key, values in raw.items():
        if not isinstance(values, list) or not all(
            isinstance(table, dict)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in table.values())
            for table in values
        ):
            raise EngineError(f"scripted scores for {key!r} must be a list of {{text: number}}")
        tables[Step(key)] = [{str(k): float(v) for k, v in table.items()} for table in values]
    return tables


def _declared_settings(raw: object) -> PipelineSettings:
    """A script's own `[pipeline]` table, validated as a manifest's is."""
    try:
        return PipelineSettings.model_validate(raw)
    except ValidationError as error:
        raise EngineError(f"scripted pipeline settings are invalid: {error}") from error


class ScriptedEngine(Engine):
    """Answers each step from its own queue of canned replies, streaming them line by line."""

    supports_constraints = True

    def __init__(
        self,
        replies: dict[Step, list[str]],
        uri: str = "scripted:<memory>",
        scores: dict[Step, list[dict[str, float]]] | None = None,
        settings: PipelineSettings | None = None,
    ) -> None:
        self._queues = {step: list(replies.get(step, [])) for step in Step}
        self.requests: list[ChatRequest] = []
        self.settings = settings or PipelineSettings()
        policy = PolicyState.ABSENT if settings is None else PolicyState.DECLARED
        self.identity = ModelIdentity(uri=uri, name="scripted", policy=policy)
        self.supports_scoring = scores is not None
        self._score_queues = {step: list((scores or {}).get(step, [])) for step in Step}
        self.score_requests: list[ScoreRequest] = []

    @classmethod
    def from_file(cls, path: str | Path, uri: str | None = None) -> ScriptedEngine:
        path = Path(path)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise EngineError(f"cannot read scripted replies from {path}: {error}") from error
        return cls.from_mapping(raw, uri=uri or f"scripted:{path}")

    @classmethod
    def from_mapping(cls, raw: object, uri: str = "scripted:<memory>") -> ScriptedEngine:
        if not isinstance(raw, dict):
            raise EngineError("scripted replies must be a JSON object keyed by step")
        raw = dict(raw)
        scores = _score_tables(raw.pop(SCORES_KEY)) if SCORES_KEY in raw else None
        settings = _declared_settings(raw.pop(PIPELINE_KEY)) if PIPELINE_KEY in raw else None
        unknown = set(raw) - {step.value for step in Step}
        if unknown:
            raise EngineError(f"scripted replies name unknown steps: {sorted(unknown)}")
        replies: dict[Step, list[str]] = {}
        for key, values in raw.items():
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise EngineError(f"scripted replies for {key!r} must be a list of strings")
            replies[Step(key)] = values
        return cls(replies, uri=uri, scores=scores, settings=settings)

    def remaining(self, step: Step) -> int:
        """How many replies are left for `step` (tests assert the script was used up)."""
        return len(self._queues[step])

    def remaining_scores(self, step: Step) -> int:
        """How many score tables are left for `step`."""
        return len(self._score_queues[step])

    def score(self, request: ScoreRequest) -> Scores:
        if not self.supports_scoring:
            return super().score(request)
        started = time.perf_counter()
        self.score_requests.append(request)
        queue = self._score_queues[request.step]
        if not queue:
            raise EngineError(f"scripted engine has no scores left for step {request.step.value!r}")
        table = queue.pop(0)
        missing = [c for c in request.candidates if c not in table]
        if missing:
            raise EngineError(f"scripted scores for {request.step.value!r} lack {missing}")
        scored = tuple(CandidateScore(text=c, log_prob=table[c]) for c in request.candidates)
        ms = (time.perf_counter() - started) * 1000
        return Scores(candidates=scored, stats=ReplyStats(ms=ms))

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        started = time.perf_counter()
        self.requests.append(request)
        queue = self._queues[request.step]
        if not queue:
            raise EngineError(f"scripted engine has no reply left for step {request.step.value!r}")
        text = queue.pop(0)
        constraint = request.constraint
        if constraint is not None and re.fullmatch(constraint.pattern, text) is None:
            raise EngineError(
                f"scripted {request.step.value} reply does not match the request's "
                "constraint: a constrained model could not have answered it"
            )
        stopped = False
        if on_text is not None:
            # Lines end at "\n" only, as in the Kotlin engine (splitlines() also breaks at "\r").
            pieces = _LINE_PIECE.findall(text)
            for count, piece in enumerate(pieces, 1):
                if on_text(piece) is Decoding.STOP:
                    stopped = count < len(pieces)
                    text = "".join(pieces[:count])
                    break
        ms = (time.perf_counter() - started) * 1000
        return Reply(text=text, stats=ReplyStats(ms=ms, stopped=stopped))
