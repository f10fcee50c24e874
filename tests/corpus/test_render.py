"""Rendered pages: deterministic, and every gold word box sits on that word's ink."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from redacto.corpus import (
    CorpusDocument,
    GoldWord,
    RenderedPage,
    load_suite,
    render_page,
    render_photo,
)
from redacto.corpus.photo import PhotoMap
from redacto.corpus.sample import SAMPLE_STEM, SampleGold, sample_document
from redacto.document import Box

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _one_per_layout() -> list[CorpusDocument]:
    chosen: dict[str, CorpusDocument] = {}
    for document in load_suite("smoke") + load_suite("hard"):
        chosen.setdefault(document.layout, document)
    return list(chosen.values())


DOCUMENTS = _one_per_layout()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> list[tuple[CorpusDocument, RenderedPage, np.ndarray]]:
    cache = tmp_path_factory.mktemp("pages")
    rendered = []
    for document in DOCUMENTS:
        page = render_page(document, cache)
        gray = np.asarray(Image.open(page.image_path).convert("L"), dtype=np.float32)
        rendered.append((document, page, gray))
    return rendered


def test_every_layout_is_exercised() -> None:
    assert {d.layout for d in DOCUMENTS} == {"single", "two_column", "form", "table", "letterhead"}


@pytest.mark.slow
def test_words_cover_the_text_exactly(pages) -> None:
    for document, page, _ in pages:
        assert [w.index for w in page.words] == list(range(len(page.words)))
        for word in page.words:
            assert document.text[word.start : word.end] == word.text
        covered = {i for w in page.words for i in range(w.start, w.end)}
        ink_chars = {i for i, c in enumerate(document.text) if not c.isspace()}
        assert covered == ink_chars, document.id
        starts = [w.start for w in page.words]
        assert starts == sorted(starts), "words are in reading order"


def test_boxes_lie_inside_the_image(pages) -> None:
    for document, page, gray in pages:
        assert gray.shape == (page.height, page.width)
        for word in page.words:
            box = word.box
            assert 0 <= box.x0 < box.x1 <= page.width, (document.id, word)
            assert 0 <= box.y0 < box.y1 <= page.height, (document.id, word)


def _dark(gray: np.ndarray, x0: float, y0: float, x1: float, y1: float, paper: float) -> int:
    left, top = max(math.floor(x0), 0), max(math.floor(y0), 0)
    right, bottom = math.ceil(x1), math.ceil(y1)
    if right <= left or bottom <= top:
        return 0
    return int((gray[top:bottom, left:right] < paper - 70).sum())


def _paper(gray: np.ndarray, box: Box) -> float:
    around = gray[int(box.y0) : int(box.y1) + 1, max(int(box.x0) - 30, 0) : int(box.x1) + 30]
    return float(np.percentile(around, 90))


def _stray_ink(gray: np.ndarray, document: CorpusDocument, words: list[GoldWord]) -> list[int]:
    """Per word: dark pixels just outside its box that no box covers.

    Checked between two words of one line (separated by spaces only) and, away from form
    and table rules, in thin bands above and below a short word.
    """
    stray = []
    for word, following in zip(words, [*words[1:], None], strict=True):
        box, paper, count = word.box, _paper(gray, word.box), 0
        if following is not None and set(document.text[word.end : following.start]) == {" "}:
            other = following.box
            if other.x0 > box.x1 and abs(other.y0 + other.y1 - box.y0 - box.y1) < box.height:
                top, bottom = max(box.y0, other.y0) + 2, min(box.y1, other.y1) - 2
                count += _dark(gray, box.x1 + 2, top, other.x0 - 2, bottom, paper)
        if box.width < 120 and document.layout not in ("form", "table"):
            count += _dark(gray, box.x0, box.y0 - 4, box.x1, box.y0 - 1, paper)
            count += _dark(gray, box.x0, box.y1 + 1, box.x1, box.y1 + 4, paper)
        stray.append(count)
    return stray


def test_boxes_hold_the_words_ink(pages) -> None:
    for document, page, gray in pages:
        for word in page.words:
            inside = _dark(gray, *word.box.as_list(), _paper(gray, word.box))
            assert inside >= 0.03 * word.box.area, (document.id, word.text, inside)


def test_boxes_cover_the_words_ink(pages) -> None:
    for document, page, gray in pages:
        words = list(page.words)
        assert max(_stray_ink(gray, document, words)) <= 3, document.id
        # The check can fail: boxes cut short by a fifth of their width leave ink outside.
        cut = [
            w.model_copy(
                update={"box": w.box.model_copy(update={"x1": w.box.x1 - w.box.width / 5})}
            )
            for w in words
        ]
        assert sum(count > 6 for count in _stray_ink(gray, document, cut)) > len(words) / 3


def test_render_is_deterministic_and_cached(tmp_path: Path) -> None:
    document = DOCUMENTS[0]
    jpeg, width, height, words = render_photo(document)
    page = render_page(document, tmp_path)
    assert page.image_path.read_bytes() == jpeg, "same document, byte-identical JPEG"
    assert (page.width, page.height, page.words) == (width, height, words)
    stamp = page.image_path.stat().st_mtime_ns
    assert render_page(document, tmp_path) == page
    assert page.image_path.stat().st_mtime_ns == stamp, "second call must reuse the cache"


@pytest.mark.parametrize("angle", [-2.0, -1.0, 1.5])
def test_photo_map_inverse_undoes_forward(angle: float) -> None:
    photo_map = PhotoMap(angle, 0.9, (500.0, 700.0), (520.0, 690.0))
    a, b, c, d, e, f = photo_map.inverse_coefficients()
    for x, y in ((0.0, 0.0), (1000.0, 20.0), (333.0, 1400.0)):
        u, v = photo_map.forward(x, y)
        assert a * u + b * v + c == pytest.approx(x)
        assert d * u + e * v + f == pytest.approx(y)
    _, y0, _, y1 = photo_map.box((100.0, 100.0, 300.0, 130.0))
    spread = 200 * 0.9 * math.sin(math.radians(abs(angle)))
    assert y1 - y0 == pytest.approx(30 * 0.9 * math.cos(math.radians(angle)) + spread)


def test_bundled_sample_matches_its_gold() -> None:
    gold = SampleGold.model_validate_json((EXAMPLES / f"{SAMPLE_STEM}.json").read_text())
    assert gold.document == sample_document()
    with Image.open(EXAMPLES / gold.image) as image:
        assert image.size == (gold.width, gold.height)
        assert not image.getexif(), "the sample carries no metadata"
    elements = json.loads((EXAMPLES / f"{SAMPLE_STEM}.elements.json").read_text())
    assert [e["text"] for e in elements] == [w.text for w in gold.words]
    assert {gold.document.span_text(s) for s in gold.document.pii} >= {"Lisa", "4471829"}
