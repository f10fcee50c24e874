"""`redacto model tune`: LoRA fine-tuning of a base model on the corpus (thin over tuning)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redacto.cli._model_app import console, fail, model_app
from redacto.models import ModelError, build_root


@model_app.command("tune")
def tune(
    base: Annotated[str, typer.Option(help="The base model's manifest.")] = "gemma-3-270m",
    suite: Annotated[str, typer.Option(help="Corpus suite to learn from.")] = "main",
    split: Annotated[str, typer.Option(help="Split of the suite (test stays held out).")] = "train",
    run_dir: Annotated[
        Path | None,
        typer.Option(
            help="Checkpoints and step log; run again to continue. Default build/tune/BASE."
        ),
    ] = None,
    adapter_out: Annotated[
        Path | None,
        typer.Option(
            help="Copy the adapter and its data card here, e.g. models/adapters/redacto-270m."
        ),
    ] = None,
    from_adapter: Annotated[
        Path | None,
        typer.Option(help="A new run starts from this published adapter (e.g. the committed one)."),
    ] = None,
    max_steps: Annotated[int, typer.Option(help="Stop after this many steps in all.")] = 300,
    max_minutes: Annotated[
        float, typer.Option(help="Stop this call after so many minutes.")
    ] = 30.0,
    max_length: Annotated[
        int, typer.Option(help="Skip examples longer than this (tokens).")
    ] = 1280,
    learning_rate: Annotated[float, typer.Option(help="AdamW learning rate.")] = 3e-4,
    rank: Annotated[int, typer.Option(help="LoRA rank.")] = 8,
    threads: Annotated[int, typer.Option(help="Torch CPU threads.")] = 2,
    loss_weighting: Annotated[
        str,
        typer.Option(help="token: every answer token weighs the same; example: each example does."),
    ] = "token",
) -> None:
    """Teach a base model the pipeline's answers with a LoRA adapter, on CPU, time-boxed."""
    from redacto.tuning.recipe import tune_model
    from redacto.tuning.train import StepLog, TuneSettings

    folder = run_dir or build_root() / "tune" / base

    def show(entry: StepLog, steps_per_s: float) -> None:
        console.print(
            f"step {entry.step}/{max_steps}  loss {entry.loss:.3f}  {entry.kind}  "
            f"{entry.prompt_tokens}+{entry.answer_tokens} tok  {steps_per_s:.3f} steps/s",
            highlight=False,
        )

    settings = TuneSettings(
        max_steps=max_steps,
        max_minutes=max_minutes,
        max_length=max_length,
        learning_rate=learning_rate,
        lora_rank=rank,
        lora_alpha=2 * rank,
        threads=threads,
        loss_weighting=loss_weighting,
    )
    try:
        result = tune_model(
            base,
            folder,
            suite=suite,
            split=split,
            adapter_out=adapter_out,
            start_adapter=from_adapter,
            settings=settings,
            on_step=show,
        )
    except (ModelError, ValueError) as error:
        raise fail(error) from error
    console.print(
        f"{result.steps} steps ({result.steps_this_call} now, stopped by {result.stopped_because}) "
        f"in {result.seconds_this_call / 60:.1f} min, peak {result.peak_rss_mb / 1024:.2f} GiB; "
        f"adapter {result.adapter_dir}" + (f" → {adapter_out}" if adapter_out else ""),
        highlight=False,
    )
