"""A stop (SIGTERM, Ctrl-C) that lands while the store puts a folder in place waits until
the folder and its marker are both there: `--resume` then neither redoes a complete output
nor finds an earlier run's folder moved aside with nothing in its place."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from types import FrameType

import pytest

from redacto.batch.store import OutputStore, RunKey, stops_held
from redacto.batch.summary import SummaryRow
from redacto.document import Status
from redacto.inputs import OutputFile

KEY = RunKey(model="litertlm:tiny.litertlm", model_sha256="ab" * 32, options=(("ocr", "ppocr"),))
LETTER = PurePosixPath("letters/letter-07.txt")


@pytest.fixture
def sigterm_stops() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt, as `redacto redact INPUT... --out` installs it."""

    def stop(_number: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    yield
    signal.signal(signal.SIGTERM, previous)


def store_with_input(tmp_path: Path) -> tuple[OutputStore, Path]:
    letter = tmp_path / "inbox" / "letter-07.txt"
    letter.parent.mkdir()
    letter.write_text("Dear Ms Okonkwo-Lefèvre, …", encoding="utf-8")
    store = OutputStore(tmp_path / "out", KEY)
    store.open()
    return store, letter


def row_of(letter: Path) -> SummaryRow:
    return SummaryRow(str(letter), "cd" * 32, Status.NEEDS_REVIEW, "General", count=2, rounds=1)


def commit(store: OutputStore, letter: Path, text: str) -> None:
    files = [OutputFile("redacted.txt", text.encode()), OutputFile("report.json", b"{}")]
    store.commit(LETTER, files, letter, row_of(letter))


def test_a_stop_after_the_swap_waits_for_the_marker(tmp_path, monkeypatch, sigterm_stops):
    store, letter = store_with_input(tmp_path)
    swap = OutputStore._swap

    def swap_then_stop(self: OutputStore, staging: Path, target: Path) -> None:
        swap(self, staging, target)
        signal.raise_signal(signal.SIGTERM)  # the stop lands before the marker is written

    monkeypatch.setattr(OutputStore, "_swap", swap_then_stop)
    with pytest.raises(KeyboardInterrupt):
        commit(store, letter, "Dear Ms [NAME_1], …")

    assert (store.root / LETTER / "redacted.txt").read_text() == "Dear Ms [NAME_1], …"
    row = row_of(letter)
    assert store.done(LETTER, row.sha256) == row, "a complete folder has its marker"
    assert list((store.state / "tmp").iterdir()) == []


def test_a_stop_between_the_renames_of_a_rerun_leaves_the_new_folder_in_place(
    tmp_path, monkeypatch, sigterm_stops
):
    store, letter = store_with_input(tmp_path)
    commit(store, letter, "first run")
    rename = os.rename
    renames: list[Path] = []

    def rename_then_stop(source: Path, target: Path) -> None:
        rename(source, target)
        renames.append(Path(target))
        if len(renames) == 1:  # the earlier folder is aside, the new one not yet in place
            signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(os, "rename", rename_then_stop)
    with pytest.raises(KeyboardInterrupt):
        commit(store, letter, "second run")

    assert len(renames) == 2
    assert (store.root / LETTER / "redacted.txt").read_text() == "second run"
    row = row_of(letter)
    assert store.done(LETTER, row.sha256) == row
    assert list((store.state / "tmp").iterdir()) == []


def test_held_stops_take_effect_when_the_block_ends():
    reached = False
    with pytest.raises(KeyboardInterrupt), stops_held():
        signal.raise_signal(signal.SIGINT)  # Python's own handler: KeyboardInterrupt
        reached = True
    assert reached
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_off_the_main_thread_the_block_runs_as_is():
    handlers: list[object] = []

    def inside() -> None:
        with stops_held():
            handlers.append(signal.getsignal(signal.SIGTERM))

    before = signal.getsignal(signal.SIGTERM)
    worker = threading.Thread(target=inside)
    worker.start()
    worker.join()
    assert handlers == [before]
