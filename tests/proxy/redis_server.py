"""A real `redis-server` (Debian's, installed by scripts/setup.sh) on a free loopback port,
for the shared-vault tests and benchmark: no persistence, nothing written but its log.

    server = RedisServer.start(folder)
    ... server.url, server.dump(), server.pause() / server.resume() ...
    server.stop()
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis

START_TRIES = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RedisServer:
    """One `redis-server` process of the test's own."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, folder: Path) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run scripts/setup.sh")
        for _ in range(START_TRIES):  # another process may take the free port first
            port = free_port()
            command = [
                binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(folder), "--logfile", str(folder / "redis.log"),
            ]  # fmt: skip
            server = cls(subprocess.Popen(command, stdin=subprocess.DEVNULL), port)
            if server._answers():
                return server
            server.stop()
        raise RuntimeError(f"redis-server did not start: {(folder / 'redis.log').read_text()}")

    def _answers(self, within_s: float = 10.0) -> bool:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with self.client() as client:
                    return bool(client.ping())
            except redis.ConnectionError:
                time.sleep(0.05)
        return False

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def dump(self) -> bytes:
        """Every key, and every field and value of every key (hashes field by field, other
        keys as `DUMP` gives them), as one byte string to search."""
        out = []
        with self.client() as client:
            for key in client.scan_iter(count=1000):
                out.append(key)
                if client.type(key) == b"hash":
                    for name, value in client.hgetall(key).items():
                        out += [name, value]
                else:
                    out.append(client.dump(key) or b"")
        return b"\n".join(out)

    def pause(self) -> None:
        """Stop answering (SIGSTOP): a Redis that hangs, as a slow or stuck one does."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.resume()
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
