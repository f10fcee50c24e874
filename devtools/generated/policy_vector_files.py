"""Make the small `.litertlm` files under `tests/vectors/policy/files/` (run once per change).

    python -m devtools.generated --write policy-files shared-vectors
    # (re)make every file, then record what Python answers for each

Each file is a real LiteRT-LM container written by `litert-lm-builder` (its sections are a
few bytes of generic data, not a model), sealed by the build's own `stamp_policy`, then
changed the way a user's file could be: edited, truncated, foreign. The builder writes a
fresh uuid and timestamp into every file, so the files are made once and committed: `--check`
leaves them alone, and `--write` remakes them only when named. What each must give is
generated from them (`shared_vectors.py`, `policy/files.json`) and both languages check it
(`tests/pipeline/test_shared_vectors.py`, `PolicyVectorTest.kt`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from redacto.document import ConstrainedDecoding, ImageReading, ValidatorVerdict
from redacto.modelfile.litertlm_file import read_header
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.policy import POLICY_KEY, SEAL_KEY, seal_of
from redacto.modelfile.stamp import stamp_policy

ROOT = Path(__file__).resolve().parents[2]
FILES = ROOT / "tests" / "vectors" / "policy" / "files"

DEFAULT_LIKE = PipelineSettings(
    trust_validator_pass=False,
    image_reading=ImageReading.TEXT,
    model_redact=False,
    constrained_decoding=ConstrainedDecoding.DETECT,
)
TRUSTED = PipelineSettings(trust_validator_pass=True)
SCORED = PipelineSettings(
    trust_validator_pass=True, validator_verdict=ValidatorVerdict.SCORED, pass_margin=1.5
)


def _container(path: Path, *, extra: dict[str, str] | None = None) -> None:
    """A LiteRT-LM file with two small generic sections (and optional string metadata)."""
    from litert_lm_builder import litertlm_builder as builder_module

    builder = builder_module.LitertLmFileBuilder()
    for key, value in (extra or {}).items():
        builder.add_system_metadata(
            builder_module.Metadata(key=key, value=value, dtype=builder_module.DType.STRING)
        )
    with tempfile.TemporaryDirectory() as scratch:
        for number, payload in enumerate((b"weights " * 40, b"tokenizer " * 12)):
            data = Path(scratch) / f"section{number}.bin"
            data.write_bytes(payload)
            builder.add_generic_binary_data(str(data))
        with path.open("wb") as stream:
            builder.build(stream)


def _sealed(path: Path, pipeline: PipelineSettings, manifest: str = "redacto-270m") -> None:
    _container(path)
    stamp_policy(path, manifest=manifest, quant="int8", fingerprint="vector", pipeline=pipeline)


def _replace_once(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    if data.count(old) != 1 or len(old) != len(new):
        raise SystemExit(f"{path.name}: expected one {old!r} to replace in place")
    path.write_bytes(data.replace(old, new))


def _edited_policy(path: Path) -> None:
    _sealed(path, DEFAULT_LIKE)
    # The same number of bytes, so the header still parses: only the seal can tell.
    _replace_once(path, b"trust_validator_pass false", b"trust_validator_pass  true")


def _edited_content(path: Path) -> None:
    _sealed(path, DEFAULT_LIKE)
    data = bytearray(path.read_bytes())
    middle = (read_header(path).sections[0].begin + read_header(path).sections[0].end) // 2
    data[middle] ^= 0x01  # one bit of the "weights"
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    _sealed(path, DEFAULT_LIKE)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])


def _unknown_format(path: Path) -> None:
    text = 'redacto-model-policy 2\nmanifest "redacto-270m"\n'
    _container(path, extra={POLICY_KEY: text, SEAL_KEY: seal_of(text)})


def _header_past_end(path: Path) -> None:
    _sealed(path, TRUSTED)
    data = bytearray(path.read_bytes())
    data[24:32] = (len(data) + 1).to_bytes(8, "little")
    path.write_bytes(bytes(data))


def _not_a_model(path: Path) -> None:
    path.write_bytes(b"GGUF\x03\x00\x00\x00" + bytes(200))  # a GGUF's first bytes


MAKERS: dict[str, Callable[[Path], None]] = {
    "sealed-untrusted.litertlm": lambda p: _sealed(p, DEFAULT_LIKE),
    "sealed-trusted.litertlm": lambda p: _sealed(p, TRUSTED, manifest="tiny"),
    "sealed-scored.litertlm": lambda p: _sealed(p, SCORED, manifest="tiny"),
    "sealed-trusted-other-extension.bin": lambda p: _sealed(p, TRUSTED, manifest="tiny"),
    "policy-edited.litertlm": _edited_policy,
    "content-edited.litertlm": _edited_content,
    "truncated.litertlm": _truncated,
    "foreign.litertlm": lambda p: _container(p),
    "unknown-policy-format.litertlm": _unknown_format,
    "header-past-end.litertlm": _header_past_end,
    "not-a-model.litertlm": lambda p: _not_a_model(p),
}
"""Each committed file and how it is made."""


def outputs() -> dict[str, bytes]:
    """Every file (relative to the repository root), made afresh in a scratch folder."""
    relative = FILES.relative_to(ROOT).as_posix()
    made = {}
    with tempfile.TemporaryDirectory() as scratch:
        for name, make in MAKERS.items():
            make(Path(scratch) / name)
            made[f"{relative}/{name}"] = (Path(scratch) / name).read_bytes()
    return made
