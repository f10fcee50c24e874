"""The review server's ASGI application: the routes behind the token (`guard.TokenGuard`
checks it, the `Host` and the `Origin` before anything here runs).

Requests are answered from one table (`ROUTES`: method, path pattern, answer); every
exception an answer raises goes to one handler (`ReviewApp._fail`), which turns it into a
status and logs an unexpected one by its type alone: a clean 500, and the server serves on.
The job board is blocking (its worker owns the model; approving writes a PDF in memory):
every call to it runs on a thread of the server's pool, never on the event loop, and an
event stream waits for the next event there too. The log holds methods, routes with the
token masked, job ids and statuses — never file names or document text, never an
exception's message, never a control character a client sent.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from asyncio import FIRST_COMPLETED
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import unquote

from redacto.asgi import Receive, Scope, Send
from redacto.asgi.protocol import CLIENT_DONE
from redacto.modelfile.policy import policy_line
from redacto.serve.answers import Reply
from redacto.serve.jobs import Job, JobBoard, JobError, JobKind
from redacto.serve.token_guard import ROUTE
from redacto.serve.wire import loggable

log = logging.getLogger("redacto.serve")

STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
DOWNLOAD_TYPES = {".png": "image/png", ".pdf": "application/pdf", ".json": "application/json"}
HEARTBEAT_S = 15.0
MAX_EDIT_BYTES = 64 * 1024
T = TypeVar("T")


class ClientGone(Exception):
    """The client left (or was cut off by a deadline) before its request was read whole."""


@dataclass
class Request:
    """One request behind the token: its method, the path after `/t/<token>/`, headers."""

    method: str
    route: str
    headers: dict[bytes, bytes]
    receive: Receive
    client_done: asyncio.Event
    """Set once the client sends nothing more (the protocol's `CLIENT_DONE`)."""

    @classmethod
    def of(cls, scope: Scope, receive: Receive) -> Request:
        headers = {bytes(name): bytes(value) for name, value in scope["headers"]}
        return cls(scope["method"], scope[ROUTE], headers, receive, scope[CLIENT_DONE])

    def header(self, name: str, default: str = "") -> str:
        return self.headers.get(name.encode(), default.encode()).decode("latin-1")

    def length(self) -> int | None:
        try:
            return int(self.header("content-length"))
        except ValueError:
            return None

    async def body(self) -> bytes:
        """The body, read whole (httptools keeps it to its Content-Length). Raises
        `ClientGone` when the connection ends first."""
        body = bytearray()
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            body += message.get("body", b"")
            if not message.get("more_body", False):
                return bytes(body)


class ReviewApp:
    """The routes, answering from `board`; its blocking calls run on `threads`."""

    def __init__(self, board: JobBoard, threads: Executor) -> None:
        self.board = board
        self._threads = threads
        self.stopping = asyncio.Event()
        """Set when the server stops: event streams end at once, so that nothing waits
        for the stop's grace time to be cancelled."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request, reply = Request.of(scope, receive), Reply(send)
        try:
            found = _find_route(request.method, request.route)
            if found is None:
                await reply.plain(404, "not found")
            else:
                route, match = found
                await route.answer(self, request, reply, match)
        except Exception as error:
            await self._fail(error, reply)
        finally:
            status = reply.status or "-"
            log.info("%s /t/…/%s %s", loggable(request.method), loggable(request.route), status)

    async def _fail(self, error: Exception, reply: Reply) -> None:
        """The one handler for what a route raised: a `JobError` is answered with its own
        status and message (written for the page), a client gone is let go, and anything
        else is answered 500 and logged by its type alone. The connection closes after it,
        unless an answer had begun (then it cannot be framed: the stream just ends)."""
        if isinstance(error, ClientGone):
            return
        if isinstance(error, JobError):
            status, message = error.status, str(error)
        else:
            _log_internal_error(error)
            status, message = 500, "internal error"
        if not reply.started:
            await reply.json(status, {"error": message}, close=True)

    def _blocking(self, call: Callable[..., T], *args: Any) -> Awaitable[T]:
        """`call(*args)` on a thread of the pool: the board's locks are never taken on the
        event loop."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._threads, functools.partial(call, *args))

    # -- routes (each answers one entry of ROUTES) ---------------------------------------

    async def _static(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        name = match.group() or "index.html"
        body = resources.files("redacto.serve").joinpath("static", name).read_bytes()
        await reply.send(200, STATIC[name], body)

    async def _jobs(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        engine = self.board.engine
        model = f"{engine.identity.name} · {policy_line(engine.identity, engine.settings)}"
        jobs = await self._blocking(self.board.summaries)
        await reply.json(200, {"jobs": jobs, "model": model})

    async def _upload(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        """A file to redact and review."""
        await self._receive(request, reply, JobKind.REDACT)

    async def _upload_proofread(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        """A PDF or photo to proofread."""
        await self._receive(request, reply, JobKind.PROOFREAD)

    async def _receive(self, request: Request, reply: Reply, kind: JobKind) -> None:
        """The request body is the file itself; `X-File-Name` names it (URL-encoded). Its
        place in line is taken before the body is read, and the size checked first."""
        length = request.length()
        limit = self.board.config.max_upload_bytes
        if length is None or length <= 0:
            raise JobError("send the file as the request body, with its Content-Length", 411)
        if length > limit:
            raise JobError(f"the file is larger than the limit of {limit // 1024 // 1024} MiB", 413)
        name = unquote(request.header("x-file-name"))
        job = await self._blocking(self.board.new_job, name, kind)
        try:
            body = await request.body()
        except BaseException:
            self.board.abandon(job)  # quick, and awaiting could be cancelled again
            raise
        await self._blocking(self.board.enqueue, job, body)
        log.info("job %s queued to %s (%d bytes)", job.id, kind.value, length)
        await reply.json(201, {"id": job.id})

    async def _events(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        """Server-sent events: the job's log from `Last-Event-ID` on, then live, until the
        job is over or the client leaves."""
        job = await self._job(match)
        try:
            after = int(request.header("last-event-id", "-1"))
        except ValueError:
            after = -1
        await request.body()
        # The client left or half-closed (no page does: it left), or the server is stopping.
        over = {
            asyncio.ensure_future(request.client_done.wait()),
            asyncio.ensure_future(self.stopping.wait()),
        }
        await reply.start_stream("text/event-stream; charset=utf-8")
        try:
            while True:
                waiting = asyncio.ensure_future(
                    self._blocking(self.board.events_after, job, after, HEARTBEAT_S)
                )
                done, _ = await asyncio.wait({waiting, *over}, return_when=FIRST_COMPLETED)
                if waiting not in done:
                    break
                events, complete = waiting.result()
                if complete:
                    await reply.stream(b"event: end\ndata: {}\n\n")
                    break
                chunk = "".join(f"id: {e.id}\nevent: {e.name}\ndata: {e.data}\n\n" for e in events)
                await reply.stream(chunk.encode() if chunk else b": still here\n\n")
                if events:
                    after = events[-1].id
        finally:
            for future in over:
                future.cancel()
        await reply.end_stream()

    async def _page(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        png = (await self._job(match)).page_images.get(int(match["page"]))
        if png is None:
            raise JobError("no such page", 404)
        await reply.send(200, "image/png", png)

    async def _download(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        job, name = await self._job(match), unquote(match["name"])
        body = job.downloads.get(name)
        if body is None:
            raise JobError("no such file", 404)
        suffix = name[name.rfind(".") :]
        kind = DOWNLOAD_TYPES.get(suffix, "text/plain; charset=utf-8")
        stem = job.name.rpartition(".")[0] or job.name
        ascii_stem = re.sub(r"[^A-Za-z0-9._-]", "_", stem)
        extra = {"Content-Disposition": f'attachment; filename="{ascii_stem}.{name}"'}
        await reply.send(200, kind, body, extra)

    async def _edit(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        job = await self._job(match)
        edited = await self._blocking(self.board.edit, job, await _edit_body(request))
        await reply.send(200, "application/json", edited.encode())

    async def _approve(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        job = await self._job(match)
        await reply.json(200, await self._blocking(self.board.approve, job))

    async def _discard(self, request: Request, reply: Reply, match: re.Match[str]) -> None:
        job = await self._job(match)
        await self._blocking(self.board.discard, job)
        await reply.json(200, {})

    async def _job(self, match: re.Match[str]) -> Job:
        """The job a route's path names (`JobError` 404 when there is none)."""
        return await self._blocking(self.board.get, match["job"])


async def _edit_body(request: Request) -> dict[str, Any]:
    """A reviewer's edit: a small JSON object."""
    length = request.length()
    if length is None or not 0 < length <= MAX_EDIT_BYTES:
        raise JobError("an edit is a small JSON object", 400)
    try:
        body = json.loads(await request.body())
    except (ValueError, RecursionError) as error:
        # Bad JSON, bad UTF-8, a number past int's digit limit, nesting past the stack.
        log.info("http: a malformed edit (%s)", type(error).__name__)
        raise JobError("an edit is a small JSON object", 400) from error
    if not isinstance(body, dict):
        raise JobError("an edit is a small JSON object", 400)
    return body


def _log_internal_error(error: BaseException) -> None:
    """Log an unexpected exception by its type alone: never its message or a traceback (a
    message may quote a file name, a value from the document, or what the client sent)."""
    log.error("http: internal error %s", type(error).__name__)


Answer = Callable[[ReviewApp, Request, Reply, re.Match[str]], Awaitable[None]]


@dataclass(frozen=True)
class Route:
    """One thing the server answers: a method, the path after `/t/<token>/` (matched
    whole), and the method of `ReviewApp` that answers it with the match."""

    method: str
    path: re.Pattern[str]
    answer: Answer


def _job_path(rest: str) -> re.Pattern[str]:
    return re.compile(rf"api/jobs/(?P<job>[0-9a-f]{{16}})/{rest}", re.DOTALL)


ROUTES: tuple[Route, ...] = (
    Route("GET", re.compile("|".join(["", *map(re.escape, STATIC)])), ReviewApp._static),
    Route("GET", re.compile("api/jobs"), ReviewApp._jobs),
    Route("POST", re.compile("api/jobs"), ReviewApp._upload),
    Route("POST", re.compile("api/proofread"), ReviewApp._upload_proofread),
    Route("GET", _job_path("events"), ReviewApp._events),
    Route("GET", _job_path(r"page/(?P<page>\d{1,4})\.png"), ReviewApp._page),
    Route("GET", _job_path("files/(?P<name>.*)"), ReviewApp._download),
    Route("POST", _job_path("edit"), ReviewApp._edit),
    Route("POST", _job_path("approve"), ReviewApp._approve),
    Route("POST", _job_path("discard"), ReviewApp._discard),
)
"""Everything the server answers behind the token; any other request is a 404."""


def _find_route(method: str, path: str) -> tuple[Route, re.Match[str]] | None:
    for route in ROUTES:
        if route.method == method and (match := route.path.fullmatch(path)) is not None:
            return route, match
    return None
