"""The LoRA path on the tiny model: train a few steps, stop, continue, publish the adapter,
then `build_model` merges it into the base, converts, quantises, loads it in LiteRT-LM and
generates — the same stages `redacto model build redacto-270m` runs on the real model."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from redacto.corpus import load_suite
from redacto.document import Mode, Step
from redacto.host.resources import SOURCE_ROOT
from redacto.modelfile.manifest import LoraSource
from redacto.models import build_model, load_manifest
from redacto.models.checkpoint import build_tiny_checkpoint
from redacto.tuning import TuneConfig, build_examples, read_step_log, tune
from redacto.tuning.card import publish_adapter

pytestmark = pytest.mark.slow

LORA_MANIFEST = """
name = "tiny-tuned"
description = "tiny + a LoRA adapter (test)"
licence = "test"
[source]
kind = "lora"
base = "tiny"
adapter = "adapters/tiny-tuned"
[quant.int8]
method = "hf-export"
recipe = "dynamic_wi8_afp32"
[export]
prefill_lengths = [128]
cache_length = 1024
[chat]
template = "chat/gemma-turns.jinja"
[verify]
system = "Answer with one word."
prompt = "Say hello."
max_output_tokens = 8
"""


@pytest.fixture
def workspace(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """A models folder with `tiny` and a LoRA manifest over it, and an empty build folder."""
    models = tmp_path / "models"
    (models / "chat").mkdir(parents=True)
    for name in ("tiny.toml", "tiny-corpus.txt", "chat/gemma-turns.jinja"):
        shutil.copyfile(SOURCE_ROOT / "models" / name, models / name)
    (models / "tiny-tuned.toml").write_text(LORA_MANIFEST)
    monkeypatch.setenv("REDACTO_MODELS_DIR", str(models))
    monkeypatch.setenv("REDACTO_BUILD_DIR", str(tmp_path / "build"))
    return models, tmp_path / "build"


def test_tune_stops_continues_and_its_adapter_builds_into_a_working_model(workspace, tmp_path):
    models, build = workspace
    tiny = load_manifest("tiny")
    base = build / "models" / "tiny" / "work" / "checkpoint"
    assert isinstance(tiny.source, type(tiny.source))
    build_tiny_checkpoint(tiny.source, models / "tiny-corpus.txt", base)  # type: ignore[arg-type]
    (base / ".complete").touch()

    document = load_suite("smoke")[0]
    example = next(
        e for e in build_examples([document], modes=(Mode.TEXT,)) if e.step is Step.CLASSIFY
    )
    run_dir = tmp_path / "run"
    config = TuneConfig(
        base_checkpoint=base,
        chat_template=tiny.chat_template_text() or "",
        run_dir=run_dir,
        max_steps=6,
        max_length=4096,
        learning_rate=5e-3,
        warmup_steps=1,
        checkpoint_every=3,
        threads=1,
    )
    first = tune(config, [example])
    assert first.steps == 6 and first.stopped_because == "max_steps"
    again = tune(config.model_copy(update={"max_steps": 9}), [example])
    assert again.steps == 9 and again.steps_this_call == 3
    assert again.peak_rss_mb >= first.peak_rss_mb > 0  # the card reports the run's peak
    steps = read_step_log(run_dir)
    assert [s.step for s in steps] == list(range(1, 10))
    assert steps[-1].loss < steps[0].loss  # one example, seen 9 times: it is being learned

    adapter = models / "adapters" / "tiny-tuned"
    publish_adapter(again, config, steps, {"classify-text": 1}, "a test", "tiny", adapter)
    assert "| 1–" in (adapter / "README.md").read_text()

    # A new run can start where the published adapter stopped (another machine, new data).
    fresh = config.model_copy(update={"run_dir": tmp_path / "from-adapter", "max_steps": 0})
    assert not _same_weights(tune(fresh, [example]).adapter_dir, adapter)
    started = tune(
        fresh.model_copy(update={"run_dir": tmp_path / "started", "start_adapter": adapter}),
        [example],
    )
    assert _same_weights(started.adapter_dir, adapter)
    card = tmp_path / "card"
    started_config = fresh.model_copy(update={"run_dir": tmp_path / "started"})
    publish_adapter(started, started_config, [], {"classify-text": 1}, "a test", "tiny", card)
    assert "| started from |" in (card / "README.md").read_text()
    with pytest.raises(ValueError, match="rank"):
        tune(
            fresh.model_copy(
                update={"run_dir": tmp_path / "r4", "start_adapter": adapter, "lora_rank": 4}
            ),
            [example],
        )

    record = build_model("tiny-tuned")
    stages = {stage.name: stage for stage in record.stages}
    assert list(stages) == ["checkpoint", "merge", "export", "verify"]
    assert stages["checkpoint"].reused and not stages["merge"].reused
    assert record.verify is not None and record.verify.decode_tokens > 0

    source = load_manifest("tiny-tuned").source
    assert isinstance(source, LoraSource)
    merged = (
        build / "models" / "tiny-tuned" / "work" / f"merged-{source.adapter_digest(models)[:12]}"
    )
    assert _weights_differ(base, merged)


def test_a_new_adapter_changes_the_fingerprint(workspace):
    models, _ = workspace
    adapter = models / "adapters" / "tiny-tuned"
    adapter.mkdir(parents=True)
    (adapter / "adapter_config.json").write_text("{}")
    (adapter / "adapter_model.safetensors").write_bytes(b"one")
    before = load_manifest("tiny-tuned").fingerprint("int8")
    (adapter / "adapter_model.safetensors").write_bytes(b"two")
    assert load_manifest("tiny-tuned").fingerprint("int8") != before


def test_a_missing_adapter_says_how_to_make_one(workspace):
    from redacto.models import ModelError

    with pytest.raises(ModelError, match="redacto model tune"):
        load_manifest("tiny-tuned").fingerprint("int8")


def _same_weights(one: Path, other: Path) -> bool:
    from safetensors.torch import load_file

    first = load_file(one / "adapter_model.safetensors")
    second = load_file(other / "adapter_model.safetensors")
    return first.keys() == second.keys() and all(bool((first[k] == second[k]).all()) for k in first)


def _weights_differ(base: Path, merged: Path) -> bool:
    from safetensors.torch import load_file

    before = load_file(base / "model.safetensors")
    after = load_file(merged / "model.safetensors")
    name = next(key for key in before if key.endswith("q_proj.weight"))
    assert before.keys() == after.keys()
    return not bool((before[name] == after[name]).all())
