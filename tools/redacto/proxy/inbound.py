"""What the proxy relays of the upstream's answer: a status it chose to relay, and the
headers of an allow-list — like what it sends upstream (`outbound`), nothing the upstream
wrote goes to the client only because the upstream wrote it.

A redirect is never relayed. A client that follows redirects (an OpenAI-style SDK on httpx
with `follow_redirects=True`) would send its request again to the `Location` — its own
request, as it wrote it, before the proxy redacted it — so the proxy answers any 3xx (and
any 1xx that arrives as a final answer) with 502, naming the status, and relays neither the
redirect's headers nor its body. 2xx, 4xx and 5xx are relayed with their body (restored).

Of the upstream's headers only these reach the client: `Content-Type`; the upstream's
request id (`X-Request-Id`); OpenAI-style rate-limit headers (`X-RateLimit-*`) and
`Retry-After` / `Retry-After-Ms`, which SDKs read to pace their retries. Each must be
printable ASCII of at most `MAX_VALUE` characters. `Set-Cookie`, `Location`,
`Content-Location`, `Link`, `Refresh`, `WWW-Authenticate`, `Server` and every other header
are dropped; the proxy writes its own framing (`exchange`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from redacto.proxy.errors import Refused

ANSWER_HEADERS = frozenset({b"content-type", b"x-request-id", b"retry-after", b"retry-after-ms"})
"""Upstream headers relayed to the client (names compared in lower case)."""
ANSWER_HEADER_PREFIXES = (b"x-ratelimit-",)
"""Upstream headers relayed by prefix: `x-ratelimit-limit-requests`, `…-remaining-tokens`, …"""
MAX_VALUE = 256
_PRINTABLE = re.compile(rb"[\x20-\x7e]*\Z")


def relayable(status: int) -> bool:
    """Whether an answer with this status is relayed: 2xx, 4xx and 5xx."""
    return 200 <= status < 300 or 400 <= status < 600


def refuse_status(status: int) -> Refused:
    """The 502 that stands for an answer whose status is not relayed: it names the status,
    and nothing of the upstream's answer (no `Location`, no body)."""
    kind = "a redirect" if 300 <= status < 400 else "a status the proxy does not relay"
    return Refused(
        502,
        f"the upstream answered {status} ({kind}); the proxy relays no redirect, so nothing "
        "of that answer was relayed",
        "upstream_status",
    )


def answer_headers(upstream: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The upstream's headers the client gets: the allow-list's, names in lower case, one
    `content-type` at most, values printable ASCII up to `MAX_VALUE` characters."""
    relayed: list[tuple[bytes, bytes]] = []
    typed = False
    for raw_name, value in upstream:
        name = raw_name.lower()
        if name not in ANSWER_HEADERS and not name.startswith(ANSWER_HEADER_PREFIXES):
            continue
        if len(value) > MAX_VALUE or not _PRINTABLE.match(value):
            continue
        if name == b"content-type":
            if typed:
                continue
            typed = True
        relayed.append((name, value))
    return relayed
