"""The review server's HTTP side: loopback only, a token in every path, a strict CSP.

Built on the standard library's threading HTTP server: one thread per connection suits a
page that holds one event stream open while a single worker thread owns the model, and it
adds no dependency. Every request must carry the token (`/t/<token>/…`; anything else is a
404 that says nothing) and a loopback `Host` (no DNS-rebinding); a POST that names another
origin is refused. Every response forbids caching, framing and loading anything from
another host. The log holds methods, routes with the token masked, job ids and statuses —
never file names or document text, never an exception's message, never a control
character a client sent.

Requests are answered from one table (`ROUTES`: method, path pattern, answer); every
exception an answer raises goes to one handler (`_Handler._fail`), which turns it into a
status and logs an unexpected one by its type alone: a clean 500, and the server serves on.

Slow clients are bounded: the request head must arrive within `header_timeout_s`, a body
within `body_timeout_s`, no read or write may stall longer than `idle_timeout_s`, and at
most `max_connections` connections (one thread each) are served at once.
"""

from __future__ import annotations

import hmac
import io
import json
import logging
import re
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import unquote

from redacto.engines import Engine
from redacto.model_policy import policy_line
from redacto.prompts import PromptLibrary
from redacto.serve.jobs import Job, JobBoard, JobError, JobKind, ServeConfig
from redacto.serve.wire import DeadlineReader, loggable

log = logging.getLogger("redacto.serve")

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Nothing from another host, no inline script or style, no plugins, no framing."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
DOWNLOAD_TYPES = {".png": "image/png", ".pdf": "application/pdf", ".json": "application/json"}
HEARTBEAT_S = 15.0


class _ReviewHttpServer(ThreadingHTTPServer):
    """The HTTP server, knowing the review server its handlers answer for, and serving at
    most `max_connections` connections at once."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], review: ReviewServer) -> None:
        super().__init__(address, _Handler)
        self.review = review
        self._connections = 0
        self._count_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._count_lock:
            full = self._connections >= self.review.config.max_connections
            if not full:
                self._connections += 1
        if full:
            _refuse(request)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count_lock:
                self._connections -= 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """What escaped the request handling before a route was chosen (the base class's
        reading of the request): logged as `_Handler._fail` logs, by its type alone."""
        _log_internal_error(sys.exc_info()[1])


def _refuse(request: socket.socket) -> None:
    """Answer 503 without a thread, never waiting on the client."""
    try:
        request.setblocking(False)
        request.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
    except OSError:
        pass
    log.warning("http: 503, too many connections")


def _log_internal_error(error: BaseException | None) -> None:
    """Log an unexpected exception by its type alone: never its message or a traceback (a
    message may quote a file name, a value from the document, or what the client sent)."""
    log.error("http: internal error %s", type(error).__name__ if error is not None else "-")


class ReviewServer:
    """`redacto serve`: the review page and its API on 127.0.0.1, behind a random token."""

    def __init__(
        self,
        engine: Engine,
        prompts: PromptLibrary,
        config: ServeConfig | None = None,
        *,
        port: int = 0,
    ) -> None:
        self.config = config or ServeConfig()
        self.token = secrets.token_urlsafe(24)
        self.board = JobBoard(engine, prompts, self.config)
        try:
            self.httpd = _ReviewHttpServer(("127.0.0.1", port), self)
        except BaseException:
            self.board.close()
            raise
        self.port = self.httpd.server_address[1]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The page's address; the token in it is the only key to the server."""
        return f"http://127.0.0.1:{self.port}/t/{self.token}/"

    def serve_forever(self) -> None:
        self.httpd.serve_forever(poll_interval=0.2)

    def start(self) -> ReviewServer:
        """Serve from a background thread (tests, benchmarks); `close` stops it."""
        self._thread = threading.Thread(target=self.serve_forever, name="redacto-http", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and stop the jobs (`JobBoard.close`). Safe to call from the thread
        that ran `serve_forever` once it has returned."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
        self.board.close()
        self.httpd.server_close()

    def __enter__(self) -> ReviewServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Handler(BaseHTTPRequestHandler):
    server_version = "redacto"
    sys_version = ""

    @property
    def review(self) -> ReviewServer:
        server = self.server
        assert isinstance(server, _ReviewHttpServer)
        return server.review

    # -- connection ------------------------------------------------------------------------

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # replaced by a reader that keeps the deadlines
        self._reader = DeadlineReader(self.connection, self.review.config.idle_timeout_s)
        self.rfile = io.BufferedReader(self._reader, 1 << 16)
        self._logged_target = "-"
        self._answering = False

    def handle_one_request(self) -> None:
        self._reader.deadline = time.monotonic() + self.review.config.header_timeout_s
        self._logged_target = "-"
        self._answering = False
        super().handle_one_request()

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        config = self.review.config
        self._reader.deadline = time.monotonic() + config.body_timeout_s
        self.connection.settimeout(config.idle_timeout_s)  # for the answer's writes
        return parsed

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's error answers (a bad request line, an unknown method): a plain
        status, never an echo of what was sent, with the usual headers."""
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # not served: answer with a status line
        self.close_connection = True
        self._plain(code, HTTPStatus(code).phrase.lower())

    # -- dispatch --------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        try:
            path = self._route()
            found = None if path is None else _find_route(method, path)
            if found is None:
                self._plain(HTTPStatus.NOT_FOUND, "not found")
                return
            route, match = found
            if method == "POST" and not self._same_origin():
                return
            route.answer(self, match)
        except Exception as error:
            self._fail(error)

    def _fail(self, error: Exception) -> None:
        """The one handler for what a route raised: a `JobError` is answered with its own
        status and message (written for the page), a timeout 408, a client gone closes the
        connection, and anything else is answered 500 and logged by its type alone."""
        if isinstance(error, JobError):
            self._answer_error(error.status, str(error))
        elif isinstance(error, TimeoutError):
            log.info("http: the request timed out")
            self._answer_error(HTTPStatus.REQUEST_TIMEOUT, "the request took too long")
        elif isinstance(error, BrokenPipeError | ConnectionResetError):
            self.close_connection = True
        else:
            _log_internal_error(error)
            self._answer_error(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error")

    def _answer_error(self, status: int, message: str) -> None:
        """Answer an error if no answer has begun; the client may be gone already. The
        connection closes after it (a body may be left unread)."""
        self.close_connection = True
        if self._answering:
            self.close_connection = True
            return
        try:
            self._json(status, {"error": message})
        except OSError:
            self.close_connection = True

    def _route(self) -> str | None:
        """The path after `/t/<token>/`, or None for a request that may not see anything."""
        port = self.review.port
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            return None
        path = self.path.split("?", 1)[0]
        parts = path.split("/", 3)
        if len(parts) < 3 or parts[1] != "t":
            return None
        if not hmac.compare_digest(parts[2].encode(), self.review.token.encode()):
            return None
        if len(parts) == 3:
            return None  # `/t/<token>` without the slash: relative links would break
        self._logged_target = "/t/…/" + loggable(parts[3])
        return parts[3]

    # -- routes (each answers one entry of ROUTES) ---------------------------------------

    def _static(self, match: re.Match[str]) -> None:
        name = match.group() or "index.html"
        body = resources.files("redacto.serve").joinpath("static", name).read_bytes()
        self._bytes(HTTPStatus.OK, STATIC[name], body)

    def _jobs(self, match: re.Match[str]) -> None:
        engine = self.review.board.engine
        model = f"{engine.identity.name} · {policy_line(engine.identity, engine.settings)}"
        self._json(HTTPStatus.OK, {"jobs": self.review.board.summaries(), "model": model})

    def _upload(self, match: re.Match[str]) -> None:
        """A file to redact and review."""
        self._receive(JobKind.REDACT)

    def _upload_proofread(self, match: re.Match[str]) -> None:
        """A PDF or photo to proofread."""
        self._receive(JobKind.PROOFREAD)

    def _receive(self, kind: JobKind) -> None:
        """The request body is the file itself; `X-File-Name` names it (URL-encoded)."""
        board = self.review.board
        length = self._length()
        limit = self.review.config.max_upload_bytes
        if length is None or length <= 0:
            self.close_connection = True
            raise JobError("send the file as the request body, with its Content-Length", 411)
        if length > limit:
            self.close_connection = True  # the body is not read
            raise JobError(f"the file is larger than the limit of {limit // 1024 // 1024} MiB", 413)
        job = board.new_job(unquote(self.headers.get("X-File-Name", "")), kind)
        try:
            body = self._upload_body(length)
        except BaseException:
            board.abandon(job)
            self.close_connection = True
            raise
        board.enqueue(job, body)
        log.info("job %s queued to %s (%d bytes)", job.id, kind.value, length)
        self._json(HTTPStatus.CREATED, {"id": job.id})

    def _upload_body(self, length: int) -> bytes:
        """The upload, read into memory (it is never written to disk for a redaction)."""
        body = bytearray()
        while len(body) < length:
            chunk = self.rfile.read(min(length - len(body), 1 << 16))
            if not chunk:
                raise JobError("the upload ended early", 400)
            body += chunk
        return bytes(body)

    def _events(self, match: re.Match[str]) -> None:
        """Server-sent events: the job's log from `Last-Event-ID` on, then live."""
        job = self._job(match)
        try:
            after = int(self.headers.get("Last-Event-ID", "-1"))
        except ValueError:
            after = -1
        self._answering = True
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self._security_headers()
        self.end_headers()
        self.close_connection = True
        board = self.review.board
        while True:
            events, complete = board.events_after(job, after, HEARTBEAT_S)
            if complete:
                self.wfile.write(b"event: end\ndata: {}\n\n")
                self.wfile.flush()
                return
            chunk = "".join(f"id: {e.id}\nevent: {e.name}\ndata: {e.data}\n\n" for e in events)
            self.wfile.write(chunk.encode() if chunk else b": still here\n\n")
            self.wfile.flush()
            if events:
                after = events[-1].id

    def _page(self, match: re.Match[str]) -> None:
        png = self._job(match).page_images.get(int(match["page"]))
        if png is None:
            raise JobError("no such page", 404)
        self._bytes(HTTPStatus.OK, "image/png", png)

    def _download(self, match: re.Match[str]) -> None:
        job, name = self._job(match), unquote(match["name"])
        body = job.downloads.get(name)
        if body is None:
            raise JobError("no such file", 404)
        suffix = name[name.rfind(".") :]
        kind = DOWNLOAD_TYPES.get(suffix, "text/plain; charset=utf-8")
        stem = job.name.rpartition(".")[0] or job.name
        ascii_stem = re.sub(r"[^A-Za-z0-9._-]", "_", stem)
        extra = {"Content-Disposition": f'attachment; filename="{ascii_stem}.{name}"'}
        self._bytes(HTTPStatus.OK, kind, body, extra)

    def _edit(self, match: re.Match[str]) -> None:
        job = self._job(match)
        edited = self.review.board.edit(job, self._body_json())
        self._bytes(HTTPStatus.OK, "application/json", edited.encode())

    def _approve(self, match: re.Match[str]) -> None:
        self._json(HTTPStatus.OK, self.review.board.approve(self._job(match)))

    def _discard(self, match: re.Match[str]) -> None:
        self.review.board.discard(self._job(match))
        self._json(HTTPStatus.OK, {})

    # -- plumbing --------------------------------------------------------------------------

    def _job(self, match: re.Match[str]) -> Job:
        """The job a route's path names (`JobError` 404 when there is none)."""
        return self.review.board.get(match["job"])

    def _same_origin(self) -> bool:
        """A POST from another origin (a page trying its luck) is refused."""
        origin = self.headers.get("Origin")
        port = self.review.port
        if origin is None or origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            return True
        self._plain(HTTPStatus.FORBIDDEN, "forbidden")
        return False

    def _length(self) -> int | None:
        try:
            return int(self.headers.get("Content-Length", ""))
        except ValueError:
            return None

    def _body_json(self) -> dict[str, Any]:
        length = self._length()
        if length is None or not 0 < length <= 64 * 1024:
            raise JobError("an edit is a small JSON object", 400)
        try:
            body = json.loads(self.rfile.read(length))
        except (ValueError, RecursionError) as error:
            # Bad JSON, bad UTF-8, a number past int's digit limit, nesting past the stack.
            log.info("http: a malformed edit (%s)", type(error).__name__)
            raise JobError("an edit is a small JSON object", 400) from error
        if not isinstance(body, dict):
            raise JobError("an edit is a small JSON object", 400)
        return body

    def _json(self, status: int, body: object) -> None:
        self._bytes(status, "application/json", json.dumps(body).encode())

    def _plain(self, status: int, text: str) -> None:
        self._bytes(status, "text/plain; charset=utf-8", text.encode())

    def _bytes(
        self, status: int, kind: str, body: bytes, extra: dict[str, str] | None = None
    ) -> None:
        self._answering = True
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self._security_headers()
        self.end_headers()
        self.wfile.write(body)

    def _security_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Method, route behind the token (masked) and status. A request that did not name
        the token logs no path at all (it could be the token in another form, such as an
        absolute URL); whatever is logged is printable ASCII."""
        method = loggable(self.command) if self.command else "-"
        log.info("%s %s %s", method, self._logged_target, code)

    def log_message(self, format: str, *args: Any) -> None:
        """What the base class reports (a bad request line, a timeout): never the line."""
        if args and isinstance(args[0], int):
            log.warning("http: %d", args[0])
        else:
            log.warning("http: %s", "timed out" if "timed out" in format else "error")


@dataclass(frozen=True)
class Route:
    """One thing the server answers: a method, the path after `/t/<token>/` (matched
    whole), and the handler method that answers it with the match."""

    method: str
    path: re.Pattern[str]
    answer: Callable[[_Handler, re.Match[str]], None]


def _job_path(rest: str) -> re.Pattern[str]:
    return re.compile(rf"api/jobs/(?P<job>[0-9a-f]{{16}})/{rest}", re.DOTALL)


ROUTES: tuple[Route, ...] = (
    Route("GET", re.compile("|".join(["", *map(re.escape, STATIC)])), _Handler._static),
    Route("GET", re.compile("api/jobs"), _Handler._jobs),
    Route("POST", re.compile("api/jobs"), _Handler._upload),
    Route("POST", re.compile("api/proofread"), _Handler._upload_proofread),
    Route("GET", _job_path("events"), _Handler._events),
    Route("GET", _job_path(r"page/(?P<page>\d{1,4})\.png"), _Handler._page),
    Route("GET", _job_path("files/(?P<name>.*)"), _Handler._download),
    Route("POST", _job_path("edit"), _Handler._edit),
    Route("POST", _job_path("approve"), _Handler._approve),
    Route("POST", _job_path("discard"), _Handler._discard),
)
"""Everything the server answers; any other request is a 404. A POST is answered only
when it comes from the page's own origin (`_Handler._same_origin`)."""


def _find_route(method: str, path: str) -> tuple[Route, re.Match[str]] | None:
    for route in ROUTES:
        if route.method == method and (match := route.path.fullmatch(path)) is not None:
            return route, match
    return None
