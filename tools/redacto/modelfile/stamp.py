"""Write a model's policy into its `.litertlm` file (`redacto.modelfile.policy` reads it back).

The exporter packages the model with LiteRT-LM's own system metadata (a uuid, a creation
time); `stamp_policy` adds (or replaces) the two `redacto.policy*` entries and writes the
file anew. The header grows by a few hundred bytes; when it no longer fits before the first
section, every section moves by whole 16 KiB blocks, so their bytes — the model's content,
which the policy's digest covers — are copied unchanged and stay block-aligned.

Writing the header needs LiteRT-LM's FlatBuffers schema (`litert-lm-builder`, part of the
`litert` extra the build already needs); reading it does not.
"""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path
from typing import Any

from redacto.modelfile.litertlm_file import BLOCK_SIZE, HEADER_BEGIN, HEADER_END_AT, read_header
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.policy import (
    POLICY_KEY,
    SEAL_KEY,
    ModelPolicy,
    content_start,
    file_digests,
    seal_of,
)


def stamp_policy(
    path: Path,
    *,
    manifest: str,
    quant: str,
    fingerprint: str,
    pipeline: PipelineSettings,
    content_sha256: str | None = None,
) -> ModelPolicy:
    """Seal `pipeline` into the model file at `path` (rewritten atomically) and return the
    policy written. `content_sha256` saves hashing the content when the caller knows it."""
    schema = _schema()
    header = read_header(path)
    start = content_start(header)
    if content_sha256 is None:
        content_sha256 = file_digests(path, start)[1]
    policy = ModelPolicy(
        manifest=manifest,
        quant=quant,
        fingerprint=fingerprint,
        content_sha256=content_sha256,
        pipeline=pipeline,
    )
    text = policy.text()
    with path.open("rb") as handle:
        prefix = handle.read(HEADER_END_AT)
        handle.seek(HEADER_BEGIN)
        metadata = schema.LiteRTLMMetaDataT.InitFromPackedBuf(
            handle.read(header.header_end - HEADER_BEGIN), 0
        )
    entries = [
        entry
        for entry in (metadata.systemMetadata.entries or [])
        if _key(entry) not in (POLICY_KEY, SEAL_KEY)
    ]
    for key, value in ((POLICY_KEY, text), (SEAL_KEY, seal_of(text))):
        entries.append(
            schema.KeyValuePairT(
                key=key,
                value=schema.StringValueT(value),
                valueType=schema.VData.StringValue,
            )
        )
    metadata.systemMetadata.entries = entries
    packed = _pack(metadata)
    shift = max(0, _round_up(HEADER_BEGIN + len(packed)) - start)
    for section in metadata.sectionMetadata.objects or []:
        section.beginOffset += shift
        section.endOffset += shift
    packed = _pack(metadata)  # offsets are fixed-width: the size does not change
    _rewrite(path, prefix, packed, start, start + shift)
    return policy


def _schema() -> Any:
    """LiteRT-LM's generated header schema (litert-lm-builder 0.18.1)."""
    from litert_lm_builder import litertlm_header_schema_py_generated as schema

    # Its object API calls `VDataCreator`, but the module defines `VdataCreator`, so reading
    # any key/value pair raises NameError; give the name it calls.
    if not hasattr(schema, "VDataCreator"):
        schema.VDataCreator = schema.VdataCreator
    return schema


def _key(entry: object) -> str:
    key = getattr(entry, "key", b"")
    return key.decode() if isinstance(key, bytes) else str(key)


def _pack(metadata: Any) -> bytes:
    import flatbuffers

    builder = flatbuffers.Builder(BLOCK_SIZE)
    builder.Finish(metadata.Pack(builder))
    return bytes(builder.Output())


def _round_up(offset: int) -> int:
    return (offset + BLOCK_SIZE - 1) // BLOCK_SIZE * BLOCK_SIZE


def _rewrite(path: Path, prefix: bytes, packed: bytes, old_start: int, new_start: int) -> None:
    """Write header + content (moved from `old_start` to `new_start`) to a temporary file
    beside `path`, then replace `path` with it."""
    scratch = path.with_name(path.name + ".stamping")
    try:
        with path.open("rb") as source, scratch.open("wb") as target:
            target.write(prefix)
            target.write(struct.pack("<Q", HEADER_BEGIN + len(packed)))
            target.write(packed)
            target.write(b"\0" * (new_start - target.tell()))
            source.seek(old_start)
            shutil.copyfileobj(source, target, 1 << 20)
            target.flush()
            os.fsync(target.fileno())
        os.replace(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)
