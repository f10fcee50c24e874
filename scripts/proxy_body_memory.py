"""The resident memory of a `redacto proxy` process while many connections each hold half
of a large body, and after they close (by default 16 half-sent 59 MiB bodies).

    python scripts/proxy_body_memory.py [--connections 16] [--body-mib 59] [--redacto PATH]

Starts the proxy (rules tier, an upstream that is never reached) on a free loopback port,
opens the connections one after another, sends each the head of a request declaring the
body's size and then half of the body, and prints the proxy's RSS: idle, with every
connection holding its half, and 3 s after they all closed. A connection the proxy
answered 503 (`busy`: the bodies' budget, `Limits.max_bodies_bytes`) goes on sending into
the proxy's discard, as a client that does not read its answer would.
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil

MIB = 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--body-mib", type=int, default=59)
    parser.add_argument("--redacto", default=str(Path(sys.executable).parent / "redacto"))
    args = parser.parse_args()

    unused = socket.socket()
    unused.bind(("127.0.0.1", 0))  # bound, never listening: nothing is forwarded anyway
    upstream = f"http://127.0.0.1:{unused.getsockname()[1]}"
    proxy = subprocess.Popen(
        [args.redacto, "proxy", "--upstream", upstream, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proxy.stdout is not None
        ready = re.search(r":(\d+)/v1", proxy.stdout.readline())
        if ready is None:
            sys.exit("the proxy did not start")
        port = int(ready.group(1))
        process = psutil.Process(proxy.pid)

        def rss() -> str:
            return f"{process.memory_info().rss / MIB:,.0f} MB"

        print(f"idle: {rss()}")
        size = args.body_mib * MIB
        head = b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: %d\r\n\r\n" % size
        piece = b" " * MIB
        held = []
        for _ in range(args.connections):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(head)
            for _ in range(size // 2 // MIB):
                connection.sendall(piece)
            held.append(connection)
        time.sleep(1)
        print(f"{args.connections} half-sent {args.body_mib} MiB bodies: {rss()}")
        for connection in held:
            connection.close()
        time.sleep(3)
        print(f"3 s after they closed: {rss()}")
    finally:
        proxy.terminate()
        proxy.wait(10)
        unused.close()


if __name__ == "__main__":
    main()
