"""`litertlm:PATH` — a `.litertlm` file run by LiteRT-LM on CPU, the phone's own runtime.

The engine is loaded once; every `complete()` opens a new conversation (so no call sees
another's text), decodes greedily (within the request's constraint, if any), streams the
reply into `on_text`, and closes the conversation before returning, whatever happens.
`score()` says how likely given replies are to the same call, without generating.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redacto.engines.base import (
    CandidateScore,
    ChatRequest,
    Decoding,
    Engine,
    EngineError,
    MissingExtraError,
    ModelIdentity,
    OnText,
    Reply,
    ReplyStats,
    ScoreRequest,
    Scores,
)

NO_CACHE = ":nocache"
THREADS_ENV = "REDACTO_LITERTLM_THREADS"
CACHE_ENV = "REDACTO_LITERTLM_CACHE_DIR"


@dataclass(frozen=True)
class BenchmarkFigures:
    """LiteRT-LM's own measurements of the last call."""

    ttft_s: float
    prefill_tokens: int
    prefill_tokens_per_s: float
    decode_tokens: int
    decode_tokens_per_s: float


def default_threads() -> int:
    """CPU threads for inference: `REDACTO_LITERTLM_THREADS`, else up to 4 cores."""
    configured = os.environ.get(THREADS_ENV)
    if configured:
        return max(1, int(configured))
    return max(1, min(4, os.cpu_count() or 1))


def default_cache_dir() -> str:
    """XNNPACK's weight cache: off unless `REDACTO_LITERTLM_CACHE_DIR` names a folder.

    Left to itself LiteRT-LM writes a cache as large as the model beside the model file;
    models live in a build folder that should hold only what the build made.
    """
    return os.environ.get(CACHE_ENV) or NO_CACHE


def _drain(stream: Any) -> None:
    try:
        for _ in stream:
            pass
    except RuntimeError:
        pass


def _import_litert_lm() -> Any:
    try:
        import litert_lm
    except ImportError as error:
        raise MissingExtraError("litertlm", "litert", "litert_lm") from error
    return litert_lm


class LiteRtLmEngine(Engine):
    """Runs a `.litertlm` file with LiteRT-LM on CPU, one fresh conversation per call.

    A request's `constraint` is applied with LiteRT-LM's constrained decoding (LLGuidance,
    `ResponseFormat.regex`): only tokens that keep the reply a possible match are decoded.
    """

    supports_constraints = True
    supports_scoring = True

    def __init__(
        self,
        path: str,
        uri: str,
        threads: int | None = None,
        cache_dir: str | None = None,
        max_num_tokens: int | None = None,
    ) -> None:
        model_file = Path(path).expanduser().resolve()
        if not model_file.is_file():
            raise EngineError(
                f"no model file at {model_file}; build one with `redacto model build NAME` "
                f"(see `redacto model list`)"
            )
        cache = cache_dir or default_cache_dir()
        if cache != NO_CACHE and Path(cache).resolve() == model_file.parent:
            raise EngineError("the LiteRT-LM cache must not live in the model's folder")
        if cache != NO_CACHE:
            Path(cache).mkdir(parents=True, exist_ok=True)

        self._litert_lm = _import_litert_lm()
        self._litert_lm.set_min_log_severity(self._litert_lm.LogSeverity.ERROR)
        self.threads = threads or default_threads()
        self.model_file = model_file
        started = time.perf_counter()
        try:
            self._engine = self._litert_lm.Engine(
                str(model_file),
                backend=self._litert_lm.Backend.CPU(thread_count=self.threads),
                max_num_tokens=max_num_tokens,
                cache_dir=cache,
                enable_benchmark=True,
            )
        except RuntimeError as error:
            raise EngineError(f"LiteRT-LM could not load {model_file.name}: {error}") from error
        self.load_s = time.perf_counter() - started
        self.last_benchmark: BenchmarkFigures | None = None
        from redacto.modelfile.policy import check_model_file

        # The run's policy is the one sealed in the file, whatever it is called; the digests
        # come from the build record while it still matches, so only a copy is hashed.
        check = check_model_file(model_file)
        self.settings = check.settings
        self.identity = ModelIdentity(
            uri=uri,
            name=model_file.name,
            sha256=check.sha256,
            manifest=check.policy.manifest if check.policy else None,
            quant=check.policy.quant if check.policy else None,
            policy=check.state,
        )

    def complete(self, request: ChatRequest, on_text: OnText | None = None) -> Reply:
        if self._engine is None:
            raise EngineError("the LiteRT-LM engine is closed")
        litert_lm = self._litert_lm
        started = time.perf_counter()
        first_piece_at: float | None = None
        pieces: list[str] = []
        stopped = False
        try:
            with self._engine.create_conversation(
                sampler_config=litert_lm.SamplerConfig(top_k=1, seed=0),
                max_output_tokens=request.max_output_tokens,
                system_message=request.system or None,
                **self._constrained_decoding(request),
            ) as conversation:
                self._allow_response_format(conversation, request)
                stream = conversation.send_message_async(
                    request.user, **self._response_format(request)
                )
                try:
                    for message in stream:
                        piece = str(message.contents)
                        if not piece:
                            continue
                        if first_piece_at is None:
                            first_piece_at = time.perf_counter()
                        pieces.append(piece)
                        if on_text is not None and on_text(piece) is Decoding.STOP:
                            stopped = True
                            conversation.cancel_process()
                            _drain(stream)
                            break
                except BaseException:
                    # The runtime keeps decoding on its own thread: stop it and let the
                    # stream end before the conversation is deleted under it.
                    conversation.cancel_process()
                    _drain(stream)
                    raise
                benchmark = self._benchmark(conversation)
        except RuntimeError as error:
            raise EngineError(f"LiteRT-LM failed during {request.step.value}: {error}") from error
        finished = time.perf_counter()
        self.last_benchmark = benchmark
        ttft_s = (first_piece_at - started) if first_piece_at is not None else None
        if ttft_s is None and benchmark is not None:
            ttft_s = benchmark.ttft_s
        stats = ReplyStats(
            ms=(finished - started) * 1000,
            prompt_tokens=benchmark.prefill_tokens if benchmark else None,
            output_tokens=benchmark.decode_tokens if benchmark else None,
            ttft_ms=ttft_s * 1000 if ttft_s is not None else None,
            stopped=stopped,
        )
        return Reply(text="".join(pieces), stats=stats)

    def _constrained_decoding(self, request: ChatRequest) -> dict[str, Any]:
        """A constrained call's conversation needs LLGuidance as its constraint provider.

        Only the provider: `enable=True` also makes the Gemma data processor build its
        tool-call constraint, which no call of ours uses and which fails on any vocabulary
        but Gemma's own ("Unsupported vocabulary type", the tiny test model). The provider
        alone serves `response_format` natively; the Python wrapper's own guard reads the
        flag, so `_allow_response_format` sets it on the wrapper once the conversation exists.
        """
        if request.constraint is None:
            return {}
        litert_lm = self._litert_lm
        config = litert_lm.ConstrainedDecodingConfig(
            enable=False, provider=litert_lm.LiteRtLmConstraintProviderType.LL_GUIDANCE
        )
        return {"constrained_decoding_config": config}

    def _allow_response_format(self, conversation: Any, request: ChatRequest) -> None:
        if request.constraint is not None:
            conversation.constrained_decoding_config = self._litert_lm.ConstrainedDecodingConfig(
                enable=True, provider=self._litert_lm.LiteRtLmConstraintProviderType.LL_GUIDANCE
            )

    def _response_format(self, request: ChatRequest) -> dict[str, Any]:
        if request.constraint is None:
            return {}
        pattern = request.constraint.pattern
        return {"response_format": self._litert_lm.ResponseFormat.regex(pattern)}

    @staticmethod
    def _benchmark(conversation: Any) -> BenchmarkFigures | None:
        try:
            info = conversation.get_benchmark_info()
        except RuntimeError:
            return None
        return BenchmarkFigures(
            ttft_s=info.time_to_first_token_in_second,
            prefill_tokens=info.last_prefill_token_count,
            prefill_tokens_per_s=info.last_prefill_tokens_per_second,
            decode_tokens=info.last_decode_token_count,
            decode_tokens_per_s=info.last_decode_tokens_per_second,
        )

    def score(self, request: ScoreRequest) -> Scores:
        """Each candidate's log-likelihood as the start of the reply, from LiteRT-LM's own
        scoring (`Session.run_prefill` then `run_text_scoring`).

        The prompt is the conversation's own rendering of the call (`render_message_to_string`
        of a conversation opened as `complete` opens it: the chat template packaged in the
        file, system text included); the session adds the start token itself, so it prefills
        exactly the tokens `complete` prefills. The runtime scores one target per session and
        scoring moves the session on, so each candidate gets a fresh session and prefill.
        """
        if self._engine is None:
            raise EngineError("the LiteRT-LM engine is closed")
        started = time.perf_counter()
        scored: list[CandidateScore] = []
        prompt_tokens: int | None = None
        try:
            prompt = self._rendered_prompt(request.system, request.user)
            for candidate in request.candidates:
                with self._engine.create_session(apply_prompt_template=False) as session:
                    session.run_prefill([prompt])
                    prompt_tokens = self._prefill_tokens(session)
                    responses = session.run_text_scoring([candidate], store_token_lengths=True)
                lengths = responses.token_lengths
                if lengths and lengths[0] == 0:
                    # Scored as 0.0 (certain) by the runtime: a candidate the tokenizer drops
                    # entirely (whitespace to some vocabularies) must not read as likely.
                    raise EngineError(f"the candidate {candidate!r} is no token to this model")
                scored.append(
                    CandidateScore(
                        text=candidate,
                        log_prob=float(responses.scores[0]),
                        tokens=int(lengths[0]) if lengths else None,
                    )
                )
        except (RuntimeError, IndexError) as error:
            raise EngineError(
                f"LiteRT-LM could not score during {request.step.value}: {error}"
            ) from error
        ms = (time.perf_counter() - started) * 1000
        return Scores(
            candidates=tuple(scored),
            stats=ReplyStats(ms=ms, prompt_tokens=prompt_tokens, output_tokens=0),
        )

    def _rendered_prompt(self, system: str, user: str) -> str:
        """The text a `complete` call with this system and user message prefills, less the
        start token, as the runtime itself renders it."""
        with self._engine.create_conversation(system_message=system or None) as conversation:
            rendered = conversation.render_message_to_string(user)
        if not rendered:
            raise EngineError("LiteRT-LM rendered the prompt empty")
        return str(rendered)

    @staticmethod
    def _prefill_tokens(session: Any) -> int | None:
        try:
            return int(session.get_benchmark_info().last_prefill_token_count)
        except RuntimeError:
            return None

    def count_tokens(self, text: str) -> int:
        """How many tokens the model's own tokenizer makes of `text`."""
        if self._engine is None:
            raise EngineError("the LiteRT-LM engine is closed")
        return len(self._engine.tokenize(text))

    def close(self) -> None:
        engine, self._engine = getattr(self, "_engine", None), None
        if engine is not None:
            engine.close()
