"""A real HTTP upstream for the proxy's tests and benchmark: an OpenAI-shaped echo server.

It answers `/v1/chat/completions` with the last message's text and `/v1/completions` with
the prompt, whole or streamed as server-sent events, and remembers the bodies it received
(`seen`), so a test can check what a model behind the proxy would have read. Headers steer
it: `x-echo-piece: N` streams N characters per event, `x-echo-delay: S` waits S seconds
before answering, `x-echo-status: CODE` answers with that status, `x-echo-reply: TEXT`
replies with TEXT instead of the echo, `x-echo-hang: 1` sends half a stream and stalls,
`x-echo-encoding: NAME` labels a whole answer with that content-encoding.

    upstream = EchoUpstream.start()       # on a thread, any free port
    ... upstream.url, upstream.seen ...
    upstream.stop()
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from dataclasses import dataclass, field
from typing import Any

import httptools
import orjson

STEERING = (
    "x-echo-piece",
    "x-echo-delay",
    "x-echo-status",
    "x-echo-reply",
    "x-echo-hang",
    "x-echo-encoding",
)
"""The headers that steer the echo: a proxy in front of it must be told to pass them on
(`ProxyConfig.pass_headers`), since it forwards no other client header."""


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def reply_text(path: bytes, body: dict[str, Any]) -> str:
    if path.endswith(b"/chat/completions"):
        return _text_of(body["messages"][-1].get("content"))
    prompt = body.get("prompt")
    return prompt if isinstance(prompt, str) else " ".join(prompt or ())


def whole_answer(path: bytes, text: str) -> dict[str, Any]:
    if path.endswith(b"/chat/completions"):
        choice = {"index": 0, "message": {"role": "assistant", "content": text}}
        kind = "chat.completion"
    else:
        choice = {"index": 0, "text": text}
        kind = "text_completion"
    return {
        "id": "echo-1",
        "object": kind,
        "model": "echo",
        "choices": [choice | {"finish_reason": "stop"}],
    }


def stream_events(path: bytes, text: str, piece: int) -> list[bytes]:
    chat = path.endswith(b"/chat/completions")
    events = []
    pieces = [text[i : i + piece] for i in range(0, len(text), piece)] or [""]
    for number, part in enumerate(pieces):
        last = number == len(pieces) - 1
        if chat:
            choice: dict[str, Any] = {"index": 0, "delta": {"content": part}}
        else:
            choice = {"index": 0, "text": part}
        choice["finish_reason"] = "stop" if last else None
        chunk = {
            "id": "echo-1",
            "object": "chat.completion.chunk",
            "model": "echo",
            "choices": [choice],
        }
        events.append(b"data: " + orjson.dumps(chunk) + b"\n\n")
    events.append(b"data: [DONE]\n\n")
    return events


class _Connection(asyncio.Protocol):
    def __init__(self, upstream: EchoUpstream) -> None:
        self.upstream = upstream
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.url = b""
        self.headers: dict[bytes, bytes] = {}
        self.body: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.lower()] = value

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        url, headers, body = self.url, self.headers, b"".join(self.body)
        self.url, self.headers, self.body = b"", {}, []
        delay = float(headers.get(b"x-echo-delay", b"0"))
        if delay or b"x-echo-hang" in headers:
            asyncio.get_running_loop().create_task(self._later(url, headers, body, delay))
        else:
            self._answer(url, headers, body)

    async def _later(
        self, url: bytes, headers: dict[bytes, bytes], body: bytes, delay: float
    ) -> None:
        await asyncio.sleep(delay)
        if b"x-echo-hang" in headers:
            assert self.transport is not None
            self.transport.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                b"transfer-encoding: chunked\r\n\r\n"
            )
            first = stream_events(url, "half an answer", 4)[0]
            self.transport.write(b"%x\r\n%s\r\n" % (len(first), first))
            return  # and never another byte
        self._answer(url, headers, body)

    def _answer(self, url: bytes, headers: dict[bytes, bytes], raw: bytes) -> None:
        assert self.transport is not None
        self.upstream.seen_headers.append(headers)
        self.upstream.seen_urls.append(url)
        self.upstream.seen_raw.append(raw)
        if url == b"/v1/models":
            self._write(200, orjson.dumps({"object": "list", "data": [{"id": "echo"}]}))
            return
        body = orjson.loads(raw)
        self.upstream.seen.append(body)
        status = int(headers.get(b"x-echo-status", b"200"))
        text = (
            headers[b"x-echo-reply"].decode()
            if b"x-echo-reply" in headers
            else reply_text(url, body)
        )
        if status != 200:
            error = {"error": {"message": f"upstream refused: {text}", "code": status}}
            self._write(status, orjson.dumps(error))
        elif body.get("stream"):
            piece = int(headers.get(b"x-echo-piece", b"8"))
            data = b"".join(b"%x\r\n%s\r\n" % (len(e), e) for e in stream_events(url, text, piece))
            self.transport.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                b"transfer-encoding: chunked\r\n\r\n" + data + b"0\r\n\r\n"
            )
        else:
            encoding = headers.get(b"x-echo-encoding")
            extra = b"content-encoding: " + encoding + b"\r\n" if encoding else b""
            self._write(200, orjson.dumps(whole_answer(url, text)), extra)

    def _write(self, status: int, body: bytes, extra: bytes = b"") -> None:
        assert self.transport is not None
        self.transport.write(
            b"HTTP/1.1 %d X\r\ncontent-type: application/json\r\ncontent-length: %d\r\n%s\r\n%s"
            % (status, len(body), extra, body)
        )


@dataclass
class EchoUpstream:
    """The echo server on its own thread and event loop."""

    port: int = 0
    seen: list[dict[str, Any]] = field(default_factory=list)
    seen_headers: list[dict[bytes, bytes]] = field(default_factory=list)
    """Each request's headers (names lower-cased), in the order they came."""
    seen_urls: list[bytes] = field(default_factory=list)
    """Each request's target as the upstream received it (path and query)."""
    seen_raw: list[bytes] = field(default_factory=list)
    """Each request's body, the bytes as they arrived."""
    tls: ssl.SSLContext | None = None
    """Speak TLS with this server context (`https://`)."""
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    @classmethod
    def start(cls, port: int = 0, tls: ssl.SSLContext | None = None) -> EchoUpstream:
        upstream = cls(port, tls=tls)
        ready = threading.Event()

        def run() -> None:
            loop = upstream._loop = asyncio.new_event_loop()
            server = loop.run_until_complete(
                loop.create_server(lambda: _Connection(upstream), "127.0.0.1", port, ssl=tls)
            )
            upstream.port = server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            server.close()
            loop.run_until_complete(server.wait_closed())
            loop.close()

        upstream._thread = threading.Thread(target=run, daemon=True)
        upstream._thread.start()
        ready.wait(10)
        return upstream

    def stop(self) -> None:
        if self._loop is not None:
            asyncio.run_coroutine_threadsafe(stop_loop(), self._loop).result(5)
        if self._thread is not None:
            self._thread.join(5)


async def stop_loop() -> None:
    """Cancel every task of the running loop, let them end, then stop it."""
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.get_running_loop().stop()


if __name__ == "__main__":  # python tests/proxy/echo_upstream.py PORT (the benchmark's upstream)
    import sys

    import uvloop

    async def main() -> None:
        upstream = EchoUpstream(int(sys.argv[1]))
        server = await asyncio.get_running_loop().create_server(
            lambda: _Connection(upstream), "127.0.0.1", upstream.port
        )
        upstream.seen = _Forgetful()  # a benchmark keeps nothing
        upstream.seen_headers = _Forgetful()
        upstream.seen_urls = _Forgetful()
        upstream.seen_raw = _Forgetful()
        print(f"echo upstream on {server.sockets[0].getsockname()[1]}", flush=True)
        await server.serve_forever()

    class _Forgetful(list[Any]):
        def append(self, item: Any) -> None:
            pass

    uvloop.run(main())
