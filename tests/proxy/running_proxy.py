"""A real proxy on its own thread, for the tests to talk to over HTTP, and the text of a
streamed answer read back (the benchmarks read it too).

A module of its own, not the conftest: tests import these by name, and another test folder
has a conftest too, so `from conftest import …` found whichever was imported first when
both folders ran in one pytest call.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import httpx
import orjson

from redacto.proxy import Proxy, ProxyServer, listening_socket


@dataclass
class RunningProxy:
    proxy: Proxy
    url: str
    server: ProxyServer
    thread: threading.Thread

    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=timeout)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def start_proxy(proxy: Proxy) -> RunningProxy:
    """`proxy` served by uvicorn on a thread of its own (no signal handlers off the main
    thread), on a free loopback port."""
    ready = threading.Event()
    sock = listening_socket("127.0.0.1", 0)
    server = ProxyServer(proxy, on_ready=lambda _port: ready.set())
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    assert ready.wait(10)
    return RunningProxy(proxy, f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread)


def streamed_text(raw: str) -> str:
    """The answer text of an OpenAI-style event stream: each choice's chat delta or
    completion text, in order."""
    text = []
    for line in raw.splitlines():
        if line.startswith("data: {"):
            for choice in orjson.loads(line[6:]).get("choices", []):
                text.append(choice.get("delta", {}).get("content") or choice.get("text") or "")
    return "".join(text)
