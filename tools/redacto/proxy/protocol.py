"""The proxy's connections: the shared protocol (`redacto.asgi.protocol`, with its reasons)
within the proxy's `Limits`, its refusals written as OpenAI-style errors."""

from __future__ import annotations

import orjson

from redacto.asgi.protocol import Bounds, GuardedProtocol, Rejected
from redacto.proxy.limits import Limits


def error_body(message: str, code: str) -> bytes:
    """An OpenAI-style error body."""
    return orjson.dumps({"error": {"message": message, "type": "redacto_proxy", "code": code}})


def connection_bounds(limits: Limits) -> Bounds:
    """The bounds on one connection that the protocol keeps, from the proxy's `Limits`."""
    return Bounds(
        header_timeout_s=limits.header_timeout_s,
        body_timeout_s=limits.body_timeout_s,
        send_timeout_s=limits.send_timeout_s,
        max_header_bytes=limits.max_header_bytes,
    )


class ProxyProtocol(GuardedProtocol):
    """One client connection of the proxy: what the protocol refuses itself reads as the
    proxy's other errors do."""

    def refusal_body(self, rejection: Rejected) -> tuple[bytes, bytes]:
        return b"application/json", error_body(str(rejection), rejection.code)
