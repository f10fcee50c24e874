"""Every file that is rendered from the repository's sources and committed, registered once.

Order matters where one family is rendered from another's output: the prefilter lines are
part of `recognizers.yaml` before it becomes Kotlin, and the policy files exist before the
vectors that say what each one gives. Each render imports its generator only when it runs,
so listing the registry, or checking one family, needs nothing the others need.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from devtools.generated.engine import Content, Generated, Rendered


def _outputs(module: str) -> Callable[[], Rendered]:
    """The `outputs()` of `devtools.generated.<module>`, imported when first rendered."""

    def render() -> Rendered:
        return dict(importlib.import_module(f"devtools.generated.{module}").outputs())

    return render


def _kotlin_prompts() -> Rendered:
    from redacto.prompts import PromptLibrary
    from redacto.prompts.kotlin import KOTLIN_RELATIVE_PATH, render_kotlin

    return {KOTLIN_RELATIVE_PATH.as_posix(): render_kotlin(PromptLibrary.load())}


def _kotlin_rules() -> Rendered:
    from redacto.rules.kotlin import KOTLIN_RELATIVE_PATH, render_kotlin

    return {KOTLIN_RELATIVE_PATH.as_posix(): render_kotlin()}


def _ner_vectors_same(stored: Content, rendered: Content) -> bool:
    from devtools.generated import ner_vectors

    return ner_vectors.same(stored, rendered)


def _lexicon_vectors() -> Rendered:
    from redacto.host.resources import in_checkout
    from redacto.lexicon.vectors import VECTORS_RELATIVE, render_vectors

    texts = in_checkout(VECTORS_RELATIVE).with_name("texts.json")
    return {VECTORS_RELATIVE: render_vectors(texts)}


def _lexicon() -> Rendered:
    import tempfile
    from pathlib import Path

    from redacto.lexicon.build import build

    with tempfile.TemporaryDirectory() as scratch:
        build(Path(scratch))
        return {f"lexicon/{path.name}": path.read_bytes() for path in Path(scratch).iterdir()}


REGISTRY: tuple[Generated, ...] = (
    Generated("kotlin-prompts", "prompts/ (redacto.prompts.kotlin)", _kotlin_prompts),
    Generated(
        "rule-prefilter", "each pattern's regex in recognizers.yaml", _outputs("rule_prefilter")
    ),
    Generated("kotlin-rules", "tools/redacto/rules/*.yaml (redacto.rules.kotlin)", _kotlin_rules),
    Generated("ner-unicode", "Rust tokenizers' character classes", _outputs("ner_unicode_tables")),
    Generated(
        "policy-files",
        "litert-lm-builder and redacto.modelfile.stamp",
        _outputs("policy_vector_files"),
        unchecked="the builder writes a fresh uuid and timestamp into every file",
    ),
    Generated(
        "shared-vectors", "the Python reference on shared_vector_*.py", _outputs("shared_vectors")
    ),
    Generated(
        "ner-vectors",
        "the installed Rampart model on ner_vector_texts.py",
        _outputs("ner_vectors"),
        strays="tests/vectors/ner/*.json",
        same=_ner_vectors_same,
    ),
    Generated(
        "ink-vectors",
        "redacto.imaging.ink_cover on Pillow drawings",
        _outputs("ink_vectors"),
        strays="tests/vectors/ink/*.json",
    ),
    Generated(
        "lexicon-vectors", "redacto.lexicon on tests/vectors/lexicon/texts.json", _lexicon_vectors
    ),
    Generated(
        "lexicon",
        "Debian's Hunspell dictionaries (redacto.lexicon.build)",
        _lexicon,
        unchecked="half a minute, and only where the pinned dictionaries are installed: "
        "`redacto lexicon build --check` judges it",
    ),
    Generated(
        "corpus",
        "the seeded generators of redacto.corpus",
        _outputs("corpus"),
        strays="eval/suites/*",
    ),
    Generated("glyphless-font", "fontTools (glyphless_font.py)", _outputs("glyphless_font")),
    Generated(
        "ppocr-golden",
        "RapidOCR's PP-OCR models on a rendered page",
        _outputs("ppocr_golden"),
        unchecked="ONNX Runtime rounds differently on another CPU; "
        "tests/android/test_ppocr_golden.py recomputes every answer from the stored inputs",
    ),
)
"""Every generated family, in the order they are written."""
