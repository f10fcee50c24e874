"""The framing matrix: the proxy in front of real servers (Python's http.server, uvicorn,
aiohttp), each answering in each framing it uses — the body ended by closing the
connection, sized by Content-Length, chunked — whole and streamed (server-sent events).
Every answer must come back complete, with its values restored, and nothing after it.

An answer ended by the upstream's close is a complete answer, not a failure (which would
mean 502 for a whole one, `data: [DONE]` and then an error event for a stream)."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
from real_upstreams import FRAMINGS, running_upstream

from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.proxy import ProxyConfig, build_proxy

MESSAGE = "Write to jane.roe@example.com or call (415) 555-0132 about the order."
CASES = [(server, framing) for server, framings in FRAMINGS.items() for framing in framings]


@pytest.fixture(params=CASES, ids=[f"{server}-{framing}" for server, framing in CASES])
def proxied(request: pytest.FixtureRequest) -> Iterator[RunningProxy]:
    server, framing = request.param
    with running_upstream(server, framing) as url:
        proxy = start_proxy(build_proxy(ProxyConfig(upstream=url, read_timeout_s=5.0)))
        try:
            yield proxy
        finally:
            proxy.stop()


def chat(stream: bool) -> dict[str, object]:
    return {"model": "m", "stream": stream, "messages": [{"role": "user", "content": MESSAGE}]}


def test_a_whole_answer_comes_back_in_every_framing(proxied: RunningProxy) -> None:
    with proxied.client() as client:
        for _ in range(2):  # and again, on a fresh or reused upstream connection
            response = client.post("/v1/chat/completions", json=chat(stream=False))
            assert response.status_code == 200, response.text
            assert response.json()["choices"][0]["message"]["content"] == MESSAGE


def test_a_streamed_answer_comes_back_in_every_framing(proxied: RunningProxy) -> None:
    with proxied.client() as client:
        for _ in range(2):
            response = client.post("/v1/chat/completions", json=chat(stream=True))
            assert response.status_code == 200
            events = [
                line.removeprefix("data: ")
                for line in response.text.split("\n\n")
                if line.startswith("data: ")
            ]
            assert events[-1] == "[DONE]"  # and no error event after it
            chunks = [orjson.loads(event) for event in events[:-1]]
            assert not any("error" in chunk for chunk in chunks)
            text = "".join(chunk["choices"][0]["delta"]["content"] for chunk in chunks)
            assert text == MESSAGE
