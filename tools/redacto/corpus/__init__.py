"""The evaluation corpus: labelled documents, committed suites and their photo renders.

Documents carry gold PII spans (labels from `prompts/labels.yaml`) and gold preserve spans,
both exact by construction. Suites are committed as JSONL under `eval/suites/` with a
checksum manifest; pages are rendered on demand, degraded like phone photos, and cached.

    docs = load_suite("smoke")
    page = render_page(docs[0], RENDER_CACHE_DIR)   # page.image_path, page.words[i].box
"""

from redacto.corpus.generate import generate_suite
from redacto.corpus.hard import hard_suite
from redacto.corpus.render import RENDERER_VERSION, render_page, render_photo
from redacto.corpus.schema import (
    PRESERVE_KINDS,
    CorpusDocument,
    GoldSpan,
    GoldWord,
    Layout,
    PreserveSpan,
    RenderedPage,
    Split,
)
from redacto.corpus.suites import (
    RECIPES,
    RENDER_CACHE_DIR,
    SUITES_DIR,
    TEST_ONLY_SUITES,
    SuiteIntegrityError,
    build_suite,
    load_manifest,
    load_suite,
    refuse_test_only,
    regenerate_suites,
    write_suite,
)

__all__ = [
    "PRESERVE_KINDS",
    "RECIPES",
    "RENDERER_VERSION",
    "RENDER_CACHE_DIR",
    "SUITES_DIR",
    "TEST_ONLY_SUITES",
    "CorpusDocument",
    "GoldSpan",
    "GoldWord",
    "Layout",
    "PreserveSpan",
    "RenderedPage",
    "Split",
    "SuiteIntegrityError",
    "build_suite",
    "generate_suite",
    "hard_suite",
    "load_manifest",
    "load_suite",
    "refuse_test_only",
    "regenerate_suites",
    "render_page",
    "render_photo",
    "write_suite",
]
