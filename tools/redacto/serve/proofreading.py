"""A proofread job of the review page: `proofread_file` (the CLI's entry point) with each of
its callbacks turned into an event of the job's log.

The page hears the input as read (`page`), the detector's steps as it hides the
identifiers (`step`: each word it hides), where the run is (`stage`), every mistake the
moment its line is parsed and placed (`mistake`: boxes in pixels of its page image, or not
located), and the end (`proofread`: the counts and the files). What these events carry
goes to the browser only (the user's own document on the user's own machine), never to the
server's log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from redacto.engines import Engine
from redacto.inputs import InputFile
from redacto.inputs.legacy import PreparedInput
from redacto.pipeline import OnEvent
from redacto.prompts import PromptLibrary
from redacto.proofread import (
    MistakesFile,
    PlacedMistake,
    ProofreadOptions,
    Stage,
    proofread_file,
)
from redacto.serve.views import View

Emit = Callable[[str, str], None]
"""Adds one event to the job's log: its name and its JSON."""
PixelBox = tuple[float, float, float, float]


class StageView(View):
    """Where the run is (the line the CLI shows); `proofreading`: the identifiers are hidden
    and the proofreader is at work."""

    line: str
    proofreading: bool


class MistakeView(View):
    """One mistake as the page draws it: `n` counts from 1 in the order they arrived;
    `page` is the page image (0-based) and `boxes` are in its pixels; a mistake that could
    not be placed has neither."""

    n: int
    error_text: str
    correction: str
    description: str
    located: bool
    strategy: str | None = None
    page: int | None = None
    boxes: list[PixelBox] = Field(default_factory=list)


class FileView(View):
    name: str
    bytes: int


class ProofreadView(View):
    """How the run ended: complete or not (and why), who proofread, what was hidden and
    sent, and the outputs to download (`proofread.pdf`, `mistakes.json`)."""

    complete: bool
    error: str | None
    proofreader: str
    mistakes: int
    located: int
    values_replaced: int
    values_sent: int
    dropped_touching_placeholder: int
    unreadable_lines: int
    files: list[FileView]

    def hiding(self, text: str) -> ProofreadView:
        """The same view with `text` (the job's private folder) replaced by `…` in its
        error: the page never sees where the server keeps uploads."""
        if self.error is None or not text:
            return self
        return self.model_copy(update={"error": self.error.replace(text, "…")})


@dataclass(frozen=True)
class ProofreadDone:
    """A finished proofread: the end event's view and the outputs, read into memory."""

    view: ProofreadView
    downloads: dict[str, bytes]


def proofread_upload(
    path: Path,
    out_dir: Path,
    options: ProofreadOptions,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    emit: Emit,
    on_prepared: Callable[[PreparedInput], None],
    on_event: OnEvent,
) -> ProofreadDone:
    """Proofread the upload at `path` into `out_dir`, emitting `stage` and `mistake` events
    as the run goes (`on_prepared` and `on_event` are the job's page and step events).
    Raises `BadInputError` for an input that cannot be read."""
    scales: list[float] = []
    arrived = 0

    def read(source: InputFile) -> None:
        scales.extend(source.points_per_pixel())
        on_prepared(source.prepared())

    def stage(where: Stage) -> None:
        view = StageView(line=where.value, proofreading=where.proofreading)
        emit("stage", view.model_dump_json())

    def mistake(placed: PlacedMistake) -> None:
        nonlocal arrived
        arrived += 1
        emit("mistake", mistake_view(arrived, placed, scales).model_dump_json())

    outcome = proofread_file(
        path,
        out_dir,
        options,
        engine,
        prompts,
        on_mistake=mistake,
        on_event=on_event,
        on_stage=stage,
        on_read=read,
    )
    downloads = {written.name: written.read_bytes() for written in outcome.written}
    return ProofreadDone(proofread_view(outcome.result, downloads), downloads)


def mistake_view(n: int, mistake: PlacedMistake, scales: Sequence[float]) -> MistakeView:
    """`mistake` for the page: its boxes, in PDF points in `mistakes.json`, turned back into
    pixels of its page image (`scales[page]`: that page's points per pixel)."""
    view = MistakeView(
        n=n,
        error_text=mistake.error_text,
        correction=mistake.correction,
        description=mistake.description,
        located=mistake.located,
        strategy=mistake.strategy.value if mistake.strategy is not None else None,
    )
    if mistake.page is None or not mistake.boxes:
        return view
    page = mistake.page - 1
    scale = scales[page]
    boxes = [
        (round(x0 / scale, 1), round(y0 / scale, 1), round(x1 / scale, 1), round(y1 / scale, 1))
        for x0, y0, x1, y1 in mistake.boxes
    ]
    return view.model_copy(update={"page": page, "boxes": boxes})


def proofread_view(result: MistakesFile, downloads: dict[str, bytes]) -> ProofreadView:
    """The end of a run, as the page shows it."""
    return ProofreadView(
        complete=result.complete,
        error=result.error,
        proofreader=result.proofreader,
        mistakes=len(result.mistakes),
        located=sum(mistake.located for mistake in result.mistakes),
        values_replaced=result.values_replaced,
        values_sent=result.values_sent,
        dropped_touching_placeholder=result.dropped_touching_placeholder,
        unreadable_lines=result.unreadable_lines,
        files=[FileView(name=name, bytes=len(body)) for name, body in downloads.items()],
    )
