"""Every face gets a run's trust from the model that answers, never from its name: the same
PASS ends NEEDS_REVIEW through `redacto redact`, the eval and the review page when the
model carries no policy (or one that distrusts its validator), and PASS only when its own
policy trusts it. (The built model's policy is read from its file: tests/models.)"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from cli_runs import redact
from redacto.corpus.schema import CorpusDocument
from redacto.document import Category, Mode, Status
from redacto.evaluation.pipeline_system import PipelineSystem
from redacto.models import open_model
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.report import ReviewReason
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import events, upload

TEXT = "Why is the sky so blue tonight?\n"
"""Nothing to find, and a validator that says PASS: the trust alone decides. (A leaky PASS,
`Why is Malthe so impulsive?`, now ends NEEDS_REVIEW whatever the trust: the residual
check names `Malthe`, tests/pipeline/test_residual_check.py.)"""
REPLIES: dict[str, list[str]] = {
    "classify": ["DOCUMENT_TYPE: Chat Message\nCATEGORY: General"],
    "detect": [""],
    "validate": ["PASS"],
}
CASES = [
    pytest.param(None, Status.NEEDS_REVIEW, ReviewReason.MODEL_NOT_MEASURED, id="no-policy"),
    pytest.param(False, Status.NEEDS_REVIEW, ReviewReason.PASS_NOT_TRUSTED, id="distrusted"),
    pytest.param(True, Status.PASS, None, id="trusted"),
]


def scripted_model(tmp_path: Path, trust: bool | None, name: str = "redacto-270m-int8") -> str:
    """A script named like the default's build; `trust` None: it declares no policy."""
    replies: dict[str, Any] = dict(REPLIES)
    if trust is not None:
        replies["pipeline"] = {"trust_validator_pass": trust}
    path = tmp_path / f"{name}.litertlm.json"
    path.write_text(json.dumps(replies), encoding="utf-8")
    return f"scripted:{path}"


def reasons(expected: ReviewReason | None) -> list[str]:
    return [] if expected is None else [expected.value]


@pytest.mark.parametrize(("trust", "status", "reason"), CASES)
def test_the_cli(tmp_path: Path, trust, status, reason):
    note = tmp_path / "note.txt"
    note.write_text(TEXT, encoding="utf-8")
    model = scripted_model(tmp_path, trust)
    result = redact(note, "--out", tmp_path / "out", "--model", model, "--no-rules")
    assert result.exit_code == (0 if status is Status.PASS else 10), result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == status.value
    assert report["review_reasons"] == reasons(reason)


@pytest.mark.parametrize(("trust", "status", "reason"), CASES)
def test_the_eval(tmp_path: Path, trust, status, reason):
    document = CorpusDocument(
        id="policy-1",
        category=Category.GENERAL,
        document_type="Chat Message",
        split="test",
        template="policy",
        text=TEXT,
        pii=(),
        preserve=(),
    )
    system = PipelineSystem(scripted_model(tmp_path, trust), rules=False)
    prediction = system.predict(document, Mode.TEXT, None)
    assert prediction.status is status
    assert ("model not measured" in system.identity) is (trust is None)


@pytest.mark.parametrize(("trust", "status", "reason"), CASES)
def test_the_review_page(tmp_path: Path, trust, status, reason):
    note = tmp_path / "note.txt"
    note.write_text(TEXT, encoding="utf-8")
    config = ServeConfig(options=PipelineOptions(rules=False))
    with (
        open_model(scripted_model(tmp_path, trust)) as engine,
        ReviewServer(engine, PromptLibrary.load(), config).start() as server,
    ):
        job = upload(server.url, note)
        seen = events(server.url, job, until="review")
        listing = json.load(urllib.request.urlopen(server.url + "api/jobs"))
    review = next(data for name, data in seen if name == "review")
    assert review["status"] == status.value
    assert review["reasons"] == reasons(reason)
    shown = (
        "validator not measured"
        if trust is None
        else "validator " + ("trusted" if trust else "not trusted")
    )
    assert listing["model"].endswith(shown)
