"""The HTTP stack both faces serve on: an ASGI application on uvicorn, with the bounds on
a client connection uvicorn's settings do not give (`protocol.GuardedProtocol`) and the
settings and listening socket they share (`runner`). The proxy (`redacto.proxy`) and the
review page (`redacto.serve`) each subclass the protocol for what is their own (how a
refusal reads; the review page's connection cap and request-line answers)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
