"""The proxy's HTTP side: OpenAI-compatible requests in, redacted requests to the upstream,
restored answers back, streamed or whole.

`Proxy` is an ASGI application, served by uvicorn on uvloop (`runner`); uvicorn's HTTP/1.1
protocol with the proxy's bounds on a connection (`protocol`) parses the requests, and the
request is read within the size bounds (`exchange`). A small request is scrubbed on the loop
(the rules tier takes microseconds); a large one on a scrub thread, within a bound on its
text (`scrub`), so one big message never stops the other clients. Model work (the model
tier, images) runs on one worker thread, since one engine answers one call at a time.

A request's deadline (`Limits.scrub_timeout_s`) runs from its arrival — its body read
whole — and covers every wait before it is forwarded: for its conversation's lock, for a
scrub thread, the scrub, the vault. It redacts with its own copy of the conversation's
vault, which replaces the conversation's only if the request finished in time; past the
deadline it is answered 503 and its copy, whatever an abandoned scrub still writes to it,
is dropped.

Fail closed: a request whose detection fails, whose content cannot be inspected, or whose
image the pipeline cannot vouch for is answered with an error and never forwarded. What is
forwarded is the proxy's own (`outbound`): a route it knows without a query, its own
serialisation of the inspected body, the headers of an allow-list; what is relayed back is
chosen too (`inbound`): no redirect, the upstream's headers by an allow-list. Logs name
the method, the route's template, the status, the time and how many values were hidden —
never a value, nor the path or query as sent.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson

from redacto.asgi import Receive, Scope, Send
from redacto.asgi.protocol import Rejected
from redacto.pipeline import DetectionFailed
from redacto.proxy.exchange import Answer, ClientGone, Request, read_request
from redacto.proxy.inbound import answer_headers, refuse_status, relayable
from redacto.proxy.limits import BodyBudget, Limits
from redacto.proxy.outbound import (
    CONVERSATION_HEADER,
    HeaderPolicy,
    parse_body,
    serialise,
    split_target,
)
from redacto.proxy.payload import Refused, RequestRedactor
from redacto.proxy.protocol import error_body
from redacto.proxy.restore import SseRestorer, restore_json
from redacto.proxy.scrub import Scrubber, TextBudget, inspection_timeout
from redacto.proxy.vault import Vaults, VaultStore, VaultUnavailable
from redacto.upstream import UpstreamError, UpstreamPool, UpstreamResponse
from redacto.vault import Vault, VaultFull, restore_text

log = logging.getLogger("redacto.proxy")

ENDPOINTS = {b"/v1/chat/completions": "chat", b"/v1/completions": "completion"}
PASS_THROUGH = frozenset({b"/v1/models"})
"""GET endpoints that carry no user text, forwarded without a body."""
HEALTH = b"/health"
ROUTES = {path: path.decode() for path in (*ENDPOINTS, *PASS_THROUGH, HEALTH)}
"""The route templates a log line may name; every other path is logged as `OTHER`."""
OTHER = "(other)"
REDACTION_TRIES = 4
"""How often a request is redacted from a fresh copy of a shared vault that another process
changed meanwhile (`Vaults.commit`); past it, 503. One more try normally suffices: by then
every value of the request is in the vault."""


@dataclass
class Proxy:
    """Everything one proxy process holds: the upstream, the vaults, the redactor."""

    upstream: UpstreamPool
    redactor: RequestRedactor
    vaults: Vaults = field(default_factory=VaultStore)
    access_log: bool = False
    limits: Limits = field(default_factory=Limits)
    headers: HeaderPolicy = field(default_factory=HeaderPolicy)
    """Which request headers reach the upstream (`outbound`)."""
    _scrubber: Scrubber | None = None
    _bodies: BodyBudget | None = None
    _vault_locks: dict[str, tuple[asyncio.Lock, int]] = field(default_factory=dict)

    @property
    def bodies(self) -> BodyBudget:
        """Request bodies held across every connection (`Limits.max_bodies_bytes`)."""
        if self._bodies is None:
            self._bodies = BodyBudget(self.limits.max_bodies_bytes)
        return self._bodies

    @property
    def scrubber(self) -> Scrubber:
        if self._scrubber is None:
            self._scrubber = Scrubber(self.limits.scrub_threads)
        return self._scrubber

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI application: one request, read within the bounds, then answered."""
        if scope["type"] != "http":  # lifespan events: the proxy has nothing to start
            return
        answer = Answer(send, receive)
        try:
            request = await read_request(scope, receive, self.limits, self.bodies)
        except Rejected as rejection:
            await answer.refuse(rejection)
            return
        except ClientGone:
            return
        try:
            await self.handle(request, answer)
        finally:
            self.bodies.give_back(len(request.body))

    async def handle(self, request: Request, send: Answer) -> None:
        """Answer `request`, read whole: forwarded redacted and its answer restored, or
        refused with an OpenAI-style error; never an exception."""
        started = time.perf_counter()
        status, hidden = 500, 0
        route = ROUTES.get(split_target(request.path)[0], OTHER)
        try:
            status, hidden = await self._handle(request, send)
        except Refused as refusal:
            status = refusal.status
            log.warning("refused %s %s: %s", request.method.decode(), route, refusal)
            await send.whole(status, error_body(refusal.answer, refusal.code))
        except UpstreamError as error:
            status = 504 if error.timeout else 502
            log.warning("upstream failed: %s", error)
            code = "upstream_timeout" if error.timeout else "upstream_error"
            await send.whole(status, error_body(str(error), code))
        except Exception as error:  # a bug must not hang the client, nor log a value
            status = 500
            log.error("internal error: %s", type(error).__name__)
            await send.whole(
                status, error_body("internal error, nothing was forwarded", "internal")
            )
        finally:
            if self.access_log:
                log.info(
                    "%s %s %d %.2f ms hidden=%d",
                    request.method.decode(),
                    route,
                    status,
                    (time.perf_counter() - started) * 1000,
                    hidden,
                )

    async def _handle(self, request: Request, send: Answer) -> tuple[int, int]:
        path, queried = split_target(request.path)
        if request.method == b"GET" and path == HEALTH:
            await send.whole(200, b'{"status":"ok"}')
            return 200, 0
        endpoint = ENDPOINTS.get(path) if request.method == b"POST" else None
        listing = request.method == b"GET" and path in PASS_THROUGH
        if endpoint is None and not listing:
            raise Refused(404, "the proxy forwards POST /v1/chat/completions and /v1/completions")
        if queried:
            raise Refused(
                400,
                "a query string is neither inspected nor forwarded: send the request without "
                "one; nothing was forwarded",
                "query_string",
            )
        passed = self.headers.passed(request.headers)
        if endpoint is None:  # GET /v1/models: no body, no conversation
            self.redactor.check_headers(passed, None)
            headers = self.headers.upstream_headers(request.headers, passed, body=False)
            response = _relayed(await self.upstream.request(b"GET", path, headers, b""))
            body = await response.read()
            await send.whole(response.status, body, answer_headers(response.headers))
            return response.status, 0
        name = self.vaults.name_of(
            request.header(b"authorization"), request.header(CONVERSATION_HEADER)
        )
        deadline = request.arrived + self.limits.scrub_timeout_s
        # No timer where nothing can wait (it costs ≈ 5 µs of the ≈ 200 a small request
        # takes): `_redact_in` checks the deadline itself before the vault is updated.
        bound = asyncio.timeout_at(deadline if self._may_wait(name, request.body) else None)
        try:
            # A named conversation is redacted by one request at a time in this process
            # (other processes' are reconciled by `commit`); the wait for it counts in the
            # request's deadline, like everything until it is forwarded.
            async with bound, self._holding(name):
                vault, forwarded, hidden = await self._redact_in(
                    name, endpoint, request.body, deadline
                )
                self.redactor.check_headers(passed, vault)
        except TimeoutError:
            if not bound.expired():
                raise
            raise inspection_timeout() from None
        except VaultFull as error:
            raise Refused(413, str(error), "conversation_too_large") from None
        except VaultUnavailable as error:
            raise Refused(503, f"{error}; nothing was forwarded", "vault_unavailable") from None
        except DetectionFailed as error:
            raise Refused(
                503, f"detection failed, nothing was forwarded: {error}", "detection_failed"
            ) from None
        headers = self.headers.upstream_headers(request.headers, passed, body=True)
        response = _relayed(await self.upstream.request(b"POST", path, headers, forwarded))
        await self._answer(response, vault, send)
        return response.status, hidden

    def _may_wait(self, name: str | None, raw: bytes) -> bool:
        """Whether redacting this request can wait on anything: a conversation's lock or
        shared vault, a scrub thread, the model worker (the model tier, images). Without,
        it runs on the loop from start to end."""
        redactor = self.redactor
        return (
            name is not None
            or len(raw) > self.limits.inline_bytes
            or redactor.ner is not None
            or redactor.model is not None
            or redactor.images is not None
        )

    async def _redact_in(
        self, name: str | None, endpoint: str, raw: bytes, deadline: float
    ) -> tuple[Vault, bytes, int]:
        """The conversation's vault, the body to forward and how many values it hides,
        redacted again from a fresh copy while another process changes the vault. The
        request's copy is committed only while its deadline has not passed."""
        loop = asyncio.get_running_loop()
        for _ in range(REDACTION_TRIES):
            vault = await self.vaults.checkout(name)
            forwarded, hidden = await self._redact(endpoint, raw, vault)
            if loop.time() >= deadline:  # done, but late: the vault stays as it was
                raise inspection_timeout()
            if await self.vaults.commit(vault):
                return vault, forwarded, hidden
        raise VaultUnavailable(
            f"the conversation changed under {REDACTION_TRIES} redactions in a row"
        )

    async def _redact(self, endpoint: str, raw: bytes, vault: Vault) -> tuple[bytes, int]:
        """The body to forward and how many values it hides; a large body on a scrub
        thread, within the text bound and the deadline (`Limits`)."""
        if len(raw) <= self.limits.inline_bytes and self.redactor.ner is None:
            body = parse_body(raw)
            hidden = await self.redactor.redact(endpoint, body, vault)
            # Written anew even when nothing was replaced: the client's bytes could say
            # more than what was parsed and inspected.
            return serialise(body), hidden
        cancelled = threading.Event()
        budget = TextBudget(self.redactor.rules, self.limits.max_text_chars, cancelled)
        # A redactor of its own: the loop's keeps caches (names already checked) that
        # another thread must not change under it.
        shared = self.redactor
        redactor = RequestRedactor(
            rules=budget,
            ner=shared.ner,
            model=shared.model,
            images=shared.images,
            run_blocking=shared.run_blocking,
        )

        def scrub() -> tuple[bytes, int]:
            body = parse_body(raw)
            hidden = asyncio.run(redactor.redact(endpoint, body, vault))
            return serialise(body), hidden

        return await self.scrubber.run(scrub, cancelled)

    @asynccontextmanager
    async def _holding(self, key: str | None) -> AsyncIterator[None]:
        if key is None:  # a request's own vault: nobody else can touch it
            yield
            return
        lock, users = self._vault_locks.get(key) or (asyncio.Lock(), 0)
        self._vault_locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._vault_locks[key]
            if users == 1:
                del self._vault_locks[key]
            else:
                self._vault_locks[key] = (lock, users - 1)

    async def _answer(self, response: UpstreamResponse, vault: Vault, send: Answer) -> None:
        if b"text/event-stream" in response.content_type:
            await self._stream(response, vault, send)
            return
        body = await response.read()
        if len(vault):
            body = _restore_body(body, vault)
        await send.whole(response.status, body, answer_headers(response.headers))

    async def _stream(self, response: UpstreamResponse, vault: Vault, send: Answer) -> None:
        restorer = SseRestorer(vault) if len(vault) else None
        await send.start_stream(response.status, answer_headers(response.headers))
        try:
            async for chunk in response.chunks():
                # Back-pressure: the upstream is read no faster than the client reads.
                await send.stream(restorer.feed(chunk) if restorer else chunk)
                if send.gone():  # the client left: stop reading
                    response.discard()
                    return
        except UpstreamError as error:
            log.warning("upstream failed mid-stream: %s", error)
            tail = restorer.close() if restorer else b""
            await send.stream(tail + b"data: " + error_body(str(error), "upstream_error") + b"\n\n")
        else:
            if restorer:
                await send.stream(restorer.close())
        await send.end_stream()


def _relayed(response: UpstreamResponse) -> UpstreamResponse:
    """`response` if its status is relayed; else its connection dropped, unread, and the
    502 that names the status raised (`inbound`: never a redirect)."""
    if relayable(response.status):
        return response
    response.discard()
    raise refuse_status(response.status)


def _restore_body(body: bytes, vault: Vault) -> bytes:
    try:
        return orjson.dumps(restore_json(orjson.loads(body), vault))
    except orjson.JSONDecodeError:
        return restore_text(body.decode("utf-8", errors="replace"), vault).encode()


def model_worker() -> Callable[[Callable[[], Any]], Any]:
    """A `RunBlocking` on one worker thread: one engine answers one call at a time."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="redacto-model")

    async def run(call: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(executor, call)

    return run
