"""The whole chain on the tiny model: train tokenizer → checkpoint → convert → quantise →
package → load in LiteRT-LM → generate, through the same `build_model` as the real models."""

from __future__ import annotations

import shutil
import time

import pytest

from redacto.document import Step
from redacto.engines import ChatRequest
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.policy import check_model_file
from redacto.modelfile.record import read_record, sha256_of
from redacto.modelfile.stamp import stamp_policy
from redacto.models import build_model, built_record, model_file, open_model, resolve_model
from redacto.report import PolicyState

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


def test_the_build_seals_the_manifests_policy_into_the_file(tiny_model_path):
    from redacto.modelfile.manifest import load_manifest

    check = check_model_file(tiny_model_path)
    assert check.state is PolicyState.VERIFIED
    assert check.policy is not None and check.policy.manifest == "tiny"
    assert check.settings == load_manifest("tiny").pipeline
    record = read_record(tiny_model_path)
    assert record is not None and record.content_sha256 == check.policy.content_sha256


def test_litert_lm_loads_a_renamed_copy_with_the_same_policy(tiny_model_path, tmp_path):
    """The real runtime: the identity and settings of an engine come from the file's bytes."""
    # LiteRT-LM itself opens only files named .litertlm (another extension is an engine
    # error, so no run); the policy of one is read the same (tests/models/test_model_policy).
    copy = tmp_path / "elsewhere" / "my-redactor.litertlm"
    copy.parent.mkdir()
    shutil.copy(tiny_model_path, copy)
    with open_model(str(tiny_model_path)) as built, open_model(f"litertlm:{copy}") as renamed:
        assert renamed.identity.policy is built.identity.policy is PolicyState.VERIFIED
        assert renamed.identity.manifest == built.identity.manifest == "tiny"
        assert renamed.identity.sha256 == built.identity.sha256
        assert renamed.settings == built.settings


def test_litert_lm_loads_an_edited_copy_as_an_unknown_model(tiny_model_path, tmp_path):
    copy = tmp_path / "tiny-int8.litertlm"
    data = tiny_model_path.read_bytes()
    # Reseal with a trusting policy the manifest never gave, then break the seal by hand.
    copy.write_bytes(data)
    stamp_policy(
        copy,
        manifest="tiny",
        quant="int8",
        fingerprint="hand-made",
        pipeline=PipelineSettings(trust_validator_pass=True),
    )
    edited = copy.read_bytes().replace(b'fingerprint "hand-made"', b'fingerprint "hand-mad3"')
    copy.write_bytes(edited)
    with open_model(f"litertlm:{copy}") as engine:
        assert engine.identity.policy is PolicyState.EDITED
        assert engine.settings == PipelineSettings()
        assert engine.complete(ChatRequest(step=Step.CLASSIFY, system="", user="Hi")).stats.ms > 0
