"""The training objective: how much each answer token counts in one step's gradient."""

from __future__ import annotations

import pytest
import torch

from redacto.tuning.train import training_objective

MEAN_ANSWER_TOKENS = 11.0


def verdict_weight(answer_tokens: int, weighting: str) -> float:
    """The gradient the objective gives the answer's first token (the PASS/FAIL verdict)."""
    losses = torch.ones(answer_tokens, requires_grad=True)
    training_objective(losses, weighting, MEAN_ANSWER_TOKENS).backward()
    assert losses.grad is not None
    return float(losses.grad[0])


def test_token_weighting_gives_a_verdict_the_same_weight_in_short_and_long_answers():
    # "PASS<end_of_turn>" is 2 tokens; "FAIL" and nine missed items is about 20.
    assert verdict_weight(2, "token") == pytest.approx(1 / MEAN_ANSWER_TOKENS)
    assert verdict_weight(20, "token") == pytest.approx(1 / MEAN_ANSWER_TOKENS)


def test_example_weighting_lets_a_short_pass_outweigh_a_fail_verdict_tenfold():
    assert verdict_weight(2, "example") == pytest.approx(1 / 2)
    assert verdict_weight(20, "example") == pytest.approx(1 / 20)


def test_token_weighting_keeps_the_mean_step_size_of_an_average_answer():
    losses = torch.full((int(MEAN_ANSWER_TOKENS),), 0.7)
    assert float(training_objective(losses, "token", MEAN_ANSWER_TOKENS)) == pytest.approx(0.7)
