"""The scored verdict on the embedded default (runs where `redacto-270m` has been built).

`PASS` and `FAIL` are one token each to Gemma 3, so greedy decoding begins the validator's
answer with whichever of the two the margin favours: the scored verdict and the free answer
must agree on a call whose answer starts with one of them.
"""

from __future__ import annotations

import pytest

from redacto.corpus import load_suite
from redacto.document import Step
from redacto.engines import ChatRequest
from redacto.evaluation.validator_bench import verdict_cases
from redacto.pipeline.validate import VERDICT_WORDS, score_verdict

pytestmark = pytest.mark.slow


def test_verdict_words_are_single_tokens(default_engine):
    assert [default_engine.count_tokens(word) for word in VERDICT_WORDS] == [1, 1]


def test_the_margin_agrees_with_the_greedy_answer_and_the_prompt_is_the_calls(default_engine):
    case = verdict_cases(load_suite("smoke")[:1])[0]
    scored = score_verdict(default_engine, case.system, case.user)
    reply = default_engine.complete(
        ChatRequest(Step.VALIDATE, case.system, case.user, max_output_tokens=1)
    )
    assert reply.text in VERDICT_WORDS, reply.text
    assert (scored.margin >= 0) == (reply.text == "PASS")
    assert scored.scores.stats.prompt_tokens == reply.stats.prompt_tokens
    assert all(candidate.log_prob < 0 for candidate in scored.scores.candidates)
