"""LoRA fine-tuning on CPU: the model learns the pipeline's answers to the pipeline's prompts.

Each example is formatted with the chat template the `.litertlm` carries (the system text
at the start of the first user turn, exactly as LiteRT-LM presents it at inference), and
the loss is taken on the answer tokens only (plus the `<end_of_turn>` that stops the
answer). Logits are computed for the answer positions alone: with a 262k-token
vocabulary the output projection over a whole prompt would cost more than the network.

Runs are time-boxed (`max_steps`, `max_minutes`) and resumable: the adapter, optimizer
state and step count are saved every `checkpoint_every` steps and when the box ends, and
a second call with the same `run_dir` continues where the first stopped.
"""

from __future__ import annotations

import json
import random
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from redacto.document import Frozen
from redacto.tuning.dataset import TrainingExample

if TYPE_CHECKING:  # torch and peft are the `tune` extra's, imported where a run needs them
    import torch
    from peft import PeftModel

END_OF_TURN = "<end_of_turn>"
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ADAPTER_FILES = ("adapter_model.safetensors", "adapter_config.json")
STARTED_FROM = "started_from.json"
"""In a run folder: the adapter the run started from (`TuneConfig.start_adapter`) and its
digest, written when the run begins, for the data card."""


class TuneSettings(Frozen):
    """The knobs of a training run (`redacto model tune`'s options), without its paths."""

    max_steps: int = 300
    max_minutes: float = 30.0
    max_length: int = 1280
    """Examples longer than this many tokens (prompt + answer) are skipped, and counted."""
    learning_rate: float = 3e-4
    warmup_steps: int = 10
    lora_rank: int = 8
    lora_alpha: int = 16
    checkpoint_every: int = 20
    seed: int = 0
    threads: int = 2
    loss_weighting: Literal["token", "example"] = "token"
    """`token`: every answer token weighs the same, whichever example it is in (the sum of
    the example's token losses over the mean answer length). `example`: the mean over the
    example's own tokens, so a 2-token `PASS` answer's verdict weighs ten times a verdict
    followed by 18 tokens of missed items — a pull towards PASS a validator must not have."""


class TuneConfig(TuneSettings):
    """One training run: its settings, the base checkpoint and chat template it starts
    from, and the run folder that holds checkpoints and the step log."""

    base_checkpoint: Path
    chat_template: str
    run_dir: Path
    start_adapter: Path | None = None
    """A published adapter (`--adapter-out`'s folder) a run without a checkpoint starts from,
    with a fresh optimizer: so training continues where a committed adapter stopped, on
    another machine or on new data. A run with a checkpoint resumes from that instead."""


class StepLog(BaseModel):
    """One optimizer step, as written to `run_dir/steps.jsonl` (no document text)."""

    step: int
    loss: float
    answer_tokens: int
    prompt_tokens: int
    kind: str
    seconds: float


class TuneResult(BaseModel):
    """What a run (or a resumed run) did, for the CLI and the data card."""

    steps: int
    steps_this_call: int
    seconds_this_call: float
    total_seconds: float
    peak_rss_mb: float
    examples: int
    skipped_too_long: int
    last_losses: list[float]
    adapter_dir: Path
    stopped_because: str


OnStep = Callable[[StepLog, float], None]
"""Called after every step with its log and the steps per second so far."""


def chat_prompt(chat_template: str, system: str, user: str) -> str:
    """The text LiteRT-LM prefills for one (system, user) call: the template's rendering."""
    import jinja2

    template = jinja2.Environment().from_string(chat_template)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return template.render(messages=messages, bos_token="<bos>", add_generation_prompt=True)


@dataclass(frozen=True)
class _Encoded:
    prompt: list[int]
    answer: list[int]
    kind: str


def encode_examples(
    tokenizer, examples: list[TrainingExample], chat_template: str, max_length: int
) -> tuple[list[_Encoded], int]:
    """Token ids of prompt and answer for each example; returns (kept, skipped as too long).

    Prompt and answer are tokenized apart, as at inference (the runtime tokenizes the
    prompt, the model then produces the answer's tokens one by one).
    """
    encoded: list[_Encoded] = []
    skipped = 0
    for example in examples:
        prompt_text = chat_prompt(chat_template, example.system, example.user)
        prompt = tokenizer(prompt_text, add_special_tokens=False).input_ids
        answer = tokenizer(example.answer + END_OF_TURN, add_special_tokens=False).input_ids
        if len(prompt) + len(answer) > max_length:
            skipped += 1
            continue
        encoded.append(_Encoded(prompt, answer, f"{example.step}-{example.mode}"))
    return encoded, skipped


def _order(count: int, seed: int, step: int) -> int:
    """The example for a step: a fresh seeded shuffle per pass, so a resume sees the same."""
    epoch, position = divmod(step, count)
    permutation = list(range(count))
    random.Random(seed * 100_003 + epoch).shuffle(permutation)
    return permutation[position]


def tune(
    config: TuneConfig, examples: list[TrainingExample], on_step: OnStep | None = None
) -> TuneResult:
    """Train (or continue training) a LoRA adapter; returns the run's figures.

    The adapter of the last step is written to `run_dir/adapter/`.
    """
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    started = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(config.base_checkpoint)
    encoded, skipped = encode_examples(tokenizer, examples, config.chat_template, config.max_length)
    if not encoded:
        raise ValueError(f"no example fits in {config.max_length} tokens")
    mean_answer_tokens = sum(len(item.answer) for item in encoded) / len(encoded)
    base = AutoModelForCausalLM.from_pretrained(config.base_checkpoint, dtype=torch.float32)
    lora = LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=0.0,
        target_modules=list(LORA_TARGETS),
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(base, lora)  # only the LoRA matrices train: embeddings stay frozen
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=config.learning_rate, weight_decay=0.0)
    step, previous_seconds, previous_peak = _load_checkpoint(config.run_dir, model, optimizer)
    if step == 0 and config.start_adapter is not None:
        _load_adapter(config.start_adapter, model, config.lora_rank)
        config.run_dir.mkdir(parents=True, exist_ok=True)
        weights = (config.start_adapter / "adapter_model.safetensors").read_bytes()
        started_from = {"adapter": str(config.start_adapter), "sha256": sha256(weights).hexdigest()}
        (config.run_dir / STARTED_FROM).write_text(json.dumps(started_from))
    model.train()

    log_path = config.run_dir / "steps.jsonl"
    config.run_dir.mkdir(parents=True, exist_ok=True)
    first_step = step
    losses: list[float] = []
    stopped = "max_steps" if step < config.max_steps else "already at max_steps"
    loop_started = time.perf_counter()
    with log_path.open("a", encoding="utf-8") as log:
        while step < config.max_steps:
            if (time.perf_counter() - started) / 60 >= config.max_minutes:
                stopped = "max_minutes"
                break
            item = encoded[_order(len(encoded), config.seed, step)]
            step_started = time.perf_counter()
            for group in optimizer.param_groups:
                group["lr"] = config.learning_rate * min(1.0, (step + 1) / config.warmup_steps)
            token_losses = _answer_token_losses(model, item)
            loss = token_losses.mean()  # logged: comparable across weightings and runs
            training_objective(token_losses, config.loss_weighting, mean_answer_tokens).backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            entry = StepLog(
                step=step,
                loss=round(float(loss.detach()), 4),
                answer_tokens=len(item.answer),
                prompt_tokens=len(item.prompt),
                kind=item.kind,
                seconds=round(time.perf_counter() - step_started, 2),
            )
            log.write(entry.model_dump_json() + "\n")
            log.flush()
            losses.append(entry.loss)
            if on_step is not None:
                on_step(entry, (step - first_step) / (time.perf_counter() - loop_started))
            if step % config.checkpoint_every == 0:
                _save_checkpoint(
                    config, model, optimizer, step, (previous_seconds, previous_peak), started
                )
    peak = _save_checkpoint(
        config, model, optimizer, step, (previous_seconds, previous_peak), started
    )
    adapter_dir = config.run_dir / "adapter"
    save_adapter(model, adapter_dir)
    this_call = time.perf_counter() - started
    return TuneResult(
        steps=step,
        steps_this_call=step - first_step,
        seconds_this_call=round(this_call, 1),
        total_seconds=round(previous_seconds + this_call, 1),
        peak_rss_mb=peak,
        examples=len(encoded),
        skipped_too_long=skipped,
        last_losses=losses[-20:],
        adapter_dir=adapter_dir,
        stopped_because=stopped,
    )


def training_objective(
    token_losses: torch.Tensor, weighting: str, mean_answer_tokens: float
) -> torch.Tensor:
    """What one step minimises, from the per-token losses of one example's answer.

    `token`: their sum over the data's mean answer length, so every answer token weighs the
    same in every example. `example`: their mean, so a short answer's tokens weigh more.
    """
    if weighting == "example":
        return token_losses.mean()
    return token_losses.sum() / mean_answer_tokens


def _answer_token_losses(model: PeftModel, item: _Encoded) -> torch.Tensor:
    """Cross-entropy of each answer token given the prompt (logits only where needed)."""
    import torch

    ids = torch.tensor([item.prompt + item.answer])
    keep = len(item.answer) + 1
    logits = model(input_ids=ids, logits_to_keep=keep).logits[0, :-1]
    target = torch.tensor(item.answer)
    return torch.nn.functional.cross_entropy(logits.float(), target, reduction="none")


def save_adapter(model: PeftModel, adapter_dir: Path) -> None:
    """Write the LoRA adapter (safetensors + config) without the local base path in it."""
    model.save_pretrained(str(adapter_dir), safe_serialization=True)
    config_path = adapter_dir / "adapter_config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["base_model_name_or_path"] = None  # the manifest names the base, not a local path
    config["target_modules"] = sorted(config["target_modules"])  # peft writes a set's order
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _save_checkpoint(
    config: TuneConfig,
    model: PeftModel,
    optimizer: torch.optim.Optimizer,
    step: int,
    previous: tuple[float, float],
    started: float,
) -> float:
    """Save adapter, optimizer and progress; returns the peak RSS (MB) over all calls so far."""
    import torch

    run_dir = config.run_dir
    target = run_dir / "checkpoint"
    scratch = run_dir / "checkpoint.tmp"
    if scratch.exists():
        _remove_tree(scratch)
    model.save_pretrained(str(scratch), safe_serialization=True)
    torch.save(optimizer.state_dict(), scratch / "optimizer.pt")
    seconds = previous[0] + time.perf_counter() - started
    peak = max(previous[1], round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))
    state = {"step": step, "seconds": round(seconds, 1), "peak_rss_mb": peak}
    (scratch / "state.json").write_text(json.dumps(state))
    if target.exists():
        _remove_tree(target)
    scratch.rename(target)  # a stop mid-save leaves the previous checkpoint whole
    return peak


def _load_checkpoint(
    run_dir: Path, model: PeftModel, optimizer: torch.optim.Optimizer
) -> tuple[int, float, float]:
    """Restore adapter and optimizer from `run_dir/checkpoint`.

    Returns (step, seconds, peak RSS MB) of the runs so far; zeros when there is none.
    """
    import torch
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    target = run_dir / "checkpoint"
    if not (target / "state.json").exists():
        return 0, 0.0, 0.0
    set_peft_model_state_dict(model, load_file(target / "adapter_model.safetensors"))
    optimizer.load_state_dict(torch.load(target / "optimizer.pt", weights_only=True))
    state = json.loads((target / "state.json").read_text())
    return int(state["step"]), float(state["seconds"]), float(state.get("peak_rss_mb", 0.0))


def _load_adapter(folder: Path, model: PeftModel, rank: int) -> None:
    """Set the LoRA weights to a published adapter's (same rank, same target modules)."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    settings = json.loads((folder / "adapter_config.json").read_text())
    if settings.get("r") != rank or sorted(settings.get("target_modules", ())) != sorted(
        LORA_TARGETS
    ):
        raise ValueError(
            f"{folder} is a rank-{settings.get('r')} adapter on {settings.get('target_modules')}; "
            f"this run trains rank {rank} on {list(LORA_TARGETS)}"
        )
    result: Any = set_peft_model_state_dict(model, load_file(folder / "adapter_model.safetensors"))
    missing = [key for key in result.missing_keys if "lora_" in key]
    if missing or result.unexpected_keys:
        raise ValueError(
            f"{folder} does not fit this model: {(missing or result.unexpected_keys)[:3]}"
        )


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)


def read_step_log(run_dir: Path) -> list[StepLog]:
    """The steps of a run, in order (a resumed run appends to the same log)."""
    path = run_dir / "steps.jsonl"
    if not path.exists():
        return []
    logs = [StepLog.model_validate_json(line) for line in path.read_text().splitlines() if line]
    by_step = {log.step: log for log in logs}  # a step redone after a stop is kept once
    return [by_step[step] for step in sorted(by_step)]
