"""Both OCR engines, for real, on rendered pages whose every word's ink box is known.

A clean page (exact ink boxes) checks that each word is found and that its box covers
all of its ink — a clipped first letter would be a readable leak after redaction. A
phone-like photo (page framed on a desk, tilted 1.2°, blurred, noisy, 3024 px wide, so
it is downscaled for OCR and mapped back) checks recall and reading order.
"""

from __future__ import annotations

import pytest
from PIL import Image

from redacto.ocr import OcrEngine, open_ocr
from redacto.ocr.synthetic import (
    RenderedPage,
    degrade_like_photo,
    normalize_word,
    render_form_page,
    score_ocr,
)

pytestmark = pytest.mark.slow

ENGINES = ["ppocr", "tesseract"]


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> OcrEngine:
    return open_ocr(request.param)


@pytest.fixture(scope="module")
def clean_page() -> RenderedPage:
    return render_form_page(seed=11, font_set=1)


@pytest.fixture(scope="module")
def photo_page() -> RenderedPage:
    return degrade_like_photo(render_form_page(seed=12, width=3024), seed=12, frame=0.75)


def test_engine_name_says_engine_and_version(engine: OcrEngine) -> None:
    assert engine.name.split(" ")[0] in ENGINES
    assert any(character.isdigit() for character in engine.name)


def test_clean_page_words_found_with_boxes_covering_their_ink(
    engine: OcrEngine, clean_page: RenderedPage
) -> None:
    elements = engine.read(clean_page.image)

    assert [element.index for element in elements] == list(range(len(elements)))
    assert all(element.page == 0 and element.box is not None for element in elements)
    width, height = clean_page.image.size
    assert all(
        0 <= e.box.x0 <= e.box.x1 <= width and 0 <= e.box.y0 <= e.box.y1 <= height
        for e in elements
        if e.box is not None
    )
    score = score_ocr(clean_page.words, elements)
    assert score.recall >= 0.95, score
    assert score.min_coverage >= 0.99, score
    assert score.order_violations == 0, score


def test_phone_photo_words_found_in_reading_order(
    engine: OcrEngine, photo_page: RenderedPage
) -> None:
    elements = engine.read(photo_page.image)

    score = score_ocr(photo_page.words, elements)
    assert score.recall >= 0.95, score
    assert score.order_violations == 0, score
    # The form's label/value rows stay together: "Patient name: <first> <last>".
    texts = [normalize_word(element.text) for element in elements]
    truth = [normalize_word(word.text) for word in photo_page.words]
    assert truth[8:12] == ["patient", "name", *truth[10:12]]
    start = texts.index("name") - 1
    assert texts[start : start + 4] == truth[8:12]


def test_a_blank_page_has_no_words(engine: OcrEngine) -> None:
    assert engine.read(Image.new("RGB", (400, 300), "white")) == []
    assert engine.read(Image.new("L", (1, 1), 255)) == []
