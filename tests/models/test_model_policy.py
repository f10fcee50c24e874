"""A model's policy comes from its file's bytes: sealed by the build, verified by every run,
whatever the file is called or wherever it lies; anything that does not verify is an unknown
model and runs the fail-closed defaults."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from redacto.host.resources import SOURCE_ROOT
from redacto.modelfile.litertlm_file import LitertlmFormatError, read_header
from redacto.modelfile.manifest import PipelineSettings
from redacto.modelfile.policy import (
    POLICY_FORMAT,
    ModelPolicy,
    PolicyFormatError,
    check_model_file,
    policy_line,
)
from redacto.modelfile.stamp import stamp_policy
from redacto.report import ModelIdentity, PolicyState

FILES = SOURCE_ROOT / "tests" / "vectors" / "policy" / "files"
TRUSTING = PipelineSettings(trust_validator_pass=True)


@pytest.fixture
def sealed(tmp_path: Path) -> Path:
    """A copy of the committed file sealed with a trusting policy."""
    path = tmp_path / "built" / "tiny-int8.litertlm"
    path.parent.mkdir()
    shutil.copy(FILES / "sealed-trusted.litertlm", path)
    return path


def moved(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, target)
    return target


@pytest.mark.parametrize(
    "where",
    [
        "renamed/my-redactor.litertlm",
        "elsewhere/deeper/tiny-int8.litertlm",
        "another-extension/model.bin",
        "no-extension/model",
        "named-like-another/redacto-270m-int8.litertlm",
    ],
)
def test_a_copy_under_any_name_carries_the_same_policy(sealed: Path, tmp_path: Path, where: str):
    original = check_model_file(sealed)
    copy = check_model_file(moved(sealed, tmp_path / where))
    assert copy.state is original.state is PolicyState.VERIFIED
    assert copy.settings == original.settings == TRUSTING
    assert copy.policy == original.policy and copy.sha256 == original.sha256


def test_a_symlink_reads_the_file_it_points_to(sealed: Path, tmp_path: Path):
    link = tmp_path / "link.litertlm"
    os.symlink(sealed, link)
    assert check_model_file(link).state is PolicyState.VERIFIED


def test_the_default_named_file_without_a_policy_is_unknown(tmp_path: Path):
    """The name of the embedded default's build, on a file that carries no policy."""
    path = moved(FILES / "foreign.litertlm", tmp_path / "redacto-270m-int8.litertlm")
    check = check_model_file(path)
    assert check.state is PolicyState.ABSENT
    assert check.settings == PipelineSettings()
    assert check.settings.trust_validator_pass is False


@pytest.mark.parametrize("keep", [40, 16384 + 10, 31, 7, 0])
def test_a_truncated_file_is_unreadable(sealed: Path, keep: int):
    data = sealed.read_bytes()
    sealed.write_bytes(data[: len(data) - 40] if keep == 40 else data[:keep])
    check = check_model_file(sealed)
    assert check.state is PolicyState.UNREADABLE
    assert check.settings.trust_validator_pass is False


def test_an_edited_policy_no_longer_matches_its_seal(tmp_path: Path):
    path = moved(FILES / "sealed-untrusted.litertlm", tmp_path / "m.litertlm")
    data = path.read_bytes()
    path.write_bytes(data.replace(b"trust_validator_pass false", b"trust_validator_pass  true", 1))
    check = check_model_file(path)
    assert check.state is PolicyState.EDITED
    assert check.policy is not None and check.policy.pipeline.trust_validator_pass is True
    assert check.settings.trust_validator_pass is False  # what it claims is not used


def test_edited_weights_no_longer_match_the_sealed_digest(sealed: Path):
    data = bytearray(sealed.read_bytes())
    section = read_header(sealed).sections[0]
    data[section.begin + 3] ^= 0x40
    sealed.write_bytes(bytes(data))
    check = check_model_file(sealed)
    assert check.state is PolicyState.CONTENT_CHANGED
    assert check.settings == PipelineSettings()


def test_stamping_again_replaces_the_policy_and_keeps_the_content(sealed: Path):
    before = read_header(sealed)
    content = sealed.read_bytes()[before.sections[0].begin :]
    stamp_policy(
        sealed, manifest="tiny", quant="int8", fingerprint="x", pipeline=PipelineSettings()
    )
    after = read_header(sealed)
    assert after.keys.count("redacto.policy") == 1
    assert sealed.read_bytes()[after.sections[0].begin :] == content
    assert after.strings["uuid"] == before.strings["uuid"]  # LiteRT-LM's own entries kept
    check = check_model_file(sealed)
    assert check.state is PolicyState.VERIFIED and check.settings == PipelineSettings()


def test_a_long_policy_moves_the_sections_by_whole_blocks(sealed: Path):
    before = read_header(sealed)
    content = sealed.read_bytes()[before.sections[0].begin :]
    stamp_policy(sealed, manifest="m" * 40_000, quant="int8", fingerprint="x", pipeline=TRUSTING)
    after = read_header(sealed)
    assert after.sections[0].begin > before.sections[0].begin
    assert after.sections[0].begin % 16384 == 0
    assert sealed.read_bytes()[after.sections[0].begin :] == content
    assert check_model_file(sealed).state is PolicyState.VERIFIED


@pytest.mark.parametrize(
    "text",
    [
        "redacto-model-policy 2\n",
        f'{POLICY_FORMAT}\nmanifest "m"',  # no final newline
        f'{POLICY_FORMAT}\nmanifest "m"\nmanifest "n"\n',
        f"{POLICY_FORMAT}\nmanifest {{}}\n",
        f"{POLICY_FORMAT}\nmanifest m\n",
        f'{POLICY_FORMAT}\nmanifest "m"\nquant "int8"\nfingerprint "f"\n'
        'content_sha256 "c"\nsurprise true\n',
        f'{POLICY_FORMAT}\nmanifest "m"\nquant "int8"\nfingerprint "f"\n'
        'content_sha256 "c"\ntrust_validator_pass "yes"\n',
        *(
            f'{POLICY_FORMAT}\nmanifest "m"\nquant "int8"\nfingerprint "f"\n'
            f'content_sha256 "c"\npass_margin {margin}\n'
            for margin in ("NaN", "Infinity", "-Infinity")
        ),
    ],
)
def test_a_policy_this_version_cannot_read_is_refused(text: str):
    with pytest.raises(PolicyFormatError):
        ModelPolicy.parse(text)


def test_the_policy_text_reads_back_as_written():
    policy = ModelPolicy(
        manifest="redacto-270m",
        quant="int4",
        fingerprint="f" * 64,
        content_sha256="c" * 64,
        pipeline=PipelineSettings(trust_validator_pass=True, pass_margin=0.75),
    )
    assert ModelPolicy.parse(policy.text()) == policy


@pytest.mark.parametrize("garbage", [b"", b"LITERTLM", b"LITERTLM" + bytes(24), bytes(64)])
def test_garbage_is_no_header(tmp_path: Path, garbage: bytes):
    (tmp_path / "g.litertlm").write_bytes(garbage)
    with pytest.raises(LitertlmFormatError):
        read_header(tmp_path / "g.litertlm")
    assert check_model_file(tmp_path / "g.litertlm").state is PolicyState.UNREADABLE


def test_a_missing_file_is_unreadable_not_an_exception(tmp_path: Path):
    check = check_model_file(tmp_path / "absent.litertlm")
    assert check.state is PolicyState.UNREADABLE and check.sha256 is None


@pytest.mark.parametrize(
    ("identity", "line"),
    [
        (
            ModelIdentity(
                uri="x",
                name="x",
                manifest="redacto-270m",
                quant="int8",
                policy=PolicyState.VERIFIED,
            ),
            "redacto-270m int8 · validator not trusted",
        ),
        (
            ModelIdentity(uri="x", name="x", policy=PolicyState.EDITED),
            "unknown model (policy edited since it was sealed) · validator not measured",
        ),
    ],
)
def test_the_line_people_see(identity: ModelIdentity, line: str):
    assert policy_line(identity, PipelineSettings()) == line
