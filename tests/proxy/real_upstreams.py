"""Real HTTP servers as the proxy's upstream, each answering an OpenAI-shaped echo in one
framing: Python's `http.server` (its body ended by closing the connection, or sized),
uvicorn (sized, or chunked) and aiohttp (sized, or chunked). The framing matrix
(test_proxy_framing.py) puts the proxy in front of each, whole and streamed.

    with running_upstream("uvicorn", "chunked") as url: ...
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

from devtools.fixtures.echo_upstream import reply_text, stream_events, whole_answer

FRAMINGS = {
    "http.server": ("close", "length"),
    "uvicorn": ("length", "chunked"),
    "aiohttp": ("length", "chunked"),
}


def answer_of(path: str, raw: bytes) -> tuple[bytes, bytes]:
    """The echo's content type and whole body for one request."""
    body = orjson.loads(raw)
    text = reply_text(path.encode(), body)
    if body.get("stream"):
        return b"text/event-stream", b"".join(stream_events(path.encode(), text, 5))
    return b"application/json", orjson.dumps(whole_answer(path.encode(), text))


@contextmanager
def running_upstream(server: str, framing: str) -> Iterator[str]:
    starters = {"http.server": _http_server, "uvicorn": _uvicorn, "aiohttp": _aiohttp}
    with starters[server](framing) as port:
        yield f"http://127.0.0.1:{port}"


@contextmanager
def _http_server(framing: str) -> Iterator[int]:
    class Handler(BaseHTTPRequestHandler):
        # "close": HTTP/1.0 and no Content-Length: the body ends when the connection does.
        protocol_version = "HTTP/1.0" if framing == "close" else "HTTP/1.1"

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["content-length"]))
            kind, answer = answer_of(self.path, raw)
            self.send_response(200)
            self.send_header("content-type", kind.decode())
            if framing == "length":
                self.send_header("content-length", str(len(answer)))
            self.end_headers()
            for start in range(0, len(answer), 64):  # in pieces, as a model streams
                self.wfile.write(answer[start : start + 64])
                self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def _uvicorn(framing: str) -> Iterator[int]:
    import uvicorn

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        raw = b""
        while True:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        kind, answer = answer_of(scope["path"], raw)
        headers = [(b"content-type", kind)]
        if framing == "length":
            headers.append((b"content-length", str(len(answer)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        pieces = [answer[i : i + 64] for i in range(0, len(answer), 64)] or [b""]
        for number, piece in enumerate(pieces):
            more = number < len(pieces) - 1
            await send({"type": "http.response.body", "body": piece, "more_body": more})

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        threading.Event().wait(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(5)


@contextmanager
def _aiohttp(framing: str) -> Iterator[int]:
    from aiohttp import web

    async def handle(request: web.Request) -> web.StreamResponse:
        kind, answer = answer_of(request.path, await request.read())
        if framing == "length":
            return web.Response(body=answer, content_type=kind.decode())
        response = web.StreamResponse(headers={"content-type": kind.decode()})
        response.enable_chunked_encoding()
        await response.prepare(request)
        for start in range(0, len(answer), 64):
            await response.write(answer[start : start + 64])
        await response.write_eof()
        return response

    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", handle)
    app.router.add_post("/v1/completions", handle)
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
