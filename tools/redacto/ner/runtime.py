"""The Rampart session: ONNX Runtime and the WordPiece tokenizer, opened once per process.

`onnxruntime`, `tokenizers` and `numpy` are the `ner` extra's and are imported here only,
when a session opens. One intra-op thread by default (`REDACTO_NER_THREADS` changes it):
the tier costs milliseconds a text, and the proxy and the review page run it beside the
LLM, which wants the cores.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redacto.host.onnx_telemetry import disable_onnxruntime_telemetry
from redacto.ner.decode import Token, TokenReading, Window, best_window, plan_windows
from redacto.ner.source import EXTRA_HINT, NerManifest, NerUnavailableError, resolve_files

if TYPE_CHECKING:
    import numpy as np

WINDOW_TOKENS = 510
"""Tokens per model call besides [CLS] and [SEP]: the model's 512 positions."""
OVERLAP_TOKENS = 64
"""Tokens two neighbouring windows share, so a value cut by one edge is whole in the other."""


@dataclass(frozen=True)
class WindowOutput:
    """One window and the model's logits for its tokens (without [CLS] and [SEP])."""

    window: Window
    logits: np.ndarray  # shape (tokens, labels), float32


@dataclass(frozen=True)
class Reading:
    """A text read by the model: its tokens, the windows, and each token's reading."""

    tokens: tuple[Token, ...]
    windows: tuple[WindowOutput, ...]
    readings: tuple[TokenReading, ...]


class NerSession:
    """An open Rampart model. Thread-safe: ONNX Runtime's `run` may be called concurrently."""

    def __init__(
        self,
        manifest: NerManifest,
        *,
        threads: int | None = None,
        window_tokens: int = WINDOW_TOKENS,
        overlap_tokens: int = OVERLAP_TOKENS,
    ) -> None:
        disable_onnxruntime_telemetry()
        try:
            import numpy
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise NerUnavailableError(
                f"the NER tier needs onnxruntime and tokenizers: {EXTRA_HINT}"
            ) from error
        started = time.perf_counter()
        paths = resolve_files(manifest)
        config = json.loads(paths.config.read_text(encoding="utf-8"))
        self.labels: tuple[str, ...] = tuple(
            config["id2label"][str(i)] for i in range(len(config["id2label"]))
        )
        self.tokenizer = Tokenizer.from_file(str(paths.tokenizer))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        cls_id, sep_id = self.tokenizer.token_to_id("[CLS]"), self.tokenizer.token_to_id("[SEP]")
        if cls_id is None or sep_id is None:
            raise NerUnavailableError("the NER tokenizer has no [CLS] or [SEP]")
        self.cls_id, self.sep_id = cls_id, sep_id
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or int(os.environ.get("REDACTO_NER_THREADS", "1"))
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(paths.onnx), options, providers=["CPUExecutionProvider"]
        )
        self.input_names = {item.name for item in self.session.get_inputs()}
        self.window_tokens = min(window_tokens, int(config["max_position_embeddings"]) - 2)
        self.overlap_tokens = overlap_tokens
        self.manifest = manifest
        self._numpy = numpy
        self.load_ms = (time.perf_counter() - started) * 1000

    def tokenize(self, text: str) -> tuple[tuple[Token, ...], list[int | None]]:
        """The text's WordPiece tokens (no special tokens) and each one's tokenizer word."""
        encoding = self.tokenizer.encode(text, add_special_tokens=False)
        tokens = tuple(
            Token(token_id, start, end)
            for token_id, (start, end) in zip(encoding.ids, encoding.offsets, strict=True)
        )
        return tokens, list(encoding.word_ids)

    def read(self, text: str) -> Reading:
        """Every token's reading, window by window (`decode` says how windows share)."""
        tokens, word_ids = self.tokenize(text)
        windows = plan_windows(word_ids, self.window_tokens, self.overlap_tokens)
        outputs = tuple(WindowOutput(w, self._logits(tokens[w.start : w.end])) for w in windows)
        readings = []
        for position in range(len(tokens)):
            chosen = outputs[best_window(position, windows)]
            row = chosen.logits[position - chosen.window.start]
            readings.append(self._reading(row))
        return Reading(tokens, outputs, tuple(readings))

    def _logits(self, tokens: Sequence[Token]) -> np.ndarray:
        numpy = self._numpy
        ids = numpy.array([[self.cls_id, *(t.id for t in tokens), self.sep_id]], dtype=numpy.int64)
        feed: dict[str, Any] = {"input_ids": ids}
        if "attention_mask" in self.input_names:
            feed["attention_mask"] = numpy.ones_like(ids)
        if "token_type_ids" in self.input_names:
            feed["token_type_ids"] = numpy.zeros_like(ids)
        logits = self.session.run(None, feed)[0][0]
        return numpy.asarray(logits[1:-1], dtype=numpy.float32)

    def _reading(self, row: np.ndarray) -> TokenReading:
        numpy = self._numpy
        shifted = numpy.exp(row.astype(numpy.float64) - row.max())
        best = int(row.argmax())
        return TokenReading(self.labels[best], float(shifted[best] / shifted.sum()))


_SESSIONS: dict[tuple[str, int | None], NerSession] = {}
_LOCK = threading.Lock()


def open_session(manifest: NerManifest, threads: int | None = None) -> NerSession:
    """The process's session for `manifest`: opened on first use, then reused (the proxy
    and the review page redact many requests; the load is paid once)."""
    key = (manifest.name, threads)
    with _LOCK:
        session = _SESSIONS.get(key)
        if session is None:
            session = _SESSIONS[key] = NerSession(manifest, threads=threads)
        return session
