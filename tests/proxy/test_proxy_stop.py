"""A stop cancels a request that waits on a scrub, whenever in the loop turn it lands.

On Python 3.11 `asyncio.wait_for` swallows a cancel that arrives in the loop turn in which
the awaited thing completes: a Ctrl-C then waited for the whole scrub and the request was
forwarded before the proxy stopped (seen ~50–100 ms after a 1.9 MB request arrived, and
once in CI under load). These tests land the cancel exactly in that turn.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from redacto.proxy.scrub import Scrubber


def test_a_cancel_in_the_turn_the_slot_is_granted_stops_the_request() -> None:
    started = threading.Event()

    def work() -> str:
        started.set()
        time.sleep(2.0)
        return "forwarded"

    async def scenario() -> tuple[bool, float]:
        scrubber = Scrubber(threads=1)
        request = asyncio.create_task(scrubber.run(work, threading.Event()))
        await asyncio.sleep(0)  # the request asks for a scrub slot
        await asyncio.sleep(0)  # the slot is granted in this turn ...
        request.cancel()  # ... and the stop lands in the same turn
        began = time.monotonic()
        await asyncio.wait([request], timeout=5.0)
        return request.cancelled(), time.monotonic() - began

    cancelled, waited = asyncio.run(scenario())
    assert cancelled, "the request went on after the stop"
    assert waited < 1.0  # not the scrub's 2 s


def test_a_cancel_while_the_scrub_runs_stops_the_request_and_tells_the_scrub() -> None:
    release = threading.Event()
    told = threading.Event()

    async def scenario() -> bool:
        scrubber = Scrubber(threads=1)
        request = asyncio.create_task(scrubber.run(lambda: release.wait(5.0), told))
        await asyncio.sleep(0.1)
        request.cancel()
        await asyncio.wait([request], timeout=1.0)
        return request.cancelled()

    try:
        assert asyncio.run(scenario())
        assert told.is_set(), "the scrub was not told to stop reading"
    finally:
        release.set()


@pytest.mark.slow
def test_ctrl_c_stops_a_proxy_whose_parent_ignores_it(upstream: EchoUpstream) -> None:
    # A child inherits SIG_IGN, and Python then installs no SIGINT handler of its own: the
    # proxy must install it, or a test run (or a shell) that ignores Ctrl-C makes it unstoppable.
    redacto = str(Path(sys.executable).parent / "redacto")
    process = subprocess.Popen(
        [redacto, "proxy", "--upstream", upstream.url, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        assert "/v1" in process.stdout.readline(), "the proxy did not start"
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
