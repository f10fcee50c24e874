"""`LiteRtLmEngine.score` on the real (tiny) `.litertlm`: the call's own prompt, greedy-consistent.

The tiny model's words are noise, so these tests compare scores with what the same runtime
generates and with each other, never with wording.
"""

from __future__ import annotations

import math

import pytest
from model_cases import render_turns

from redacto.document import Step
from redacto.engines import ChatRequest, EngineError, ScoreRequest
from redacto.engines.litertlm import LiteRtLmEngine

pytestmark = pytest.mark.slow

SYSTEM = "You check a redacted text. Answer PASS, or FAIL and what is still readable."
USER = "Patient [NAME_1] was seen on [DATE_1] for a sore knee."
TINY_VOCABULARY = 512
"""models/tiny.toml's tokenizer size: the greedy token's probability is at least 1/512."""


@pytest.fixture(scope="module")
def engine(tiny_model_path):
    with LiteRtLmEngine(str(tiny_model_path), uri=f"litertlm:{tiny_model_path}") as opened:
        yield opened


def scores(engine: LiteRtLmEngine, *candidates: str, system: str = SYSTEM) -> dict[str, float]:
    result = engine.score(ScoreRequest(Step.VALIDATE, system, USER, candidates))
    assert [c.text for c in result.candidates] == list(candidates)
    return {c.text: c.log_prob for c in result.candidates}


def greedy(engine: LiteRtLmEngine, tokens: int, system: str = SYSTEM):
    request = ChatRequest(Step.VALIDATE, system, USER, max_output_tokens=tokens)
    return engine.complete(request)


def test_the_scored_prompt_is_the_generated_calls_prompt(engine):
    """The runtime renders the call as `complete` does (the packaged chat template, system
    text in the first user turn) and the scoring session prefills exactly as many tokens."""
    assert engine.score(ScoreRequest(Step.VALIDATE, SYSTEM, USER, ("PASS",))).stats.prompt_tokens
    rendered = engine._rendered_prompt(SYSTEM, USER)
    assert "<bos>" + rendered == render_turns("tiny", SYSTEM, USER)
    scored = engine.score(ScoreRequest(Step.VALIDATE, SYSTEM, USER, ("PASS",)))
    assert scored.stats.prompt_tokens == greedy(engine, 1).stats.prompt_tokens


def test_the_greedy_first_token_scores_highest(engine):
    """Greedy decoding takes the most likely token: no candidate can be likelier than it, and
    its probability is at least one over the vocabulary."""
    first = greedy(engine, 1).text
    assert first, "the tiny model stopped at once; pick another prompt"
    others = ("PASS", "FAIL", "NONE", "NAME: Jane", "x", "3", ":")
    table = scores(engine, first, *[o for o in others if o != first])
    assert table[first] == max(table.values())
    assert -math.log(TINY_VOCABULARY) <= table[first] < 0


def test_a_longer_reply_is_no_likelier_than_its_greedy_start(engine):
    """Log-likelihoods add over tokens: the greedy two-token reply scores below its first
    token, and every score is a finite log-probability."""
    one, two = greedy(engine, 1).text, greedy(engine, 2).text
    assert two.startswith(one) and len(two) > len(one)
    table = scores(engine, one, two)
    assert table[two] < table[one] < 0
    assert all(math.isfinite(value) for value in table.values())


def test_each_candidate_is_scored_alone_and_the_engine_stays_fresh(engine):
    """Several candidates score as each would alone (no session carries over), twice the
    same, and a generated reply afterwards is the one before."""
    before = greedy(engine, 8).text
    together = scores(engine, "PASS", "FAIL")
    assert together == scores(engine, "PASS") | scores(engine, "FAIL")
    assert together == scores(engine, "PASS", "FAIL")
    assert greedy(engine, 8).text == before


def test_the_system_prompt_reaches_the_scored_prompt(engine):
    assert scores(engine, "PASS") != scores(engine, "PASS", system="")


def test_token_counts_are_the_tokenizers(engine):
    result = engine.score(ScoreRequest(Step.VALIDATE, SYSTEM, USER, ("PASS", "FAIL")))
    assert [c.tokens for c in result.candidates] == [
        engine.count_tokens("PASS"),
        engine.count_tokens("FAIL"),
    ]


def test_a_candidate_of_no_tokens_is_refused_not_scored_certain(engine):
    """The tiny tokenizer drops whitespace: the runtime would score such a target 0.0."""
    assert engine.count_tokens("\n") == 0
    with pytest.raises(EngineError, match="no token"):
        engine.score(ScoreRequest(Step.VALIDATE, SYSTEM, USER, ("PASS", "\n")))


def test_a_closed_engine_refuses_to_score(tiny_model_path):
    opened = LiteRtLmEngine(str(tiny_model_path), uri="litertlm:closed")
    opened.close()
    with pytest.raises(EngineError, match="closed"):
        opened.score(ScoreRequest(Step.VALIDATE, SYSTEM, USER, ("PASS",)))
