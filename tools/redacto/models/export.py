"""Checkpoint → quantised `.litertlm`, with litert-torch.

Both paths convert the PyTorch graph to LiteRT, quantise its weights and package graph,
tokenizer and metadata (prompt template, start and stop tokens) into one `.litertlm`
file with litert-lm-builder; litert-torch does the three in one call.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from redacto.modelfile.manifest import Manifest, ModelError, QuantRecipe


def has_chat_template(checkpoint: Path) -> bool:
    """Whether the checkpoint's tokenizer already carries a chat template."""
    if (checkpoint / "chat_template.jinja").exists():
        return True
    config = checkpoint / "tokenizer_config.json"
    return config.exists() and '"chat_template"' in config.read_text(encoding="utf-8")


def export_litertlm(
    manifest: Manifest, recipe: QuantRecipe, checkpoint: Path, output: Path
) -> None:
    """Write `output` from `checkpoint` with the manifest's recipe."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=output.parent, prefix=".export-") as scratch:
        if recipe.method == "hf-export":
            produced = _export_hf(manifest, recipe, checkpoint, Path(scratch))
        else:
            produced = _export_classic_gemma3_270m(manifest, recipe, checkpoint, Path(scratch))
        if not produced.is_file():
            raise ModelError(f"litert-torch finished without writing {produced}")
        # Same folder, so the rename is atomic: a half-written file never has the final name.
        shutil.move(produced, output)


def _template_override(manifest: Manifest, checkpoint: Path, scratch: Path) -> str | None:
    template = manifest.chat_template_text()
    if template is None or has_chat_template(checkpoint):
        return None
    path = scratch / "chat_template.jinja"
    path.write_text(template, encoding="utf-8")
    return str(path)


def _export_hf(manifest: Manifest, recipe: QuantRecipe, checkpoint: Path, scratch: Path) -> Path:
    from litert_torch.generative.export_hf import export

    settings = manifest.export
    options: dict[str, object] = dict(settings.options)
    template = _template_override(manifest, checkpoint, scratch)
    if template is not None:
        options["jinja_chat_template_override"] = template
    export.export(
        model=str(checkpoint),
        output_dir=str(scratch),
        prefill_lengths=list(settings.prefill_lengths),
        cache_length=settings.cache_length,
        quantization_recipe=recipe.recipe,
        **options,
    )
    return scratch / "model.litertlm"


def _export_classic_gemma3_270m(
    manifest: Manifest, recipe: QuantRecipe, checkpoint: Path, scratch: Path
) -> Path:
    """litert-torch's own Gemma 3 270M graph: the path with block-wise int4 weights."""
    from litert_torch.generative.examples.gemma3 import gemma3
    from litert_torch.generative.layers import kv_cache
    from litert_torch.generative.utilities import converter
    from litert_torch.generative.utilities.export_config import ExportConfig

    template = manifest.chat_template_text()
    if has_chat_template(checkpoint):
        from transformers import AutoTokenizer

        template = AutoTokenizer.from_pretrained(checkpoint).chat_template
    tokenizer_args = _classic_tokenizer_args(checkpoint)

    model = gemma3.build_model_270m(str(checkpoint), mask_cache_size=0)
    export_config = ExportConfig(mask_as_input=True, kvcache_layout=kv_cache.KV_LAYOUT_TRANSPOSED)
    output = scratch / "model.litertlm"
    converter.convert_to_litert(
        model,
        output_path=str(scratch),
        output_name_prefix=manifest.name,
        prefill_seq_len=list(manifest.export.prefill_lengths),
        kv_cache_max_len=manifest.export.cache_length,
        quantize=recipe.recipe,
        export_config=export_config,
        output_format="litertlm",
        **tokenizer_args,
        start_token=manifest.chat.start_token,
        stop_tokens=list(manifest.chat.stop_tokens),
        llm_model_type="gemma3",
        jinja_prompt_template=template,
        user_prompt_prefix="<start_of_turn>user\n",
        user_prompt_suffix="<end_of_turn>\n",
        model_prompt_prefix="<start_of_turn>model\n",
        model_prompt_suffix="<end_of_turn>\n",
    )
    produced = sorted(scratch.glob("*.litertlm"))
    return produced[0] if produced else output


def _classic_tokenizer_args(checkpoint: Path) -> dict[str, str]:
    if (checkpoint / "tokenizer.model").exists():
        return {"tokenizer_model_path": str(checkpoint / "tokenizer.model")}
    if (checkpoint / "tokenizer.json").exists():
        return {"hf_tokenizer_model_path": str(checkpoint / "tokenizer.json")}
    raise ModelError(f"{checkpoint} has neither tokenizer.model nor tokenizer.json")
