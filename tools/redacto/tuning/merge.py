"""Merge a LoRA adapter into its base checkpoint: the `merge` stage of a LoRA model's build.

The result is an ordinary float32 Hugging Face checkpoint (weights, config, generation
config, tokenizer), so litert-torch converts and quantises it like any other.
"""

from __future__ import annotations

from pathlib import Path

from redacto.modelfile.manifest import ModelError


def merge_adapter(base_checkpoint: Path, adapter_dir: Path, output: Path) -> None:
    """Write `base_checkpoint` with `adapter_dir`'s LoRA update folded into its weights."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if not (adapter_dir / "adapter_model.safetensors").is_file():
        raise ModelError(f"no LoRA adapter in {adapter_dir}")
    base = AutoModelForCausalLM.from_pretrained(base_checkpoint, dtype=torch.float32)
    merged = PeftModel.from_pretrained(base, adapter_dir).merge_and_unload()
    output.mkdir(parents=True, exist_ok=True)
    merged.save_pretrained(output)
    AutoTokenizer.from_pretrained(base_checkpoint).save_pretrained(output)
