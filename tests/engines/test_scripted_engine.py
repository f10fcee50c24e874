"""The scripted engine replays canned replies per step, in call order, and fails loudly."""

import json

import pytest

from redacto.document import Step
from redacto.engines import (
    ChatRequest,
    Decoding,
    EngineError,
    ScoreRequest,
    ScoringUnsupportedError,
    open_engine,
)
from redacto.engines.scripted import ScriptedEngine


def request(step: Step) -> ChatRequest:
    return ChatRequest(step=step, system="system", user="user")


def test_replies_are_consumed_per_step_in_call_order(tmp_path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"detect": ["1:NAME", "2:DATE"], "validate": ["PASS"]}))
    engine = open_engine(f"scripted:{script}")

    assert engine.complete(request(Step.DETECT)).text == "1:NAME"
    assert engine.complete(request(Step.VALIDATE)).text == "PASS"
    assert engine.complete(request(Step.DETECT)).text == "2:DATE"
    assert engine.identity.uri == f"scripted:{script}"


def test_running_out_of_replies_is_an_error():
    engine = ScriptedEngine.from_mapping({"classify": ["CATEGORY: Medical"]})
    engine.complete(request(Step.CLASSIFY))
    with pytest.raises(EngineError, match="no reply left for step 'classify'"):
        engine.complete(request(Step.CLASSIFY))


def test_stream_delivers_the_whole_reply_in_pieces():
    engine = ScriptedEngine.from_mapping({"detect": ["1:NAME\n2:NAME\n4:DATE"]})
    pieces: list[str] = []
    reply = engine.complete(request(Step.DETECT), on_text=pieces.append)
    assert "".join(pieces) == reply.text
    assert len(pieces) == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read scripted replies"),
        ('["PASS"]', "must be a JSON object"),
        ('{"judge": ["PASS"]}', "unknown steps"),
        ('{"validate": "PASS"}', "must be a list of strings"),
        ('{"validate": [1]}', "must be a list of strings"),
    ],
)
def test_malformed_scripts_are_rejected(tmp_path, content, message):
    script = tmp_path / "replies.json"
    script.write_text(content)
    with pytest.raises(EngineError, match=message):
        open_engine(f"scripted:{script}")


def test_missing_script_file_is_an_error(tmp_path):
    with pytest.raises(EngineError, match="cannot read scripted replies"):
        open_engine(f"scripted:{tmp_path / 'absent.json'}")


def test_a_stop_ends_the_reply_at_that_piece():
    engine = ScriptedEngine.from_mapping({"detect": ["1:NAME\n2:NAME\n4:DATE", "1:NAME"]})
    pieces: list[str] = []

    def stop_after_two(piece: str) -> Decoding:
        pieces.append(piece)
        return Decoding.STOP if len(pieces) == 2 else Decoding.CONTINUE

    reply = engine.complete(request(Step.DETECT), on_text=stop_after_two)
    assert reply.text == "1:NAME\n2:NAME\n"
    assert reply.stats.stopped
    last = engine.complete(request(Step.DETECT), on_text=lambda piece: Decoding.STOP)
    assert last.text == "1:NAME" and not last.stats.stopped  # it had ended anyway


def test_pieces_end_at_newlines_only_as_in_the_kotlin_engine():
    engine = ScriptedEngine.from_mapping({"detect": ["1:NAME\r2:NAME\n4:DATE"]})
    pieces: list[str] = []
    engine.complete(request(Step.DETECT), on_text=pieces.append)
    assert pieces == ["1:NAME\r2:NAME\n", "4:DATE"]


def score_request(*candidates: str) -> ScoreRequest:
    return ScoreRequest(step=Step.VALIDATE, system="system", user="user", candidates=candidates)


def test_without_scores_the_engine_says_it_cannot_score():
    engine = ScriptedEngine.from_mapping({"validate": ["PASS"]})
    assert not engine.supports_scoring
    with pytest.raises(ScoringUnsupportedError, match="cannot score"):
        engine.score(score_request("PASS", "FAIL"))


def test_score_tables_are_consumed_per_step_in_call_order(tmp_path):
    script = tmp_path / "replies.json"
    tables = [{"PASS": -0.25, "FAIL": -2}, {"PASS": -3.0, "FAIL": -0.5}]
    script.write_text(json.dumps({"validate": ["PASS"], "scores": {"validate": tables}}))
    engine = open_engine(f"scripted:{script}")
    assert engine.supports_scoring
    first = engine.score(score_request("FAIL", "PASS"))
    assert [(c.text, c.log_prob) for c in first.candidates] == [("FAIL", -2.0), ("PASS", -0.25)]
    assert engine.score(score_request("PASS", "FAIL")).log_prob("FAIL") == -0.5
    with pytest.raises(EngineError, match="no scores left"):
        engine.score(score_request("PASS"))
    assert engine.complete(request(Step.VALIDATE)).text == "PASS"


def test_a_candidate_the_table_does_not_name_is_an_error():
    engine = ScriptedEngine({}, scores={Step.VALIDATE: [{"PASS": -1.0}]})
    with pytest.raises(EngineError, match="lack"):
        engine.score(score_request("PASS", "FAIL"))


@pytest.mark.parametrize(
    "scores",
    [["PASS"], {"nope": []}, {"validate": [{"PASS": "high"}]}, {"validate": [{"PASS": True}]}],
)
def test_malformed_score_tables_are_rejected(scores):
    with pytest.raises(EngineError, match="scripted scores"):
        ScriptedEngine.from_mapping({"scores": scores})


def test_a_score_request_needs_candidates():
    with pytest.raises(ValueError, match="candidate"):
        score_request()
    with pytest.raises(ValueError, match="candidate"):
        score_request("PASS", "")
