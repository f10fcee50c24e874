"""The whole chain on the tiny model: train tokenizer → checkpoint → convert → quantise →
package → load in LiteRT-LM → generate, through the same `build_model` as the real models."""

from __future__ import annotations

import time

import pytest

from redacto.model_record import read_record, sha256_of
from redacto.models import build_model, built_record, model_file, resolve_model

pytestmark = pytest.mark.slow


def test_the_build_record_describes_the_file(tiny_model_path):
    record = read_record(tiny_model_path)
    assert record is not None
    assert record.file == tiny_model_path.name
    assert record.sha256 == sha256_of(tiny_model_path)
    assert record.size_bytes == tiny_model_path.stat().st_size
    assert 0 < record.size_bytes < 2_000_000
    assert [stage.name for stage in record.stages] == ["checkpoint", "export", "verify"]
    assert record.tool_versions["litert-torch"] != "not installed"
    assert record.tool_versions["litert-lm-api"] != "not installed"


def test_the_build_measured_each_stage_and_the_smoke_prompt(tiny_model_path):
    record = built_record("tiny")
    built = [stage for stage in record.stages if not stage.reused]
    for stage in built:
        assert stage.seconds > 0
        assert stage.peak_rss_mb is not None and stage.peak_rss_mb > 10
    assert record.verify is not None
    assert record.verify.decode_tokens > 0
    assert record.verify.prefill_tokens > 0
    assert record.verify.decode_tokens_per_s > 0
    assert record.verify.ttft_ms > 0


def test_a_second_build_reuses_the_file(tiny_model_path):
    before = tiny_model_path.stat().st_mtime_ns
    started = time.monotonic()
    record = build_model("tiny")
    assert time.monotonic() - started < 5
    assert tiny_model_path.stat().st_mtime_ns == before
    assert record.sha256 == sha256_of(tiny_model_path)


def test_the_built_name_resolves_to_the_file(tiny_model_path):
    assert resolve_model("tiny") == f"litertlm:{model_file('tiny', 'int8')}"
    assert model_file("tiny", "int8") == tiny_model_path
