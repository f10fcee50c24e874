"""The embedded default through `litertlm:` (runs where it has been built:
`redacto model build redacto-270m`, minutes of CPU — README's quick start gives the measured
time — too slow to build on every CI run).

These tests check the plumbing (prompt shape, system message, determinism), not the
quality of the answers: the eval suite measures that (`docs/tuning.md`).
"""

from __future__ import annotations

import pytest
from model_cases import render_turns

from redacto.document import Step
from redacto.engines import ChatRequest
from redacto.models import DEFAULT_MODEL

pytestmark = pytest.mark.slow

SYSTEM = "You answer in one short sentence."
USER = "What is the capital of France?"


def test_the_default_model_answers_greedily(default_engine):
    ask = ChatRequest(Step.CLASSIFY, SYSTEM, USER, max_output_tokens=16)
    first = default_engine.complete(ask)
    assert first.text.strip()
    assert first.stats.output_tokens is not None and 0 < first.stats.output_tokens <= 16
    assert default_engine.complete(ask).text == first.text


def test_the_prompt_is_the_gemma_turn_format_with_the_system_text_inside(default_engine):
    rendered = render_turns(DEFAULT_MODEL, SYSTEM, USER)
    assert rendered.startswith(f"<bos><start_of_turn>user\n{SYSTEM}\n\n{USER}<end_of_turn>")
    expected = 1 + default_engine.count_tokens(rendered.removeprefix("<bos>"))
    reply = default_engine.complete(ChatRequest(Step.CLASSIFY, SYSTEM, USER, max_output_tokens=4))
    assert reply.stats.prompt_tokens == expected


def test_the_system_message_adds_its_tokens(default_engine):
    bare = default_engine.complete(ChatRequest(Step.CLASSIFY, "", USER, max_output_tokens=4))
    guided = default_engine.complete(ChatRequest(Step.CLASSIFY, SYSTEM, USER, max_output_tokens=4))
    added = guided.stats.prompt_tokens - bare.stats.prompt_tokens
    assert default_engine.count_tokens(SYSTEM) <= added <= default_engine.count_tokens(SYSTEM) + 3
