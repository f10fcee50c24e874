"""Jobs of the review server: one model, one worker, a queue, and each job's event log.

A job is one uploaded file, held in memory. It waits its turn (the page shows its place),
is read from its bytes (`read_input_bytes`, the reading the CLI does of a file) and then,
on the server's single engine, either redacted (`redact`) and handed to its reviewer —
edits, then approval (the files the CLI's writer would write, made in memory for download)
or discard — or proofread (`proofread`, what `redacto proofread` runs; its outputs made in
memory for download). No job writes a file. Every event a job produced is kept in order,
so a page that reloads (or a second tab) replays them and then follows live; review edits
are kept as deltas (`redacto.serve.deltas`), not as whole reviews.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from redacto.document import Mode
from redacto.engines import Engine, EngineError
from redacto.inputs import (
    BadInputError,
    InputFile,
    ReadOptions,
    input_mode,
    read_input_bytes,
    redact,
)
from redacto.inputs.base import REDACTED_IMAGE, REDACTED_PDF, bytes_info
from redacto.inputs.redaction import report_file
from redacto.pipeline import PipelineOptions, ProgressEvent
from redacto.prompts import PromptLibrary
from redacto.proofread import ProofreadOptions, UpstreamConfig
from redacto.report import RunReport, Status, error_report
from redacto.serve.deltas import review_delta
from redacto.serve.inputs import page_images, release_memory, safe_name
from redacto.serve.proofreading import proofread_upload
from redacto.serve.review import ReviewError, ReviewSession
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
    header_timeout_s: float = 10.0
    """The request line and headers must arrive within this; an idle kept-alive connection
    is closed after it too."""
    idle_timeout_s: float = 30.0
    """A client that takes nothing of an answer for this long is disconnected."""
    body_timeout_s: float = 120.0
    """A request body (an upload) must arrive whole within this."""
    max_connections: int = 32
    """Connections served at once (each may hold a thread while the board answers it);
    more are answered 503 as they are made, and closed."""
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
    kind: JobKind = JobKind.REDACT
    upload: bytes | None = field(default=None, repr=False)
    """The uploaded file, in memory until the job starts (never written)."""
    state: JobState = JobState.QUEUED
    events: list[JobEvent] = field(default_factory=list)
    session: ReviewSession | None = None
    view: dict[str, object] | None = None
    """The review as the pages last heard it (the base of the next delta)."""
    page_images: dict[int, bytes] = field(default_factory=dict)
    downloads: dict[str, bytes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

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
        self._jobs: dict[str, Job] = {}
        self._waiting: deque[Job] = deque()
        self._arriving = 0  # uploads whose body is being read: they hold a place in line
        self._changed = threading.Condition()
        self._closing = False
        self._worker = threading.Thread(target=self._work, name="redacto-worker", daemon=True)
        self._worker.start()

    # -- uploads ---------------------------------------------------------------------------

    def new_job(self, name: str, kind: JobKind = JobKind.REDACT) -> Job:
        """A job for an upload about to be read. It holds a place in line from now on
        (before its body is read), until `enqueue` or `abandon`."""
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
        return Job(id=secrets.token_hex(8), name=stored, kind=kind)

    def enqueue(self, job: Job, upload: bytes) -> None:
        """The upload has arrived whole (kept in memory): the job joins the queue."""
        with self._changed:
            self._arriving -= 1
            if self._closing:
                raise JobError("the server is stopping", 503)
            job.upload = upload
            self._jobs[job.id] = job
            self._waiting.append(job)
            self._add(job, "queued", _queued(job, len(self._waiting)))
            self._changed.notify_all()

    def abandon(self, job: Job) -> None:
        """An upload that did not arrive whole: its place in line is given back."""
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
        """Make the reviewed outputs in memory, byte for byte what the CLI's writer writes,
        and keep them for download; nothing is written."""
        with job.lock:
            session = self._session(job)
            redaction = session.approved()
            job.downloads = {file.name: file.data for file in redaction.files_as_written()}
            files = _files(job.downloads, redaction.report.status)
            edits = len(session.edits)
            del session, redaction
            with self._changed:
                job.state = JobState.APPROVED
                self._drop_input(job)
                # From now on the page shows what was written, not the original.
                if REDACTED_IMAGE in job.downloads and REDACTED_PDF not in job.downloads:
                    job.page_images[0] = job.downloads[REDACTED_IMAGE]
                self._add(job, "approved", files)
                self._forget_old()
            log.info("job %s approved (%d edits)", job.id, edits)
        release_memory()
        return files

    def discard(self, job: Job) -> None:
        """Drop a job under review (or still waiting): nothing is written, nothing kept."""
        with job.lock, self._changed:
            if job.state is JobState.QUEUED:
                self._waiting.remove(job)
            elif job.state is not JobState.REVIEW:
                raise JobError(f"a job that is {job.state.value} cannot be discarded", 409)
            job.state = JobState.DISCARDED
            self._drop_input(job)
            self._add(job, "discarded", {})
            self._places_changed()
            self._forget_old()
        release_memory()

    def close(self) -> None:
        """Stop: no job is started any more, and the worker has `stop_grace_s` to leave the
        model (the running job is dropped: nothing it made could be downloaded any more).
        There is nothing to clean up on disk: no job wrote anything."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._worker.join(timeout=self.config.stop_grace_s)

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

    def _page_event(self, job: Job) -> Callable[[InputFile], None]:
        """The input as read, as a `page` event: page images and words, before any model."""

        def on_read(source: InputFile) -> None:
            pages = page_images(source)
            view = page_view(source, [page for page, _ in pages])
            with self._changed:
                job.page_images = {page.number: png for page, png in pages}
                self._add_raw(job, "page", view.model_dump_json())

        return on_read

    def _run(self, job: Job) -> None:
        """Read the upload from memory, redact it, and hand it to its reviewer: no file is
        written for it (`redacto.inputs`: `read_input_bytes`, then `redact`)."""
        log.info("job %s started", job.id)
        source = self._read(job)
        if source is None:
            return
        self._page_event(job)(source)
        redaction = redact(
            source,
            self.engine,
            self.prompts,
            options=self.config.options,
            on_event=self._step_events(job),
        )
        report = redaction.report
        if report.status is Status.ERROR:
            self._fail_with_report(job, redaction.report_as_written)
            return
        session = ReviewSession(source, report, self.prompts)
        del source, redaction
        view = review_view(session).model_dump(mode="json")
        with self._changed:
            if self._closing:
                return
            job.session = session
            job.view = view
            job.state = JobState.REVIEW
            self._add(job, "review", view)
        log.info("job %s ready for review: %s", job.id, report.status.value)
        release_memory()  # what OCR and the steps used on the way

    def _read(self, job: Job) -> InputFile | None:
        """The upload read as its kind, from memory (the upload itself let go of); None when
        the job has failed: bad input, or OCR that cannot run (an ERROR report, as the CLI
        writes)."""
        data, job.upload = job.upload or b"", None
        name = Path(job.name)
        try:
            read = ReadOptions(ocr=self.config.ocr, max_pixels=self.config.max_pixels)
            return read_input_bytes(data, name, read)
        except BadInputError as error:
            log.info("job %s: bad input", job.id)
            self._fail(job, str(error))
        except EngineError as error:
            report = error_report(input_mode(name), self.engine.identity, error)
            report.input = bytes_info(name, data)
            self._fail_with_report(job, report)
        return None

    def _fail_with_report(self, job: Job, report: RunReport) -> None:
        """A run that ended ERROR: its report as written (`report`), and nothing claiming a
        redaction, offered for download as the CLI would have written it."""
        written = report_file(report)
        job.downloads = {written.name: written.data}
        log.info("job %s ended ERROR", job.id)
        self._fail(
            job, report.error or "the run ended in ERROR", _files(job.downloads, report.status)
        )

    def _proofread(self, job: Job) -> None:
        """Proofread the upload from memory (`proofread_upload`): its page, the detector's
        steps, each mistake the moment it is placed, then its outputs for download; no file
        is written. There is nothing to approve: the job ends here, its page images kept so
        that a page re-attaching still shows the mistakes on them."""

        def emit(name: str, data: str) -> None:
            with self._changed:
                self._add_raw(job, name, data)

        log.info("job %s started (proofread)", job.id)
        data, job.upload = job.upload or b"", None
        name = Path(job.name)
        options = ProofreadOptions(
            upstream=self.config.proofread_upstream,
            ocr=self.config.ocr,
            pipeline=self.config.options,
        )
        try:
            done = proofread_upload(
                data,
                name,
                options,
                self.engine,
                self.prompts,
                emit=emit,
                on_read=self._page_event(job),
                on_event=self._step_events(job),
                max_pixels=self.config.max_pixels,
            )
        except BadInputError as error:
            log.info("job %s: bad input", job.id)
            self._fail(job, str(error))
            return
        del data
        view = done.view
        with self._changed:
            job.downloads = done.downloads
            job.state = JobState.PROOFREAD if view.complete else JobState.FAILED
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
            self._add(job, "failed", {"message": message, **(files or {})})
            self._forget_old()
        release_memory()

    # -- helpers (call with the condition held) ------------------------------------------

    def _session(self, job: Job) -> ReviewSession:
        if job.state is not JobState.REVIEW or job.session is None:
            raise JobError(f"the job is {job.state.value}, not under review", 409)
        return job.session

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
        job.session = job.view = job.upload = None
        job.page_images.clear()


def _files(downloads: dict[str, bytes], status: Status) -> dict[str, object]:
    """The files a job offers for download, for its `approved`/`failed` event."""
    return {
        "files": [{"name": name, "bytes": len(body)} for name, body in downloads.items()],
        "status": status.value,
    }


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
