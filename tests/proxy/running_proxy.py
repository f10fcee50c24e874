"""A real proxy on its own thread, for the tests to talk to over HTTP, and the text of a
streamed answer read back (the benchmarks read it too).

A module of its own, not the conftest: tests import these by name, and another test folder
has a conftest too, so `from conftest import …` found whichever was imported first when
both folders ran in one pytest call.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass

import httpx
import orjson
from echo_upstream import stop_loop

from redacto.proxy import Proxy, serve


@dataclass
class RunningProxy:
    proxy: Proxy
    url: str
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread

    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=timeout)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(stop_loop(), self.loop).result(5)
        self.thread.join(5)


def start_proxy(proxy: Proxy) -> RunningProxy:
    ready = threading.Event()
    holder: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        server = loop.run_until_complete(serve(proxy, "127.0.0.1", 0))
        holder["port"] = server.sockets[0].getsockname()[1]
        ready.set()
        loop.run_forever()
        server.close()
        loop.run_until_complete(server.wait_closed())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    loop = holder["loop"]
    assert isinstance(loop, asyncio.AbstractEventLoop)
    return RunningProxy(proxy, f"http://127.0.0.1:{holder['port']}", loop, thread)


def streamed_text(raw: str) -> str:
    """The answer text of an OpenAI-style event stream: each choice's chat delta or
    completion text, in order."""
    text = []
    for line in raw.splitlines():
        if line.startswith("data: {"):
            for choice in orjson.loads(line[6:]).get("choices", []):
                text.append(choice.get("delta", {}).get("content") or choice.get("text") or "")
    return "".join(text)
