"""A model's policy travels inside its file: what a run may trust it with, and how it is read.

`redacto model build` writes into each `.litertlm` it makes two system metadata entries
(`redacto.modelfile.stamp`):

- `redacto.policy`: a small text naming the manifest, the quantisation, the build
  fingerprint, the sha256 of the model's content (every byte from the first section to the
  end of the file: graph, weights, tokenizer, LLM metadata), and the manifest's `[pipeline]`
  settings, one `key value` line each, the value a JSON scalar:

      redacto-model-policy 1
      manifest "redacto-270m"
      quant "int8"
      fingerprint "…"
      content_sha256 "…"
      trust_validator_pass false
      image_reading "text"
      …

- `redacto.policy_seal`: the sha256 of that text.

A run reads the policy from the file it loads, never from the file's name
(`check_model_file`): a renamed, moved or linked copy carries the same policy; a file with
no policy (a foreign `.litertlm`, a build from before policies), a policy that does not
match its seal, content that no longer matches the policy's digest (a truncated or edited
file, weights swapped under an old header), or a policy this version cannot read, is an
unknown model, and gets the fail-closed `PipelineSettings()`: its validator's PASS is not
trusted. The seal and the digest catch accidents and careless edits; they are checksums,
not a signature (anyone can recompute them), so they cannot stop a deliberate forger.

The phone reads the same entries with the same rules (`ModelPolicy.kt`); the shared
vectors under `tests/vectors/policy/` hold files for both.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from redacto.document import Frozen, ValidatorVerdict
from redacto.modelfile.litertlm_file import LitertlmFormatError, LitertlmHeader, read_header
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.record import read_record, record_matches_file
from redacto.report import ModelIdentity, PolicyState

POLICY_KEY = "redacto.policy"
SEAL_KEY = "redacto.policy_seal"
POLICY_FORMAT = "redacto-model-policy 1"
"""The policy text's first line; a file with another is a policy this version cannot read."""
_IDENTITY_KEYS = ("manifest", "quant", "fingerprint", "content_sha256")


class PolicyFormatError(ValueError):
    """A policy text this version cannot read (fails closed: the model is unknown)."""


class ModelPolicy(Frozen):
    """What a built model file says of itself: where it came from and how a run may use it."""

    manifest: str
    quant: str
    fingerprint: str
    content_sha256: str
    pipeline: PipelineSettings

    def text(self) -> str:
        """The policy as stored in the file (`parse` reads it back)."""
        values: dict[str, Any] = {key: getattr(self, key) for key in _IDENTITY_KEYS}
        values.update(self.pipeline.model_dump(mode="json"))
        lines = [POLICY_FORMAT]
        lines += [f"{key} {json.dumps(value, ensure_ascii=False)}" for key, value in values.items()]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> ModelPolicy:
        """Read a policy text; raises `PolicyFormatError` for anything not written by `text`
        (another format line, an unknown or repeated key, a value that is no JSON scalar)."""
        lines = text.split("\n")
        if lines[0] != POLICY_FORMAT or lines[-1] != "":
            raise PolicyFormatError(f"unknown policy format {lines[0][:40]!r}")
        values: dict[str, Any] = {}
        for line in lines[1:-1]:
            key, sep, raw = line.partition(" ")
            if not sep or key in values:
                raise PolicyFormatError(f"bad or repeated policy line for {key[:40]!r}")
            try:
                values[key] = json.loads(raw)
            except json.JSONDecodeError as error:
                raise PolicyFormatError(f"policy value of {key!r} is not JSON") from error
            if isinstance(values[key], dict | list):
                raise PolicyFormatError(f"policy value of {key!r} is not a scalar")
        identity = {key: values.pop(key, None) for key in _IDENTITY_KEYS}
        try:
            return cls(
                **identity,
                pipeline=PipelineSettings.model_validate_json(json.dumps(values), strict=True),
            )
        except ValidationError as error:
            raise PolicyFormatError(f"policy does not validate: {error}") from error


def phone_settings(settings: PipelineSettings) -> PipelineSettings:
    """A model's settings as the phone may use them (`ModelPolicy.kt` applies the same).

    The phone's runtime cannot score (`litertlm-android` 0.18.0 has no text scoring), so it
    reads every verdict by the answer rule: a model whose trust rests on the scored rule
    (`validator_verdict = "scored"`) is not trusted there, as on any engine that cannot score.
    """
    trusted = settings.trust_validator_pass and (
        settings.validator_verdict is ValidatorVerdict.ANSWER
    )
    return PipelineSettings(
        trust_validator_pass=trusted,
        image_reading=settings.image_reading,
        model_redact=settings.model_redact,
        constrained_decoding=settings.constrained_decoding,
    )


def policy_line(identity: ModelIdentity, settings: PipelineSettings) -> str:
    """One line for a person: which model this is by its own policy, and whether its
    validator's PASS is trusted (the review page shows it beside the model's name)."""
    if not identity.policy.trusted:
        return f"unknown model ({identity.policy.value}) · validator not measured"
    origin = "declared by its engine"
    if identity.manifest:
        origin = f"{identity.manifest} {identity.quant}"
    trust = "trusted" if settings.trust_validator_pass else "not trusted"
    return f"{origin} · validator {trust}"


def seal_of(text: str) -> str:
    """The seal of a policy text: its sha256, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ModelFileCheck:
    """What a model file carries and whether it can be relied on (`check_model_file`)."""

    sha256: str | None
    """The whole file's sha256 (None when the file could not be read at all)."""
    state: PolicyState
    policy: ModelPolicy | None
    """The policy the file carries, verified or not (None when it has none or none readable)."""
    detail: str
    """What was found, in words, for `redacto model verify` and the review page."""

    @property
    def settings(self) -> PipelineSettings:
        """How a run may use this model: its own settings only when verified, else the
        fail-closed defaults (no trusted PASS)."""
        if self.state is PolicyState.VERIFIED and self.policy is not None:
            return self.policy.pipeline
        return PipelineSettings()


def content_start(header: LitertlmHeader) -> int:
    """Where the model's content (what `content_sha256` covers) begins: the first section,
    or the header's end for a file with no sections."""
    return min((s.begin for s in header.sections), default=header.header_end)


def check_model_file(path: Path) -> ModelFileCheck:
    """Read the policy a `.litertlm` file carries and verify it against the file's bytes.

    Hashes the file once (its whole sha256 for the report, its content's for the policy),
    unless the build record beside it still matches the file (size and mtime), which holds
    both. Never raises for what the file holds: anything unreadable is an unknown model.
    """
    try:
        header = read_header(path)
    except (LitertlmFormatError, OSError) as error:
        return ModelFileCheck(_sha256_or_none(path), PolicyState.UNREADABLE, None, str(error))
    whole, content = _digests(path, content_start(header))
    text = header.strings.get(POLICY_KEY)
    if text is None:
        return ModelFileCheck(whole, PolicyState.ABSENT, None, "the file carries no policy")
    try:
        policy = ModelPolicy.parse(text)
    except PolicyFormatError as error:
        return ModelFileCheck(whole, PolicyState.UNREADABLE, None, str(error))
    if header.strings.get(SEAL_KEY) != seal_of(text):
        return ModelFileCheck(
            whole, PolicyState.EDITED, policy, "the policy does not match its seal"
        )
    if policy.content_sha256 != content:
        return ModelFileCheck(
            whole,
            PolicyState.CONTENT_CHANGED,
            policy,
            "the model's content does not match the digest its policy was sealed with",
        )
    return ModelFileCheck(
        whole, PolicyState.VERIFIED, policy, f"built from {policy.manifest} ({policy.quant})"
    )


def _digests(path: Path, start: int) -> tuple[str, str]:
    """(whole file sha256, sha256 of the bytes from `start` to the end), in one pass, or
    both from a build record that still matches the file."""
    record = read_record(path)
    if (
        record is not None
        and record.content_sha256 is not None
        and record.content_start == start
        and record_matches_file(record, path)
    ):
        return record.sha256, record.content_sha256
    return file_digests(path, start)


def file_digests(path: Path, start: int) -> tuple[str, str]:
    """(whole file sha256, sha256 of the bytes from `start` to the end), reading it once."""
    whole, content = hashlib.sha256(), hashlib.sha256()
    position = 0
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            whole.update(block)
            if position + len(block) > start:
                content.update(block[max(0, start - position) :])
            position += len(block)
    return whole.hexdigest(), content.hexdigest()


def _sha256_or_none(path: Path) -> str | None:
    try:
        return file_digests(path, 0)[0]
    except OSError:
        return None
