"""What the proxy sends upstream, and nothing else: a route it knows, with no query; the
body as the proxy itself serialises the request it parsed and inspected; the headers of
an allow-list.

Nothing of the client's request goes on as the client wrote it. A body is parsed (and
refused when a key appears twice in one object: the parser would keep one value, the
inspection would read that one, and the upstream's parser might keep the other), walked,
redacted, then written anew (`serialise`), even when nothing was replaced. A query string
is refused, never forwarded (`split_target`). Of the client's headers only `Accept` (when
it is plain media types) and the ones the operator names (`HeaderPolicy.passthrough`,
checked like names) go on; the proxy writes `Content-Type`, `Accept-Encoding: identity`
(it must read the answer: `UpstreamPool`) and the upstream's own credential from its
configuration. A
client's `Authorization` is read for its vault (`Vaults.name_of`) and forwarded only when
named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from redacto.proxy.errors import Refused
from redacto.upstream import HOP_BY_HOP

API_KEY_VARIABLE = "REDACTO_UPSTREAM_API_KEY"
"""The environment variable `redacto proxy` reads the upstream's own key from (sent as a
Bearer token); never a command-line value, which other users of the host can read."""
CONVERSATION_HEADER = b"x-redacto-conversation"
"""Names the conversation a request continues (`Vaults.name_of`); never forwarded."""
OWN_HEADERS = HOP_BY_HOP | {b"content-type", CONVERSATION_HEADER}
"""Headers the proxy writes itself or never forwards: no passthrough may name them."""
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_PLAIN_ACCEPT = re.compile(
    rb"(?:(?:application/json|text/event-stream|application/\*|text/\*|\*/\*)"
    rb"(?: *; *q=[01](?:\.[0-9]{1,3})?)?(?: *, *|\Z))+\Z"
)
"""An `Accept` the proxy forwards: the media types an OpenAI-compatible server answers
with, and q-values; anything else is dropped (a client's own text could be in it)."""


def split_target(target: bytes) -> tuple[bytes, bool]:
    """The request target's path, and whether a query or fragment followed it."""
    end = len(target)
    for mark in (b"?", b"#"):
        found = target.find(mark)
        if found != -1 and found < end:
            end = found
    return target[:end], end != len(target)


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object; raises `Refused` (400 not a JSON object, 422 a
    key twice in one object)."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise Refused(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request body must be a JSON object")
    # orjson keeps a repeated key's last value; the standard library's scanner hands each
    # object's pairs to a hook, which is where a repeat can be seen (≈ 3 µs a KB).
    try:
        _DUPLICATES.decode(raw.decode())
    except _DuplicateKey:
        raise Refused(
            422,
            "a key appears twice in one object; which value counts would be the upstream "
            "parser's choice, so nothing was forwarded",
            "duplicate_key",
        ) from None
    except (ValueError, RecursionError):  # orjson took it, so this is not expected
        raise Refused(400, "the request body is not JSON") from None
    return body


class _DuplicateKey(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1 and len({key for key, _ in pairs}) != len(pairs):
        raise _DuplicateKey


_DUPLICATES = json.JSONDecoder(object_pairs_hook=_no_repeats)


def serialise(body: dict[str, Any]) -> bytes:
    """The bytes forwarded for an inspected body: always the proxy's own JSON."""
    return orjson.dumps(body)


@dataclass(frozen=True)
class HeaderPolicy:
    """Which request headers reach the upstream."""

    passthrough: frozenset[bytes] = frozenset()
    """Client headers the operator named (lower case), forwarded as sent once no detector
    finds a value in them."""
    authorization: bytes | None = None
    """The upstream's own `Authorization` value, from the proxy's configuration."""

    @classmethod
    def of(cls, names: Sequence[str], api_key: str | None) -> HeaderPolicy:
        """The policy for `--pass-header` names and the upstream's key; raises ValueError
        for a name the proxy writes itself, or `authorization` beside an upstream key."""
        passthrough = set()
        for name in names:
            encoded = name.strip().lower().encode("ascii", "replace")
            if not _TOKEN.match(encoded):
                raise ValueError(f"--pass-header {name!r} is not a header name")
            if encoded in OWN_HEADERS:
                raise ValueError(f"--pass-header {name}: the proxy writes or drops that header")
            if encoded == b"authorization" and api_key:
                raise ValueError(
                    "--pass-header authorization and an upstream key "
                    f"(${API_KEY_VARIABLE}) both say what the upstream's credential is"
                )
            passthrough.add(encoded)
        authorization = b"Bearer " + api_key.encode() if api_key else None
        return cls(frozenset(passthrough), authorization)

    def passed(self, headers: Sequence[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """The client's headers that the operator named, as sent."""
        if not self.passthrough:
            return []
        return [(name, value) for name, value in headers if name.lower() in self.passthrough]

    def upstream_headers(
        self,
        client: Sequence[tuple[bytes, bytes]],
        passed: list[tuple[bytes, bytes]],
        *,
        body: bool,
    ) -> list[tuple[bytes, bytes]]:
        """Every header the upstream gets beside the ones its client writes (`host`,
        `content-length`, `accept-encoding`: `UpstreamPool.request`)."""
        headers = [(b"content-type", b"application/json")] if body else []
        for name, value in client:
            if name.lower() == b"accept" and _PLAIN_ACCEPT.match(value):
                headers.append((b"accept", value))
        if self.authorization is not None:
            headers.append((b"authorization", self.authorization))
        headers.extend(passed)
        return headers
