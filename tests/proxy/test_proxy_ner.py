"""The NER tier in the proxy: the real Rampart model reads each new text on a scrub thread,
what it finds is replaced on the way out and put back on the way in, and a text the
conversation has shown before is not read again."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import start_proxy
from redacto.prompts import PromptLibrary
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.detectors import NerTier

TEXT = "Please forward the minutes to Joana Ferreira by Friday."


def chat(*contents: str) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": c} for c in contents]}


class CountingNer(NerTier):
    """The real tier, counting its reads and the threads they ran on."""

    def __init__(self) -> None:
        super().__init__(PromptLibrary.load())
        self.texts: list[str] = []
        self.threads: set[str] = set()

    def find(self, text: str):
        self.texts.append(text)
        self.threads.add(threading.current_thread().name)
        return super().find(text)


@pytest.mark.slow  # 0.5-2.3 s measured: the first reader of the real NER model in a fast run
def test_the_ner_tier_hides_a_name_the_rules_cannot_see_and_reads_each_text_once(
    upstream: EchoUpstream,
) -> None:
    proxy = build_proxy(ProxyConfig(upstream=upstream.url, ner=True))
    counting = CountingNer()
    proxy.redactor.ner = counting
    running = start_proxy(proxy)
    try:
        with running.client() as client:
            headers = {"authorization": "Bearer k", "x-redacto-conversation": "c-ner"}
            first = client.post("/v1/chat/completions", json=chat(TEXT), headers=headers)
            second = client.post(
                "/v1/chat/completions", json=chat(TEXT, "Thanks, and Joana?"), headers=headers
            )
    finally:
        running.stop()
    assert first.status_code == 200 and second.status_code == 200
    assert upstream.seen[0]["messages"][0]["content"] == (
        "Please forward the minutes to [NAME_1] by Friday."
    )
    assert first.json()["choices"][0]["message"]["content"] == TEXT  # put back
    # The second turn resends the first: only the new text is read; the vault hides the
    # name wherever it comes again.
    assert counting.texts == [TEXT, "Thanks, and Joana?"]
    assert "Ferreira" not in str(upstream.seen[1])
    # Never on the event loop's thread: each read ran on a scrub thread.
    assert threading.main_thread().name not in counting.threads
    assert all(name != running.thread.name for name in counting.threads)


def test_without_the_ner_tier_the_rules_alone_let_the_name_through(
    upstream: EchoUpstream,
) -> None:
    running = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url)))
    try:
        with running.client() as client:
            client.post("/v1/chat/completions", json=chat(TEXT))
    finally:
        running.stop()
    assert upstream.seen[0]["messages"][0]["content"] == TEXT


def test_a_text_with_nothing_to_find_is_forwarded_unchanged(upstream: EchoUpstream) -> None:
    prose = "Could you summarise the attached minutes in three short bullet points?"
    running = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url, ner=True)))
    try:
        with running.client() as client:
            answer = client.post("/v1/chat/completions", json=chat(prose))
    finally:
        running.stop()
    assert answer.status_code == 200
    assert upstream.seen[0]["messages"][0]["content"] == prose


@pytest.mark.parametrize(
    ("options", "tiers", "sent"),
    [((), "rules + NER; images refused", False), (("--no-ner",), "rules; images refused", True)],
    ids=["the NER tier by default", "--no-ner"],
)
@pytest.mark.slow
def test_the_command_runs_the_ner_tier_unless_told_not_to(
    upstream: EchoUpstream, options: tuple[str, ...], tiers: str, sent: bool
) -> None:
    redacto = str(Path(sys.executable).parent / "redacto")
    command = [redacto, "proxy", "--upstream", upstream.url, "--listen", "127.0.0.1:0"]
    process = subprocess.Popen(
        [*command, *options], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        assert f"({tiers})" in banner, banner
        url = banner.split(" on ", 1)[1].split(" ", 1)[0]
        answer = httpx.post(f"{url}/chat/completions", json=chat(TEXT), timeout=60)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    assert answer.status_code == 200
    assert ("Ferreira" in upstream.seen[0]["messages"][0]["content"]) is sent
