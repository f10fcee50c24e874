"""Offline evaluation: score a system's redactions against a labelled corpus.

`score_document` scores one `Prediction`; `run_evaluation` runs a `System` (the pipeline
or the Presidio baseline) over a suite, resumably, and writes results, summary and
reports; `compare_runs` says what got better or worse. See docs/evaluation.md.
"""

from redacto.evaluation.compare import Comparison, compare_runs
from redacto.evaluation.prediction import PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.results import DocumentResult, RunConfig, RunError, RunSummary
from redacto.evaluation.run import System, run_evaluation
from redacto.evaluation.scorer import DocumentScore, score_document
from redacto.evaluation.summary import Metrics, ModeSummary

__all__ = [
    "Comparison",
    "DocumentResult",
    "DocumentScore",
    "Metrics",
    "ModeSummary",
    "PredictedBox",
    "PredictedSpan",
    "Prediction",
    "RunConfig",
    "RunError",
    "RunSummary",
    "System",
    "compare_runs",
    "run_evaluation",
    "score_document",
]
