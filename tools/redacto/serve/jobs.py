"""Jobs of the review server: one model, one worker, a queue, and each job's event log.

A job is one uploaded file. It waits its turn (the page shows its place), runs through
`redact_file` — the same entry point the CLI uses — on the server's single engine, and then
waits for its reviewer: edits, then approval (outputs written by the CLI's writer, read into
memory for download) or discard. Its upload lives in a private folder (0700, under the
server's run folder: `redacto.serve.folders`) that is removed as soon as the job is over:
approved, discarded, failed, or the server stopped. Every event a job produced is kept in
order, so a page that reloads (or a second tab) replays them and then follows live; review
edits are kept as deltas (`redacto.serve.deltas`), not as whole reviews.
"""

from __future__ import annotations

import io
import json
import logging
import os
import secrets
import shutil
import threading
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from redacto.document import Mode
from redacto.engines import Engine
from redacto.pipeline import PipelineOptions, ProgressEvent
from redacto.prompts import PromptLibrary
from redacto.proofread import ProofreadOptions, UpstreamConfig
from redacto.redact_file import (
    REDACTED_IMAGE,
    REDACTED_PDF,
    REPORT,
    BadInputError,
    PreparedInput,
    RedactOutcome,
    input_mode,
    redact_file,
)
from redacto.report import Status
from redacto.review import ReviewError, ReviewSession
from redacto.serve.deltas import review_delta
from redacto.serve.folders import RunFolder
from redacto.serve.inputs import page_images, refuse_huge_photo, release_memory, safe_name
from redacto.serve.proofreading import proofread_upload
from redacto.serve.views import page_view, review_view, step_view

log = logging.getLogger("redacto.serve")

MiB = 1024 * 1024


@dataclass(frozen=True)
class ServeConfig:
    """How the server runs jobs. The defaults are the product's behaviour."""

    ocr: str = "ppocr"
    options: PipelineOptions = field(default_factory=PipelineOptions)
    max_upload_bytes: int = 20 * MiB
    max_waiting: int = 8
    """Jobs that may wait for the model at once, uploads still arriving included; more
    uploads are refused (503) before their body is read."""
    keep_finished: int = 8
    """Finished jobs (approved, discarded, failed) kept for download and re-attachment."""
    max_pixels: int = 50_000_000
    """Largest photo accepted, in pixels: a bigger one fails with a clear message before it
    is decoded (a 100 MP photo takes 1.5 GB while it is redacted)."""
    temp_root: Path | None = None
    """The private parent of the run folder (default: `redacto-serve-<uid>` in the
    system's temporary folder); a dead server's leftovers there are removed at start."""
    header_timeout_s: float = 10.0
    """The request line and headers must arrive within this; an idle kept-alive connection
    is closed after it too."""
    idle_timeout_s: float = 30.0
    """Longest silence while a body is read or an answer written."""
    body_timeout_s: float = 120.0
    """A request body (an upload) must arrive whole within this."""
    max_connections: int = 32
    """Connections served at once (each holds a thread); more are answered 503 and closed."""
    stop_grace_s: float = 10.0
    """On stop, how long the worker may take to leave the model (its job is dropped)."""
    proofread_upstream: UpstreamConfig | None = None
    """The LLM a proofread job asks (its key from `REDACTO_UPSTREAM_API_KEY`); None: the
    offline Hunspell spelling check."""


class JobKind(StrEnum):
    """What a job does with its file: redact it (then a person reviews and approves), or
    proofread it (the mistakes drawn on its pages; nothing to approve)."""

    REDACT = "redact"
    PROOFREAD = "proofread"


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    REVIEW = "review"
    APPROVED = "approved"
    PROOFREAD = "proofread"
    DISCARDED = "discarded"
    FAILED = "failed"


FINISHED = frozenset({JobState.APPROVED, JobState.PROOFREAD, JobState.DISCARDED, JobState.FAILED})


@dataclass(frozen=True)
class JobEvent:
    """One server-sent event: its number in the job's log, its name and its JSON."""

    id: int
    name: str
    data: str


@dataclass
class Job:
    """One uploaded file, from the queue to its approved outputs."""

    id: str
    name: str
    folder: Path
    kind: JobKind = JobKind.REDACT
    state: JobState = JobState.QUEUED
    events: list[JobEvent] = field(default_factory=list)
    prepared: PreparedInput | None = None
    session: ReviewSession | None = None
    view: dict[str, object] | None = None
    """The review as the pages last heard it (the base of the next delta)."""
    page_images: dict[int, bytes] = field(default_factory=dict)
    downloads: dict[str, bytes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def input_path(self) -> Path:
        return self.folder / "input" / self.name

    @property
    def finished(self) -> bool:
        return self.state in FINISHED


class JobError(ValueError):
    """A request about a job that cannot be served (unknown job, wrong state, bad edit)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class JobBoard:
    """The queue, the single worker that owns the engine, and every job's state.

    All state changes happen under one condition, which also wakes the event streams.
    """

    def __init__(self, engine: Engine, prompts: PromptLibrary, config: ServeConfig) -> None:
        self.engine = engine
        self.prompts = prompts
        self.config = config
        self.run_folder = RunFolder(config.temp_root)
        if self.run_folder.swept:
            log.info("removed %d folder(s) a stopped server left", self.run_folder.swept)
        self._jobs: dict[str, Job] = {}
        self._waiting: deque[Job] = deque()
        self._arriving = 0  # uploads whose body is being read: they hold a place in line
        self._changed = threading.Condition()
        self._closing = False
        self._worker = threading.Thread(target=self._work, name="redacto-worker", daemon=True)
        self._worker.start()

    # -- uploads ---------------------------------------------------------------------------

    def new_job(self, name: str, kind: JobKind = JobKind.REDACT) -> Job:
        """A job with its private folder, for an upload about to be written there. It holds
        a place in line from now on (before its body is read), until `enqueue` or
        `abandon`."""
        stored = safe_name(name)
        try:
            mode = input_mode(Path(stored))
        except BadInputError as error:
            raise JobError(str(error).partition(": ")[2] or str(error), 415) from error
        if kind is JobKind.PROOFREAD and mode is not Mode.IMAGE:
            # A text file has no page to draw on: `redacto proofread` takes it.
            raise JobError("proofreading here takes a PDF or a photo", 415)
        with self._changed:
            if self._closing:
                raise JobError("the server is stopping", 503)
            if len(self._waiting) + self._arriving >= self.config.max_waiting:
                raise JobError("too many files are waiting; try again when one is done", 503)
            self._arriving += 1
        try:
            folder = self.run_folder.new_job_folder()
            job = Job(id=secrets.token_hex(8), name=stored, folder=folder, kind=kind)
            job.input_path.parent.mkdir(mode=0o700)
        except BaseException:
            self._arrived()
            raise
        return job

    def open_upload(self, job: Job) -> io.BufferedWriter:
        """The file the upload is written to: new, readable by this user only (0600)."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        return os.fdopen(os.open(job.input_path, flags, 0o600), "wb")

    def enqueue(self, job: Job) -> None:
        """The upload is written: the job joins the queue."""
        with self._changed:
            self._arriving -= 1
            if self._closing:
                self._remove_folder(job)
                raise JobError("the server is stopping", 503)
            self._jobs[job.id] = job
            self._waiting.append(job)
            self._add(job, "queued", _queued(job, len(self._waiting)))
            self._changed.notify_all()

    def abandon(self, job: Job) -> None:
        """An upload that did not arrive whole: its folder goes, its place in line too."""
        self._remove_folder(job)
        self._arrived()

    def _arrived(self) -> None:
        with self._changed:
            self._arriving -= 1

    # -- reading ---------------------------------------------------------------------------

    def get(self, job_id: str) -> Job:
        with self._changed:
            job = self._jobs.get(job_id)
        if job is None:
            raise JobError("no such job", 404)
        return job

    def summaries(self) -> list[dict[str, object]]:
        """Every job, oldest first: id, name, what it does, state, and its place while it
        waits."""
        with self._changed:
            return [
                {
                    "id": job.id,
                    "name": job.name,
                    "kind": job.kind.value,
                    "state": job.state.value,
                    "place": self._place(job),
                }
                for job in self._jobs.values()
            ]

    def events_after(self, job: Job, after: int, timeout: float) -> tuple[list[JobEvent], bool]:
        """The job's events numbered above `after` (waiting up to `timeout` for one), and
        whether the stream is complete (the job is over and all its events are out)."""
        with self._changed:
            if len(job.events) <= after + 1 and not job.finished and not self._closing:
                self._changed.wait(timeout)
            fresh = job.events[after + 1 :]
            return fresh, (job.finished or self._closing) and not fresh

    # -- review ----------------------------------------------------------------------------

    def edit(self, job: Job, request: dict[str, object]) -> str:
        """Apply one reviewer edit; returns the new review view's JSON. Every page attached
        to the job hears of it as a `delta` event: what changed since the last view."""
        with job.lock:
            session = self._session(job)
            try:
                _apply_edit(session, request)
                view = review_view(session).model_dump(mode="json")
            except (ReviewError, KeyError, TypeError, ValueError) as error:
                raise JobError(str(error)) from error
            with self._changed:
                if job.view is not None:
                    self._add(job, "delta", review_delta(job.view, view))
                job.view = view
            return _compact(view)

    def approve(self, job: Job) -> dict[str, object]:
        """Write the reviewed outputs with the CLI's writer, keep them for download, and
        remove the job's folder."""
        with job.lock:
            session = self._session(job)
            out_dir = job.folder / "approved"
            out_dir.mkdir(mode=0o700)
            outcome = session.approve(out_dir)
            job.downloads = {path.name: path.read_bytes() for path in outcome.written}
            files = self._files(job, outcome)
            edits = len(session.edits)
            del session, outcome
            with self._changed:
                job.state = JobState.APPROVED
                self._drop_input(job)
                # From now on the page shows what was written, not the original.
                if REDACTED_IMAGE in job.downloads and REDACTED_PDF not in job.downloads:
                    job.page_images[0] = job.downloads[REDACTED_IMAGE]
                self._remove_folder(job)
                self._add(job, "approved", files)
                self._forget_old()
            log.info("job %s approved (%d edits)", job.id, edits)
        release_memory()
        return files

    def discard(self, job: Job) -> None:
        """Drop a job under review (or still waiting): nothing is written, its folder goes."""
        with job.lock, self._changed:
            if job.state is JobState.QUEUED:
                self._waiting.remove(job)
            elif job.state is not JobState.REVIEW:
                raise JobError(f"a job that is {job.state.value} cannot be discarded", 409)
            job.state = JobState.DISCARDED
            self._drop_input(job)
            self._remove_folder(job)
            self._add(job, "discarded", {})
            self._places_changed()
            self._forget_old()
        release_memory()

    def close(self) -> None:
        """Stop: every job folder goes at once (the running job is dropped: nothing it
        would write could be downloaded any more), then the worker has `stop_grace_s` to
        leave the model, and the run folder is removed."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
            for job in self._jobs.values():
                self._remove_folder(job)
        self._worker.join(timeout=self.config.stop_grace_s)
        # Again: a job that was running may have written its outputs meanwhile.
        self.run_folder.remove()

    # -- the worker ------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._waiting and not self._closing:
                    self._changed.wait()
                if self._closing:
                    return
                job = self._waiting.popleft()
                job.state = JobState.RUNNING
                self._add(job, "started", {})
                self._places_changed()
            try:
                if job.kind is JobKind.PROOFREAD:
                    self._proofread(job)
                else:
                    self._run(job)
            except Exception as error:  # a job's failure must not stop the worker
                # Where it failed, not the message: an exception's text may quote the document.
                where = "".join(traceback.format_tb(error.__traceback__, limit=-3)).strip()
                log.error("job %s failed: %s\n%s", job.id, type(error).__name__, where)
                self._fail(job, f"internal error: {type(error).__name__}")

    def _step_events(self, job: Job) -> Callable[[ProgressEvent], None]:
        """The detector's progress, as `step` events (each one names the word just found)."""

        def on_event(event: ProgressEvent) -> None:
            with self._changed:
                self._add_raw(job, "step", step_view(event).model_dump_json())

        return on_event

    def _page_event(self, job: Job) -> Callable[[PreparedInput], None]:
        """The input as read, as a `page` event: page images and words, before any model."""

        def on_prepared(prepared: PreparedInput) -> None:
            pages = page_images(prepared)
            view = page_view(prepared, [page for page, _ in pages])
            with self._changed:
                job.prepared = prepared
                job.page_images = {page.number: png for page, png in pages}
                self._add_raw(job, "page", view.model_dump_json())

        return on_prepared

    def _run(self, job: Job) -> None:
        log.info("job %s started", job.id)
        (job.folder / "draft").mkdir(mode=0o700)
        try:
            refuse_huge_photo(job.input_path, self.config.max_pixels)
            outcome = redact_file(
                job.input_path,
                self.engine,
                self.prompts,
                job.folder / "draft",
                ocr=self.config.ocr,
                options=self.config.options,
                on_event=self._step_events(job),
                on_prepared=self._page_event(job),
            )
        except BadInputError as error:
            log.info("job %s: bad input", job.id)
            self._fail(job, str(error).replace(str(job.folder), "…"))
            return
        report = outcome.report
        if report.status is Status.ERROR or job.prepared is None:
            job.downloads = {REPORT: (job.folder / "draft" / REPORT).read_bytes()}
            log.info("job %s ended ERROR", job.id)
            self._fail(job, report.error or "the run ended in ERROR", self._files(job, outcome))
            return
        shutil.rmtree(job.folder / "draft", ignore_errors=True)
        session = ReviewSession(job.prepared, report, self.prompts)
        view = review_view(session).model_dump(mode="json")
        with self._changed:
            if self._closing:
                self._remove_folder(job)
                return
            job.session = session
            job.view = view
            job.state = JobState.REVIEW
            self._add(job, "review", view)
        log.info("job %s ready for review: %s", job.id, report.status.value)
        release_memory()  # what OCR and the steps used on the way

    def _proofread(self, job: Job) -> None:
        """Proofread the upload (`proofread_upload`): its page, the detector's steps, each
        mistake the moment it is placed, then its outputs for download. There is nothing to
        approve: the job ends here, its page images kept so that a page re-attaching still
        shows the mistakes on them."""

        def emit(name: str, data: str) -> None:
            with self._changed:
                self._add_raw(job, name, data)

        log.info("job %s started (proofread)", job.id)
        (job.folder / "proofread").mkdir(mode=0o700)
        options = ProofreadOptions(
            upstream=self.config.proofread_upstream,
            ocr=self.config.ocr,
            pipeline=self.config.options,
        )
        try:
            refuse_huge_photo(job.input_path, self.config.max_pixels)
            done = proofread_upload(
                job.input_path,
                job.folder / "proofread",
                options,
                self.engine,
                self.prompts,
                emit=emit,
                on_prepared=self._page_event(job),
                on_event=self._step_events(job),
            )
        except BadInputError as error:
            log.info("job %s: bad input", job.id)
            self._fail(job, str(error).replace(str(job.folder), "…"))
            return
        view = done.view.hiding(str(job.folder))
        with self._changed:
            job.downloads = done.downloads
            job.state = JobState.PROOFREAD if view.complete else JobState.FAILED
            job.prepared = None
            self._remove_folder(job)
            self._add_raw(job, "proofread", view.model_dump_json())
            self._forget_old()
        log.info(
            "job %s proofread: %d mistake(s), %d placed, complete: %s",
            job.id,
            view.mistakes,
            view.located,
            view.complete,
        )
        release_memory()

    def _fail(self, job: Job, message: str, files: dict[str, object] | None = None) -> None:
        with self._changed:
            job.state = JobState.FAILED
            self._drop_input(job)
            self._remove_folder(job)
            self._add(job, "failed", {"message": message, **(files or {})})
            self._forget_old()
        release_memory()

    # -- helpers (call with the condition held) ------------------------------------------

    def _session(self, job: Job) -> ReviewSession:
        if job.state is not JobState.REVIEW or job.session is None:
            raise JobError(f"the job is {job.state.value}, not under review", 409)
        return job.session

    def _files(self, job: Job, outcome: RedactOutcome) -> dict[str, object]:
        return {
            "files": [
                {"name": path.name, "bytes": len(job.downloads.get(path.name, b""))}
                for path in outcome.written
                if path.name in job.downloads
            ],
            "status": outcome.report.status.value,
        }

    def _add(self, job: Job, name: str, data: dict[str, object]) -> None:
        self._add_raw(job, name, _compact(data))

    def _add_raw(self, job: Job, name: str, data: str) -> None:
        job.events.append(JobEvent(id=len(job.events), name=name, data=data))
        self._changed.notify_all()

    def _place(self, job: Job) -> int | None:
        return self._waiting.index(job) + 1 if job in self._waiting else None

    def _places_changed(self) -> None:
        for place, waiting in enumerate(self._waiting, 1):
            self._add(waiting, "queued", _queued(waiting, place))

    def _forget_old(self) -> None:
        finished = [job for job in self._jobs.values() if job.finished]
        for job in finished[: max(0, len(finished) - self.config.keep_finished)]:
            del self._jobs[job.id]

    @staticmethod
    def _drop_input(job: Job) -> None:
        """Let go of everything the job read (the image, the session): only its events and
        downloads stay."""
        job.session = job.prepared = job.view = None
        job.page_images.clear()

    @staticmethod
    def _remove_folder(job: Job) -> None:
        shutil.rmtree(job.folder, ignore_errors=True)


def _queued(job: Job, place: int) -> dict[str, object]:
    return {"place": place, "name": job.name, "kind": job.kind.value}


def _compact(data: dict[str, object]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _apply_edit(session: ReviewSession, request: dict[str, object]) -> None:
    """One edit request from the page: `toggle` a word, `add`/`remove` a text span,
    `dismiss` an unplaced value."""
    action = request.get("action")
    label = str(request.get("label", ""))
    edits: dict[str, Callable[[], object]] = {
        "toggle": lambda: session.toggle_element(_int(request, "index"), label),
        "add": lambda: session.add_span(_int(request, "start"), _int(request, "end"), label),
        "remove": lambda: session.remove_span(_int(request, "start"), _int(request, "end")),
        "dismiss": lambda: session.dismiss(_int(request, "position")),
    }
    if not isinstance(action, str) or action not in edits:
        raise ReviewError(f"unknown edit {action!r}; use one of {', '.join(edits)}")
    edits[action]()


def _int(request: dict[str, object], key: str) -> int:
    value = request.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReviewError(f"{key} must be a whole number")
    return value
