"""A proofread job of the review page: the upload read from memory (`read_input_bytes`), then
`proofread` (what `redacto proofread` runs, in memory), each of its callbacks turned into
an event of the job's log. Nothing is written: the outputs are offered from memory.

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

from redacto.engines import Engine, EngineError
from redacto.inputs import InputFile, ReadOptions, read_input_bytes
from redacto.inputs.base import bytes_info
from redacto.pipeline import OnEvent
from redacto.prompts import PromptLibrary
from redacto.proofread import (
    MistakesFile,
    PlacedMistake,
    ProofreadOptions,
    Stage,
    not_read,
    proofread,
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


@dataclass(frozen=True)
class ProofreadDone:
    """A finished proofread: the end event's view and the outputs, made in memory."""

    view: ProofreadView
    downloads: dict[str, bytes]


def proofread_upload(
    data: bytes,
    name: Path,
    options: ProofreadOptions,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    emit: Emit,
    on_read: Callable[[InputFile], None],
    on_event: OnEvent,
    max_pixels: int | None = None,
) -> ProofreadDone:
    """Read the upload (`data`, named `name`; a photo up to `max_pixels`) and proofread it,
    in memory, emitting `stage` and `mistake` events as the run goes (`on_read` and
    `on_event` are the job's page and step events). Raises `BadInputError` for an input
    that cannot be read."""
    scales: list[float] = []
    arrived = 0

    def stage(where: Stage) -> None:
        view = StageView(line=where.value, proofreading=where.proofreading)
        emit("stage", view.model_dump_json())

    def mistake(placed: PlacedMistake) -> None:
        nonlocal arrived
        arrived += 1
        emit("mistake", mistake_view(arrived, placed, scales).model_dump_json())

    stage(Stage.READING)
    try:
        read = ReadOptions(ocr=options.ocr, max_pixels=max_pixels)
        source = read_input_bytes(data, name, read)
    except EngineError as unread:  # OCR that cannot start
        proofreading = not_read(bytes_info(name, data), options, unread)
    else:
        scales.extend(source.points_per_pixel())
        on_read(source)
        proofreading = proofread(
            source,
            options,
            engine,
            prompts,
            on_mistake=mistake,
            on_event=on_event,
            on_stage=stage,
        )
    downloads = {file.name: file.data for file in proofreading.files}
    return ProofreadDone(proofread_view(proofreading.result, downloads), downloads)


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
