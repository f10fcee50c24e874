"""`tune_model`: corpus split → training examples → LoRA run → published adapter + card.

This is what `redacto model tune` calls. The base model's float32 checkpoint comes from
its own build (`redacto model build <base>` leaves it in `build/models/<base>/work/`).
"""

from __future__ import annotations

from pathlib import Path

from redacto.corpus import RENDER_CACHE_DIR, load_suite, refuse_test_only
from redacto.models import ModelError, load_manifest, model_dir
from redacto.tuning.card import publish_adapter
from redacto.tuning.dataset import (
    build_examples,
    examples_summary,
    read_examples,
    write_examples,
)
from redacto.tuning.train import (
    OnStep,
    TuneConfig,
    TuneResult,
    TuneSettings,
    read_step_log,
    tune,
)


def base_checkpoint(base: str) -> Path:
    """The float32 checkpoint a build of `base` keeps, or an error naming the build command."""
    load_manifest(base)
    checkpoint = model_dir(base) / "work" / "checkpoint"
    if not (checkpoint / ".complete").exists():
        raise ModelError(
            f"no float32 checkpoint of {base!r} at {checkpoint}: run `redacto model build {base}`"
        )
    return checkpoint


def tune_model(
    base: str,
    run_dir: Path,
    *,
    suite: str = "main",
    split: str = "train",
    adapter_out: Path | None = None,
    start_adapter: Path | None = None,
    settings: TuneSettings | None = None,
    on_step: OnStep | None = None,
    render_dir: Path = RENDER_CACHE_DIR,
) -> TuneResult:
    """Train (or continue) a LoRA adapter for `base` on one split of a corpus suite.

    The examples are written to `run_dir/examples.jsonl` on the first call and read back
    on a resumed one, so a continued run trains on exactly the same data. To continue on
    new data (the generator changed), move that file aside: the next call writes the
    current examples and continues from the checkpoint, in a new seeded order. A run folder
    without a checkpoint starts from `start_adapter` when given (a committed adapter, e.g.),
    else from a fresh LoRA. With `adapter_out`, the adapter and its data card are copied
    there. A test-only suite (`redacto.corpus.TEST_ONLY_SUITES`) is refused before anything
    is read.
    """
    refuse_test_only(suite, "training")
    manifest = load_manifest(base)
    template = manifest.chat_template_text()
    if template is None:
        raise ModelError(f"{base!r} names no chat template: the training text needs one")
    examples_path = run_dir / "examples.jsonl"
    if examples_path.exists():
        examples = read_examples(examples_path)
    else:
        documents = [d for d in load_suite(suite) if d.split == split]
        if not documents:
            raise ValueError(f"suite {suite!r} has no {split!r} documents")
        examples = build_examples(documents, render_dir=render_dir)
        write_examples(examples, examples_path)
    config = TuneConfig(
        base_checkpoint=base_checkpoint(base),
        chat_template=template,
        run_dir=run_dir,
        start_adapter=start_adapter,
        **(settings or TuneSettings()).model_dump(),
    )
    result = tune(config, examples, on_step=on_step)
    if adapter_out is not None:
        source = f"The `{split}` split of the `{suite}` suite ({len(examples)} examples)"
        publish_adapter(
            result,
            config,
            read_step_log(run_dir),
            examples_summary(examples),
            source,
            base,
            adapter_out,
        )
    return result
