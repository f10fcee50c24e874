"""The review server's connections: the shared protocol (`redacto.asgi.protocol`, with its
deadlines, header bound and lingering refusals) and what the review page asks beyond it.

- **At most `max_connections` connections.** One more is answered 503 as it is made, before
  anything is read from it, and closed.
- **A request line the parser rejects is answered as HTTP says of it:** 505 for a version
  past HTTP/1.x, 404 for a target with a byte no URL holds (control characters: nothing is
  there), 501 for a method the server does not know, 400 for anything else. httptools
  rejects all of these alike, and takes `HTTP/2.0` without complaint.
- **A head not in by its deadline is dropped without an answer** (a slow body is
  answered 408): what trickles a head in is no page.
- **Refusals read as the page's other errors** (`{"error": …}`), and the log holds their
  status alone: never the line that was sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

from redacto.asgi.protocol import GuardedProtocol, Rejected

log = logging.getLogger("redacto.serve")

SERVED_METHODS = (b"GET", b"POST")
_VERSION = re.compile(rb"HTTP/(\d)\.\d")
_NOT_IN_A_URL = re.compile(rb"[\x00-\x20\x7f]")
TOO_MANY = b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class ReviewProtocol(GuardedProtocol):
    """One connection to the review page."""

    answers_slow_heads = False

    def __init__(self, *args: Any, max_connections: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_connections = max_connections

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.server_state.connections) > self.max_connections:
            log.warning("http: 503, too many connections")
            transport.write(TOO_MANY)
            transport.close()

    def on_headers_complete(self) -> None:
        if not self.parser.get_http_version().startswith("1."):
            raise Rejected(505, "HTTP/1.1 only", "version_not_supported")
        super().on_headers_complete()

    def bad_request(self, line: bytes) -> Rejected:
        parts = line.split(b" ")
        version = _VERSION.fullmatch(parts[-1]) if len(parts) == 3 else None
        if version is None:
            return Rejected(400, "bad request", "bad_request")
        method, target, _ = parts
        if version[1] != b"1":
            return Rejected(505, "HTTP/1.1 only", "version_not_supported")
        if method not in SERVED_METHODS:
            return Rejected(501, "not implemented", "not_implemented")
        if _NOT_IN_A_URL.search(target):
            return Rejected(404, "not found", "not_found")
        return Rejected(400, "bad request", "bad_request")

    def refusal_body(self, rejection: Rejected) -> tuple[bytes, bytes]:
        log.warning("http: %d", rejection.status)
        return b"application/json", json.dumps({"error": str(rejection)}).encode()
