"""`litertlm:` on a real (tiny) `.litertlm`: fresh conversation per call, greedy, streamed.

The tiny model's words are noise, so these tests compare token counts and the greedy
text of identical calls, never wording.
"""

from __future__ import annotations

import re

import pytest
from model_cases import render_turns

from redacto.document import Step
from redacto.engines import ChatRequest, Decoding, EngineError, ReplyConstraint, open_engine
from redacto.engines.litertlm import LiteRtLmEngine
from redacto.modelfile.record import sha256_of
from redacto.pipeline.constraint import ReplyShape, answer_pattern

pytestmark = pytest.mark.slow


SYSTEM = "You list identifiers found in the document, one per line."
FIRST = "Patient name: Jane Doe. Date of birth: 12 March 1981."
SECOND = "Invoice 2024-117 was issued to Acme Field Services."


def request(user: str, system: str = SYSTEM, max_output_tokens: int = 24) -> ChatRequest:
    return ChatRequest(
        step=Step.DETECT, system=system, user=user, max_output_tokens=max_output_tokens
    )


@pytest.fixture(scope="module")
def engine(tiny_model_path):
    with LiteRtLmEngine(str(tiny_model_path), uri=f"litertlm:{tiny_model_path}") as opened:
        yield opened


def test_reply_streams_and_reports_its_cost(engine):
    pieces: list[str] = []
    reply = engine.complete(request(FIRST), on_text=pieces.append)
    assert "".join(pieces) == reply.text
    assert reply.stats.prompt_tokens is not None and reply.stats.prompt_tokens > 10
    assert reply.stats.output_tokens is not None and 0 < reply.stats.output_tokens <= 24
    assert reply.stats.ttft_ms is not None and 0 < reply.stats.ttft_ms <= reply.stats.ms


def test_a_second_call_does_not_see_the_first(engine, tiny_model_path):
    engine.complete(request(FIRST))
    after_first = engine.complete(request(SECOND))
    with LiteRtLmEngine(str(tiny_model_path), uri="litertlm:fresh") as fresh:
        alone = fresh.complete(request(SECOND))
    assert after_first.stats.prompt_tokens == alone.stats.prompt_tokens
    assert after_first.text == alone.text
    again = engine.complete(request(SECOND))
    assert again.stats.prompt_tokens == alone.stats.prompt_tokens
    assert again.text == alone.text


def test_the_system_message_reaches_the_model(engine):
    without = engine.complete(request(FIRST, system=""))
    with_system = engine.complete(request(FIRST))
    added = with_system.stats.prompt_tokens - without.stats.prompt_tokens
    # Gemma has no system role: the text opens the first user turn, then a blank line.
    assert added >= engine.count_tokens(SYSTEM)
    assert added <= engine.count_tokens(SYSTEM) + 3


def test_the_prompt_is_exactly_the_chat_template_rendering(engine):
    """One BOS, the turn markers, and the system text inside the first user turn: the
    prompt LiteRT-LM prefills has exactly the tokens of the packaged template's rendering."""
    rendered = render_turns("tiny", SYSTEM, FIRST)
    assert (
        rendered
        == f"<bos><start_of_turn>user\n{SYSTEM}\n\n{FIRST}<end_of_turn>\n<start_of_turn>model\n"
    )
    expected = 1 + engine.count_tokens(rendered.removeprefix("<bos>"))
    assert engine.complete(request(FIRST)).stats.prompt_tokens == expected


def test_output_is_capped_by_max_output_tokens(engine):
    reply = engine.complete(request(FIRST, max_output_tokens=3))
    assert reply.stats.output_tokens is not None and reply.stats.output_tokens <= 3


def test_a_failing_consumer_leaves_the_engine_usable(engine):
    def explode(piece: str) -> None:
        raise ValueError("consumer failed")

    baseline = engine.complete(request(SECOND))
    with pytest.raises(ValueError, match="consumer failed"):
        engine.complete(request(SECOND), on_text=explode)
    assert engine.complete(request(SECOND)).text == baseline.text


def test_identity_names_the_file_and_its_sha256(engine, tiny_model_path):
    identity = engine.identity
    assert identity.name == tiny_model_path.name
    assert identity.sha256 == sha256_of(tiny_model_path)
    assert identity.uri == f"litertlm:{tiny_model_path}"


def test_the_registry_opens_litertlm_uris(tiny_model_path):
    with open_engine(f"litertlm:{tiny_model_path}") as opened:
        assert isinstance(opened, LiteRtLmEngine)
        assert opened.complete(request(SECOND, max_output_tokens=4)).stats.output_tokens


def test_a_missing_file_says_how_to_build_one(tmp_path):
    with pytest.raises(EngineError, match="redacto model build"):
        LiteRtLmEngine(str(tmp_path / "absent.litertlm"), uri="litertlm:absent")


def test_no_cache_file_lands_beside_the_model(engine, tiny_model_path):
    engine.complete(request(FIRST, max_output_tokens=2))
    beside = {path.name for path in tiny_model_path.parent.iterdir()}
    assert not [name for name in beside if "cache" in name.lower()]


def test_a_closed_engine_refuses_calls(tiny_model_path):
    opened = LiteRtLmEngine(str(tiny_model_path), uri="litertlm:closed")
    opened.close()
    opened.close()
    with pytest.raises(EngineError, match="closed"):
        opened.complete(request(FIRST))


def test_a_file_that_is_not_a_model_is_an_engine_error(tmp_path):
    junk = tmp_path / "junk.litertlm"
    junk.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(EngineError, match=r"could not load junk\.litertlm"):
        LiteRtLmEngine(str(junk), uri="litertlm:junk")


def test_a_stop_from_the_consumer_ends_decoding_and_leaves_the_engine_usable(engine):
    baseline = engine.complete(request(SECOND, max_output_tokens=24))
    pieces: list[str] = []

    def first_piece_only(piece: str) -> Decoding:
        pieces.append(piece)
        return Decoding.STOP

    stopped = engine.complete(request(SECOND, max_output_tokens=24), on_text=first_piece_only)
    assert stopped.stats.stopped
    assert pieces == [stopped.text]
    assert baseline.text.startswith(stopped.text) and len(stopped.text) < len(baseline.text)
    # Not asserted: the runtime's own output-token count. Its decode loop runs on its own
    # thread and may finish all 24 tokens before the cancel lands on a loaded machine; what
    # the consumer is given stops at the first piece either way.
    again = engine.complete(request(SECOND, max_output_tokens=24))
    assert again.text == baseline.text and not again.stats.stopped


def constrained(user: str, pattern: str, max_output_tokens: int = 24) -> ChatRequest:
    return ChatRequest(
        step=Step.DETECT,
        system=SYSTEM,
        user=user,
        max_output_tokens=max_output_tokens,
        constraint=ReplyConstraint(pattern),
    )


def test_a_constraint_makes_the_reply_match_its_pattern(engine):
    """The tiny model's words are noise; under a finite pattern it can only say one of its
    answers and stop (spaces written `[ ▁]`, as the page patterns write them)."""
    pattern = "(?:NONE|NAME:[ ▁]Jane[ ▁]Doe|DATE:[ ▁]12[ ▁]March[ ▁]1981)\\n?"
    free = engine.complete(request(FIRST))
    assert re.fullmatch(pattern, free.text) is None
    pieces: list[str] = []
    reply = engine.complete(constrained(FIRST, pattern), on_text=pieces.append)
    assert re.fullmatch(pattern, reply.text), reply.text
    assert "".join(pieces) == reply.text
    # The conversation was fresh: the next unconstrained call is as before.
    assert engine.complete(request(FIRST)).text == free.text


def test_the_page_pattern_is_accepted_by_the_runtime(engine):
    """A real pattern from `answer_pattern`: every line the model ends is an allowed line."""
    labels = ("NAME", "DATE", "PHONE", "EMAIL", "ADDRESS", "ID")
    pattern = answer_pattern(FIRST, labels, ReplyShape.DETECT).pattern
    reply = engine.complete(constrained(FIRST, pattern, max_output_tokens=48))
    lines = reply.text.split("\n")
    ended = lines if re.fullmatch(pattern, reply.text) else lines[:-1]
    assert reply.text and all(re.fullmatch(pattern, line) for line in ended if line), reply.text
