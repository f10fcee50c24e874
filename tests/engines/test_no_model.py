"""The engine of work that may call no model (a review, training examples) refuses every call."""

import pytest

from redacto.document import Step
from redacto.engines import EngineError
from redacto.engines.no_model import NoModelEngine
from redacto.pipeline import PipelineOptions
from redacto.pipeline.state import StepContext
from redacto.prompts import PromptLibrary


@pytest.mark.parametrize("step", list(Step))
def test_every_call_is_refused_naming_the_work(step):
    context = StepContext(NoModelEngine("a review"), PromptLibrary.load(), PipelineOptions())
    with pytest.raises(EngineError, match=f"a review makes no model calls; a {step.value} call"):
        context.call(step, "system", "user")


def test_it_is_not_a_model_a_report_could_cite():
    identity = NoModelEngine("building training examples").identity
    assert identity.name == "no model" and identity.sha256 is None
    assert identity.uri == "none:<building training examples>"
