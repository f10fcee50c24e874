"""Reading order, scaling and the registry: the engine-independent half of OCR (fast)."""

from __future__ import annotations

import itertools
import math
import sys

import pytest
from PIL import Image

from redacto.document import Box
from redacto.engines import MissingExtraError
from redacto.ocr import OcrError, known_ocr_engines, open_ocr
from redacto.ocr.base import (
    OcrLine,
    OcrWord,
    corners_of_box,
    elements_from_lines,
    grow_to_ink,
    ink_mask,
    order_lines,
    page_skew,
    rescale_line,
    working_copy,
)
from redacto.ocr.ppocr import _apportioned_words
from redacto.ocr.tesseract import line_through


def tilted_line(text: str, x: float, y: float, width: float, degrees: float = 0.0) -> OcrLine:
    """A one-word line whose left end sits at (x, y), tilted like a rotated photo."""
    height = 30.0
    angle = math.radians(degrees)
    dx, dy = width * math.cos(angle), width * math.sin(angle)
    hx, hy = -height * math.sin(angle), height * math.cos(angle)
    corners = ((x, y), (x + dx, y + dy), (x + dx + hx, y + dy + hy), (x + hx, y + hy))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    box = Box(x0=min(xs), y0=min(ys), x1=max(xs), y1=max(ys))
    return OcrLine(words=(OcrWord(text=text, box=box, confidence=1.0),), corners=corners)


def order(lines: list[OcrLine]) -> list[str]:
    return [element.text for element in elements_from_lines(order_lines(lines))]


def test_form_rows_read_label_then_value_left_to_right() -> None:
    lines = [
        tilted_line("value2", 400, 102, 200),
        tilted_line("label1", 50, 50, 200),
        tilted_line("label2", 50, 100, 200),
        tilted_line("value1", 400, 48, 200),
        tilted_line("title", 50, 0, 500),
    ]
    assert order(lines) == ["title", "label1", "value1", "label2", "value2"]


@pytest.mark.parametrize("degrees", [-4.0, -1.5, 1.5, 4.0])
def test_rows_survive_a_tilted_photo(degrees: float) -> None:
    # On a page tilted by a few degrees the right column of one row sits as high as (or
    # lower than) the next row's left column; de-skewing must keep each row together.
    slope = math.tan(math.radians(degrees))
    lines = []
    for row in range(6):
        for column, x in enumerate((50, 1100)):
            y = 100 + row * 45 + x * slope
            lines.append(tilted_line(f"r{row}c{column}", x, y, 600, degrees))
    assert abs(math.degrees(page_skew(lines)) - degrees) < 0.1
    assert order(lines) == [f"r{row}c{column}" for row in range(6) for column in (0, 1)]


def test_a_steep_outlier_does_not_set_the_skew() -> None:
    lines = [tilted_line(f"w{i}", 50, 100 + 50 * i, 600) for i in range(5)]
    lines.append(tilted_line("stamp", 700, 40, 300, 40.0))
    assert page_skew(lines) == 0.0


def test_elements_are_numbered_in_reading_order_on_page_zero() -> None:
    lines = order_lines([tilted_line("b", 50, 100, 100), tilted_line("a", 50, 10, 100)])
    elements = elements_from_lines(lines)
    assert [(e.index, e.text, e.page) for e in elements] == [(0, "a", 0), (1, "b", 0)]


def test_empty_page_has_no_elements() -> None:
    assert elements_from_lines(order_lines([])) == []


def test_working_copy_downscales_large_images_and_boxes_map_back() -> None:
    image = Image.new("RGB", (8660, 5773), "white")
    small, factors = working_copy(image, 2000)
    assert max(small.size) == 2000
    word = OcrWord(text="x", box=Box(x0=100, y0=50, x1=200, y1=80), confidence=1.0)
    line = OcrLine(words=(word,), corners=corners_of_box(word.box))
    back = rescale_line(line, factors, image.size).words[0].box
    assert back.x0 == pytest.approx(100 * 8660 / 2000, rel=1e-3)
    assert back.y1 == pytest.approx(80 * 5773 / small.height, rel=1e-6)


def test_small_images_are_not_copied_needlessly() -> None:
    image = Image.new("RGB", (800, 600))
    small, factors = working_copy(image, 2000)
    assert small is image and factors == (1.0, 1.0)


def test_rescaled_boxes_are_clipped_to_the_original() -> None:
    word = OcrWord(text="x", box=Box(x0=990, y0=0, x1=1000, y1=10), confidence=1.0)
    line = OcrLine(words=(word,), corners=corners_of_box(word.box))
    assert rescale_line(line, (2.0, 2.0), (1999, 30)).words[0].box.x1 == 1999


def test_tesseract_lines_follow_their_words_slope() -> None:
    words = [
        OcrWord(
            text=str(i),
            box=Box(x0=100 * i, y0=10 + 5 * i, x1=100 * i + 80, y1=40 + 5 * i),
            confidence=0.9,
        )
        for i in range(5)
    ]
    line = line_through(list(reversed(words)))
    assert [w.text for w in line.words] == ["0", "1", "2", "3", "4"]
    assert math.tan(line.top_edge_angle()) == pytest.approx(0.05, abs=1e-6)
    assert line.height == pytest.approx(30, abs=0.1)


def test_a_line_without_word_boxes_still_yields_every_word() -> None:
    line = tilted_line("ignored", 100, 50, 300)
    words = _apportioned_words("Jane  Q. Example", 0.9, line, pad=3.0, size=(1000, 500))
    assert [w.text for w in words] == ["Jane", "Q.", "Example"]
    assert words[0].box.x0 == pytest.approx(97)
    assert words[-1].box.x1 == pytest.approx(403)
    assert all(a.box.x0 < b.box.x0 for a, b in itertools.pairwise(words))


def test_registry_names_and_unknown_engine() -> None:
    assert known_ocr_engines() == ["ppocr", "tesseract"]
    with pytest.raises(OcrError, match="unknown OCR engine 'easyocr'; known: ppocr, tesseract"):
        open_ocr("easyocr")


def test_missing_rapidocr_names_the_ocr_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr", None)
    with pytest.raises(MissingExtraError, match=r"install the 'ocr' extra"):
        open_ocr("ppocr")


def test_missing_tesseract_program_names_the_debian_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(OcrError, match="install Debian tesseract-ocr"):
        open_ocr("tesseract")


def page_with_ink(blocks: list[tuple[int, int, int, int]]) -> Image.Image:
    image = Image.new("L", (300, 120), 250)
    for block in blocks:
        image.paste(10, block)
    return image.convert("RGB")


def one_word_line(box: Box, line_height: float = 30.0) -> OcrLine:
    word = OcrWord(text="word", box=box, confidence=1.0)
    corners = (
        (box.x0, box.y0),
        (box.x1, box.y0),
        (box.x1, box.y0 + line_height),
        (box.x0, box.y0 + line_height),
    )
    return OcrLine(words=(word,), corners=corners)


def test_ink_mask_separates_text_from_paper() -> None:
    ink = ink_mask(page_with_ink([(50, 40, 120, 70)]))
    assert ink[50, 60] and not ink[10, 10]
    assert ink.sum() == 70 * 30


def test_boxes_grow_over_ink_that_crosses_their_edge() -> None:
    # Word ink spans x 50..120, y 40..70 plus a descender down to y 76; OCR stopped short.
    ink = ink_mask(page_with_ink([(50, 40, 120, 70), (100, 70, 106, 76)]))
    line = one_word_line(Box(x0=56.5, y0=42, x1=112, y1=66))
    box = grow_to_ink(line, ink).words[0].box
    assert (box.x0, box.y0, box.x1, box.y1) == (50, 40, 120, 76)


def test_growth_is_bounded_and_ignores_ink_it_does_not_touch() -> None:
    # A table rule running far to the right, and a separate blot beyond a gap.
    ink = ink_mask(page_with_ink([(50, 40, 120, 70), (120, 68, 300, 70), (10, 40, 40, 70)]))
    line = one_word_line(Box(x0=50, y0=40, x1=120, y1=70), line_height=30)
    box = grow_to_ink(line, ink).words[0].box
    assert box.x0 == 50  # the blot at x < 40 is separated by a gap of paper
    assert box.x1 == 120 + 15  # the rule drags the edge at most half a line height


def two_word_line(left: Box, right: Box, line_height: float = 30.0) -> OcrLine:
    words = (
        OcrWord(text="to", box=left, confidence=1.0),
        OcrWord(text="jane@example.com", box=right, confidence=1.0),
    )
    corners = (
        (left.x0, left.y0),
        (right.x1, left.y0),
        (right.x1, left.y0 + line_height),
        (left.x0, left.y0 + line_height),
    )
    return OcrLine(words=words, corners=corners)


def test_a_padded_box_never_covers_its_neighbours_ink() -> None:
    # Ink: "to" at x 50..80, a space to x 92, the e-mail 92..200. Both boxes were padded
    # 9 px (0.3 line heights) into the space, so each reaches the other's first letter.
    ink = ink_mask(page_with_ink([(50, 40, 80, 70), (92, 40, 200, 70)]))
    line = two_word_line(Box(x0=41, y0=40, x1=95, y1=70), Box(x0=83, y0=40, x1=209, y1=70))
    left, right = (word.box for word in grow_to_ink(line, ink).words)
    assert left.x1 <= 92 and right.x0 >= 80  # neither box reaches into the other's ink
    assert (left.x0, left.x1) == (41, 86) and (right.x0, right.x1) == (86, 209)


def test_words_whose_ink_touches_are_cut_between_their_boxes() -> None:
    ink = ink_mask(page_with_ink([(50, 40, 200, 70)]))
    line = two_word_line(Box(x0=50, y0=40, x1=110, y1=70), Box(x0=100, y0=40, x1=200, y1=70))
    left, right = (word.box for word in grow_to_ink(line, ink).words)
    assert left.x1 == right.x0 == 105


def two_line_result(word_results: tuple) -> object:
    import numpy as np
    from rapidocr.utils.output import RapidOCROutput

    boxes = np.array(
        [[[10, 10], [210, 10], [210, 40], [10, 40]], [[10, 60], [210, 60], [210, 90], [10, 90]]],
        dtype=np.float32,
    )
    return RapidOCROutput(
        boxes=boxes,
        txts=("Jane Example", "born 1984"),
        scores=(0.9, 0.95),
        word_results=word_results,
    )


def test_ppocr_keeps_lines_whose_word_boxes_rapidocr_dropped() -> None:
    from redacto.ocr.ppocr import PpocrEngine

    engine = PpocrEngine()  # models load on first use; this test never runs them
    second_line_words = (
        ("born", 0.95, [[12, 60], [70, 60], [70, 90], [12, 90]]),
        ("1984", 0.95, [[80, 60], [150, 60], [150, 90], [80, 90]]),
    )
    # RapidOCR left out the first line's (missing) word boxes: word_results is shorter.
    lines = engine._lines(two_line_result((second_line_words,)), (300, 200))
    assert [[w.text for w in line.words] for line in lines] == [
        ["Jane", "Example"],
        ["born", "1984"],
    ]
    assert lines[1].words[0].box.x0 == pytest.approx(12 - 0.3 * 30)


def test_ppocr_refuses_regions_it_could_not_read() -> None:
    import numpy as np
    from rapidocr.ch_ppocr_det.utils import TextDetOutput

    from redacto.ocr.ppocr import PpocrEngine

    boxes = np.array([[[10, 10], [210, 10], [210, 40], [10, 40]]], dtype=np.float32)
    with pytest.raises(OcrError, match="could not recognise"):
        PpocrEngine()._lines(TextDetOutput(boxes=boxes, scores=[0.9]), (300, 200))
