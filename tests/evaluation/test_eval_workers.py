"""`eval run --workers N` and `--ray local`: the same results.jsonl (in the same order) and
the same summary as one process, apart from timings; a killed worker's documents run again
and are written once."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from eval_cases import DOCUMENT
from typer.testing import CliRunner

from redacto.corpus.schema import CorpusDocument
from redacto.document import Mode, Status
from redacto.evaluation.pipeline_system import PipelineSpec
from redacto.evaluation.results import RunConfig
from redacto.evaluation.run import run_evaluation
from redacto.evaluation.workers import DocumentJob, EvalWork, Workers

DOCUMENTS = [DOCUMENT.model_copy(update={"id": f"medical-{number:04d}"}) for number in range(1, 7)]
CONFIG = RunConfig(suite="hand", system="tiny", modes=(Mode.IMAGE, Mode.TEXT), rules=False)


UNSTEADY = {"wall_s", "pages_per_minute", "started", "output_tokens", "output_tokens_per_page"}
"""Figures that differ between two runs of one process too: times, and the decode-token
count, which LiteRT-LM's counter gives a few tokens apart for the same call (the same
document twice in one run: 182 and 186 output tokens, the same text)."""


def without_timings(value: Any) -> Any:
    """A results line or summary without its unsteady figures: every `ms`, `*_ms_*`
    (image ÷ text time ratios included), and `UNSTEADY`."""
    if isinstance(value, dict):
        return {
            key: without_timings(item)
            for key, item in value.items()
            if "ms" not in key.split("_") and key not in UNSTEADY
        }
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def results_of(run: Path) -> list[Any]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [without_timings(json.loads(line)) for line in lines]


def summary_of(run: Path) -> Any:
    return without_timings(json.loads((run / "summary.json").read_text(encoding="utf-8")))


def evaluate(
    spec: PipelineSpec,
    documents: list[CorpusDocument],
    out: Path,
    cache: Path,
    workers: Workers | None = None,
    config: RunConfig = CONFIG,
) -> None:
    system = spec.system()
    try:
        run_evaluation(
            system, documents, config, out, cache_dir=cache, write_reports=False, workers=workers
        )
    finally:
        system.close()


@pytest.fixture(scope="module")
def spec(tiny_model_path: Path) -> PipelineSpec:
    return PipelineSpec(f"litertlm:{tiny_model_path}", rules=False)


@pytest.fixture(scope="module")
def one_process(spec: PipelineSpec, tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("one")
    evaluate(spec, DOCUMENTS, run / "out", run / "pages")
    return run / "out"


@pytest.mark.slow  # the tiny model runs
@pytest.mark.parametrize("ray", [None, "local"], ids=["processes", "ray"])
def test_workers_write_what_one_process_writes(spec, one_process, tmp_path, ray):
    if ray is not None:
        pytest.importorskip("ray")
    evaluate(spec, DOCUMENTS, tmp_path / "out", tmp_path / "pages", Workers(spec, 2, ray))
    assert results_of(tmp_path / "out") == results_of(one_process)
    assert len(results_of(one_process)) == len(DOCUMENTS) * 2
    assert summary_of(tmp_path / "out") == summary_of(one_process)


@pytest.mark.slow  # the tiny model runs
def test_a_rerun_on_workers_does_nothing_for_finished_documents(spec, one_process, tmp_path):
    out = tmp_path / "out"
    evaluate(spec, DOCUMENTS[:3], out, tmp_path / "pages", Workers(spec, 2))
    before = (out / "results.jsonl").read_text(encoding="utf-8")
    evaluate(spec, DOCUMENTS, out, tmp_path / "pages", Workers(spec, 2))
    after = (out / "results.jsonl").read_text(encoding="utf-8")
    assert after.startswith(before)
    assert results_of(out) == results_of(one_process)


def pool_processes() -> list[psutil.Process]:
    """This test's pool processes (not multiprocessing's resource tracker)."""
    return [
        child
        for child in psutil.Process().children()
        if "resource_tracker" not in " ".join(child.cmdline())
        and "multiprocessing" in " ".join(child.cmdline())
    ]


def ray_actors() -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process().children(recursive=True)
        if "RayWorker" in " ".join(child.cmdline())
    ]


KILLS: dict[str, tuple[str | None, Callable[[], list[psutil.Process]]]] = {
    "processes": (None, pool_processes),
    "ray": ("local", ray_actors),
}


@pytest.mark.slow  # the tiny model runs
@pytest.mark.parametrize("kind", sorted(KILLS))
def test_a_killed_worker_s_documents_run_again_and_are_written_once(spec, tmp_path, kind):
    ray, workers_of = KILLS[kind]
    if ray is not None:
        pytest.importorskip("ray")
    documents = [
        DOCUMENT.model_copy(update={"id": f"medical-{number:04d}"}) for number in range(1, 25)
    ]
    config = CONFIG.model_copy(update={"modes": (Mode.TEXT,)})
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_one_once_two_are_written() -> None:
        results = out / "results.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            written = results.read_text(encoding="utf-8").count("\n") if results.exists() else 0
            victims = workers_of() if written >= 2 else []
            if victims:
                victims[0].send_signal(signal.SIGKILL)
                killed.append(written)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_once_two_are_written, daemon=True)
    killer.start()
    evaluate(spec, documents, out, tmp_path / "pages", Workers(spec, 2, ray), config)
    killer.join(timeout=5)
    assert killed and killed[0] < len(documents), "the run ended before a worker was killed"
    results = results_of(out)
    assert [r["document_id"] for r in results] == [d.id for d in documents]
    assert all(r["prediction"]["error"] is None or "WorkerLost" not in r["prediction"]["error"]
               for r in results)  # fmt: skip
    one = tmp_path / "one"
    evaluate(spec, documents, one, tmp_path / "pages", config=config)
    assert results == results_of(one)


@pytest.mark.slow  # the tiny model runs
def test_cli_eval_run_with_workers(tiny_model_path, tmp_path, monkeypatch):
    import redacto.corpus.suites as suites
    from redacto.cli import app
    from redacto.corpus.suites import write_suite

    monkeypatch.setattr(suites, "SUITES_DIR", tmp_path / "suites")
    monkeypatch.setattr(suites, "RENDER_CACHE_DIR", tmp_path / "pages")
    write_suite("hand", DOCUMENTS, tmp_path / "suites")
    command = [
        "eval", "run", "--suite", "hand", "--model", f"litertlm:{tiny_model_path}",
        "--mode", "text", "--detectors", "rules,model", "--limit", "3",
    ]  # fmt: skip
    for name, extra in (("one", []), ("two", ["--workers", "2"])):
        result = CliRunner().invoke(app, [*command, "--out", str(tmp_path / name), *extra])
        assert result.exit_code == 0, result.output
    assert results_of(tmp_path / "two") == results_of(tmp_path / "one")
    assert summary_of(tmp_path / "two") == summary_of(tmp_path / "one")
    assert (tmp_path / "two" / "report.md").exists()


@pytest.mark.parametrize("mode", [Mode.TEXT, Mode.IMAGE])
def test_a_document_given_up_is_scored_as_a_failure(tmp_path, mode):
    work = EvalWork(PipelineSpec("scripted:unused.json"), tmp_path / "pages")
    done = work.lost(DocumentJob(3, DOCUMENT, mode), "its worker ended (2 times)")
    assert done.index == 3
    assert done.result.prediction.error == "WorkerLost: its worker ended (2 times)"
    assert done.result.score.status is Status.ERROR
    assert done.result.score.tally.touched_pii_words == 0
