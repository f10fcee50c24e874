"""A fake OpenAI-compatible server on loopback for the proofreading tests.

It lists one model at `/v1/models` and answers `/v1/chat/completions` with a scripted
answer streamed as server-sent events in small pieces (a few characters each, so lines
and JSON objects are split anywhere), and records every request (path, headers, body).
After each answer line has gone out it can wait on a `gate` the test provides, so a test
can prove the client acted on a line before the next one, and before the stream ended.
It can also break off mid-stream, answer garbage, or answer an HTTP error.
"""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL_ID = "fake-proofreader"


@dataclass
class Answer:
    """What the next chat completion streams back."""

    lines: list[str] = field(default_factory=list)
    piece: int = 3
    """Characters of answer text per event."""
    finish: bool = True
    """End with a `finish_reason` chunk and `[DONE]`; False: the stream just stops."""
    break_after: int | None = None
    """Close the connection after this many characters of answer text."""
    raw: bytes | None = None
    """Send these bytes as the whole body instead (an answer that is no stream at all)."""
    raw_type: str = "text/event-stream"
    status: int = 200


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    def text(self) -> str:
        """Everything the request carried as text (every message's content)."""
        return "\n".join(message["content"] for message in self.body.get("messages", []))


class FakeUpstream:
    """Start with `FakeUpstream.start()`; `url`, `requests`, `answer`, `gate`, `stop()`."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.answer = Answer()
        self.gate: Callable[[int], bool] | None = None
        """Called with a line's number after it went out; its results are kept in
        `gate_results` (True: the client acted on it in time)."""
        self.gate_results: list[bool] = []
        self._server: ThreadingHTTPServer | None = None
        self.scheme = "http"

    @classmethod
    def start(cls, tls: ssl.SSLContext | None = None) -> FakeUpstream:
        """`tls`: speak TLS with this server context (an `https://` url)."""
        upstream = cls()
        handler = type("Handler", (_Handler,), {"upstream": upstream})
        upstream._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        if tls is not None:
            upstream._server.socket = tls.wrap_socket(upstream._server.socket, server_side=True)
            upstream.scheme = "https"
        threading.Thread(target=upstream._server.serve_forever, daemon=True).start()
        return upstream

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"{self.scheme}://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    upstream: FakeUpstream

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._record({})
        if self.path.rstrip("/") != "/v1/models":
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        self._send(200, json.dumps({"data": [{"id": MODEL_ID, "object": "model"}]}).encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self._record(body)
        answer = self.upstream.answer
        if answer.status != 200:
            self._send(answer.status, b'{"error": {"message": "the fake says no"}}')
            return
        if answer.raw is not None:
            self._send(200, answer.raw, answer.raw_type)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self._stream(answer)

    def _stream(self, answer: Answer) -> None:
        text = "".join(line + "\n" for line in answer.lines)
        ends = []
        position = 0
        for line in answer.lines:
            position += len(line) + 1
            ends.append(position)
        sent, next_line = 0, 0
        while sent < len(text):
            limit = answer.break_after if answer.break_after is not None else len(text)
            if sent >= limit:
                self.wfile.flush()
                return  # broken off: the connection closes with no finish
            piece = text[sent : min(sent + answer.piece, limit)]
            self._event({"choices": [{"index": 0, "delta": {"content": piece}}]})
            sent += len(piece)
            while next_line < len(ends) and ends[next_line] <= sent:
                if self.upstream.gate is not None:
                    self.upstream.gate_results.append(self.upstream.gate(next_line))
                next_line += 1
        if answer.finish:
            self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _event(self, chunk: dict[str, Any]) -> None:
        chunk = {"id": "fake-1", "object": "chat.completion.chunk", "model": MODEL_ID, **chunk}
        self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
        self.wfile.flush()

    def _record(self, body: dict[str, Any]) -> None:
        self.upstream.requests.append(Request(self.path, dict(self.headers.items()), body))

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
