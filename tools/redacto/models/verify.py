"""`verify`: load a built file with LiteRT-LM on CPU, run the smoke prompt, measure it."""

from __future__ import annotations

import time
from pathlib import Path

from redacto.document import Step
from redacto.engines.base import ChatRequest, EngineError
from redacto.modelfile.litertlm_file import LitertlmFormatError, read_header
from redacto.modelfile.manifest import ModelError, VerifySettings
from redacto.modelfile.record import VerifyFigures


def require_readable(path: Path) -> None:
    """Raise `ModelError` unless `path` is a readable `.litertlm`: its header is there and
    every section it lists lies inside the file (an empty, truncated or foreign file is not;
    a policy that cannot be parsed is no reason here, the file is still a model)."""
    try:
        read_header(path)
    except (LitertlmFormatError, OSError) as error:
        raise ModelError(f"{path.name} is not a readable model file: {error}") from error


def verify_file(path: Path, settings: VerifySettings, threads: int | None = None) -> VerifyFigures:
    """Load `path`, answer the smoke prompt greedily, and report load time, TTFT and rates.

    Raises `ModelError` for a file that is not a readable `.litertlm` (empty, truncated, not
    one at all: its header is read and bounds-checked first, so LiteRT-LM never opens it),
    one LiteRT-LM cannot load, and one that answers nothing. The prompt is sent as a
    classify-style call: the smoke test is one short answer, and the engine interface only
    knows pipeline steps.
    """
    from redacto.engines.litertlm import LiteRtLmEngine

    require_readable(path)
    started = time.perf_counter()
    try:
        with LiteRtLmEngine(str(path), uri=f"litertlm:{path}", threads=threads) as engine:
            load_s = time.perf_counter() - started
            reply = engine.complete(
                ChatRequest(
                    step=Step.CLASSIFY,
                    system=settings.system,
                    user=settings.prompt,
                    max_output_tokens=settings.max_output_tokens,
                )
            )
            benchmark = engine.last_benchmark
            threads_used = engine.threads
    except EngineError as error:
        raise ModelError(str(error)) from error
    if benchmark is None or benchmark.decode_tokens == 0:
        raise ModelError(f"{path.name} loaded but generated no tokens for the smoke prompt")
    return VerifyFigures(
        load_s=round(load_s, 2),
        ttft_ms=round(reply.stats.ttft_ms or benchmark.ttft_s * 1000, 1),
        prefill_tokens=benchmark.prefill_tokens,
        prefill_tokens_per_s=round(benchmark.prefill_tokens_per_s, 1),
        decode_tokens=benchmark.decode_tokens,
        decode_tokens_per_s=round(benchmark.decode_tokens_per_s, 1),
        threads=threads_used,
        reply=reply.text,
    )
