"""The validator alone, on redactions whose right verdict is known.

A pipeline run shows the validator only what detect left behind, so a model that redacts
well gives it few leaky outputs to judge and the false-PASS rate rests on a handful. Here
the validator judges built redactions of held-out documents, the same four kinds its
training data is made of (`redacto.tuning.redactions`) but of documents it never trained
on: complete and over-redacted (the right answer is PASS), one value or one word of a value
left readable (FAIL). Each call is the pipeline's own validate call, rendered by the same
code (`build_examples`) and sent through the same `StepContext` with the model's settings.

Per reading (text mode, and the page read as text) the summary gives the bar a trusted
PASS must clear: PASS on clean outputs (high), PASS on leaky ones (at most 1 %).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument
from redacto.document import ImageReading, Mode, Step
from redacto.engines import Engine
from redacto.evaluation.summary import ratio
from redacto.pipeline.parsing import VerdictParse
from redacto.pipeline.policy import options_for_model
from redacto.pipeline.state import PipelineOptions, StepContext
from redacto.prompts import PromptLibrary
from redacto.report import Verdict
from redacto.tuning.dataset import TrainingExample, build_examples

RESULTS_FILE = "verdicts.jsonl"
SUMMARY_FILE = "verdicts-summary.json"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VerdictResult(_Model):
    """One built redaction, the verdict it should get, and what the validator said."""

    case: str
    """The training example id it is built like: `<document>/validate-<reading>-<outcome>`."""
    document_id: str
    reading: str
    outcome: str
    expected: Verdict
    said: Verdict
    answer: str
    """The validator's reply (the user's own benchmark output, never logged)."""
    ms: float


class VerdictTally(_Model):
    """The validator's verdicts on one reading's clean and leaky redactions."""

    clean: int = 0
    clean_passed: int = 0
    leaky: int = 0
    leaky_passed: int = 0
    by_outcome: dict[str, list[int]] = {}
    """outcome → [redactions, PASS verdicts]."""

    @property
    def clean_pass_rate(self) -> float | None:
        return ratio(self.clean_passed, self.clean)

    @property
    def leaky_pass_rate(self) -> float | None:
        return ratio(self.leaky_passed, self.leaky)

    def add(self, result: VerdictResult) -> None:
        passed = result.said is Verdict.PASS
        if result.expected is Verdict.PASS:
            self.clean += 1
            self.clean_passed += passed
        else:
            self.leaky += 1
            self.leaky_passed += passed
        counts = self.by_outcome.setdefault(result.outcome, [0, 0])
        counts[0] += 1
        counts[1] += passed


class VerdictSummary(_Model):
    """Per reading; `ms_mean` is the mean time of one validate call."""

    model: str
    documents: int
    readings: dict[str, VerdictTally]
    ms_mean: float | None


def verdict_cases(
    documents: Sequence[CorpusDocument], render_dir: Path = RENDER_CACHE_DIR
) -> list[TrainingExample]:
    """The validate calls to judge: text mode, and the page read as text, of each document."""
    examples = build_examples(documents, render_dir=render_dir, image_readings=(ImageReading.TEXT,))
    return [
        e for e in examples if e.step is Step.VALIDATE and (e.mode is Mode.TEXT or e.read_as_text)
    ]


def judge(context: StepContext, case: TrainingExample) -> VerdictResult:
    """Ask the validator about one built redaction; its answer is read as the pipeline does."""
    started = time.perf_counter()
    reply = context.call(Step.VALIDATE, case.system, case.user)
    parse = VerdictParse()
    for line in reply.text.splitlines():
        parse.feed(line)
    name = case.id.split("/", 1)[1]
    reading = "page-text" if case.read_as_text else "text"
    outcome = name.split(f"validate-{reading}-", 1)[1]
    if outcome.startswith("chunk"):  # `chunk2-fail-one`: a long text's chunk
        outcome = outcome.split("-", 1)[1]
    expected = Verdict.FAIL if case.answer.startswith("FAIL") else Verdict.PASS
    return VerdictResult(
        case=case.id,
        document_id=case.document_id,
        reading=reading,
        outcome=outcome,
        expected=expected,
        said=parse.final(),
        answer=reply.text,
        ms=(time.perf_counter() - started) * 1000,
    )


def run_validator_bench(
    engine: Engine,
    documents: Sequence[CorpusDocument],
    out: Path,
    limit: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> VerdictSummary:
    """Judge every built redaction of `documents` (the first `limit`), resuming from what
    `out/verdicts.jsonl` already holds; writes the summary next to it."""
    out.mkdir(parents=True, exist_ok=True)
    cases = verdict_cases(list(documents)[:limit] if limit else documents)
    path = out / RESULTS_FILE
    done = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                result = VerdictResult.model_validate_json(line)
                done[result.case] = result
    options = options_for_model(PipelineOptions(), engine.identity)
    context = StepContext(engine=engine, prompts=PromptLibrary.load(), options=options)
    with path.open("a", encoding="utf-8") as stream:
        for number, case in enumerate(cases, 1):
            if case.id not in done:
                done[case.id] = judge(context, case)
                stream.write(done[case.id].model_dump_json() + "\n")
                stream.flush()
            if on_progress is not None:
                on_progress(number, len(cases))
    results = [done[case.id] for case in cases]
    readings: dict[str, VerdictTally] = {}
    for result in results:
        readings.setdefault(result.reading, VerdictTally()).add(result)
    summary = VerdictSummary(
        model=engine.identity.name,
        documents=len({r.document_id for r in results}),
        readings=readings,
        ms_mean=ratio(sum(r.ms for r in results), len(results)),
    )
    (out / SUMMARY_FILE).write_text(
        json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
    )
    return summary
