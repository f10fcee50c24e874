"""Strips are folded into page-shaped mosaics, so OCR memory is bounded for every accepted
image (unfolded, a 20000×20 PNG grew PP-OCR to ≈ 24 GB), and every word comes back once."""

from __future__ import annotations

from itertools import pairwise

import pytest
from PIL import Image, ImageDraw

from redacto.document import Box
from redacto.imaging.raster import MAX_SIDE
from redacto.ocr.base import OcrLine, OcrWord, corners_of_box, working_copy
from redacto.ocr.fold import fold_strip, is_strip, strip_long_side

SHAPES = [(MAX_SIDE, 20), (20, MAX_SIDE), (MAX_SIDE, 1), (MAX_SIDE, 2400), (1000, 12000)]


@pytest.mark.parametrize("size", SHAPES)
def test_every_accepted_strip_folds_into_a_page_shaped_mosaic(size):
    assert is_strip(size)
    work, _ = working_copy(Image.new("RGB", size, "white"), strip_long_side(size, 2000))
    mosaic, fold = fold_strip(work)
    width, height = mosaic.size
    assert max(width, height) <= 2600  # RapidOCR scales anything past 2000 down itself
    assert max(width, height) <= 2.5 * min(width, height)
    assert fold.starts[0] == 0 and fold.starts[-1] + fold.length == max(work.size)


def test_a_page_photo_is_not_a_strip():
    assert not is_strip((3024, 4032)) and not is_strip((8000, 1000))


def read_segments(strip: list[tuple[str, float, float]], fold) -> list[OcrLine]:
    """What a perfect OCR sees on the mosaic: each word inside a segment, cut at its edges
    (a cut word keeps the letters on its side), as one line per segment."""
    lines = []
    for number, start in enumerate(fold.starts):
        end = start + fold.length
        words = []
        for text, x0, x1 in strip:
            low, high = max(x0, start), min(x1, end)
            if high <= low:
                continue
            share = len(text) * (high - low) / (x1 - x0)
            piece = text[: max(1, round(share))] if x0 >= start else text[-max(1, round(share)) :]
            top = number * fold.pitch
            box = Box(x0=low - start, y0=top, x1=high - start, y1=top + fold.short)
            words.append(OcrWord(text=piece, box=box, confidence=0.9))
        if words:
            hull = Box(x0=0, y0=words[0].box.y0, x1=fold.length, y1=words[0].box.y1)
            lines.append(OcrLine(words=tuple(words), corners=corners_of_box(hull)))
    return lines


def test_unfolding_keeps_every_word_once_and_in_its_place():
    width, height = 6000, 20
    strip = []
    x = 5.0
    number = 0
    while x < width - 200:
        text = f"word{number}"
        strip.append((text, x, x + 55.0))
        x += 55.0 + 9.0
        number += 1
    _, fold = fold_strip(Image.new("RGB", (width, height), "white"))
    words = [word for line in fold.unfold(read_segments(strip, fold)) for word in line.words]
    assert sorted(word.text for word in words) == sorted(text for text, _, _ in strip)
    for word in words:
        text, x0, x1 = next(item for item in strip if item[0] == word.text)
        assert (word.box.x0, word.box.x1) == pytest.approx((x0, x1))
        assert 0 <= word.box.y0 < word.box.y1 <= height


def test_a_word_longer_than_the_overlap_comes_back_in_pieces_not_lost():
    width, height = 6000, 20
    _, fold = fold_strip(Image.new("RGB", (width, height), "white"))
    cut = fold.starts[1] + fold.length  # the first segment's far edge... inside segment 2
    long_word = ("averyveryverylongidentifier" * 4, cut - 300.0, cut + 100.0)
    words = [w for line in fold.unfold(read_segments([long_word], fold)) for w in line.words]
    covered = sorted((w.box.x0, w.box.x1) for w in words)
    assert covered[0][0] == pytest.approx(long_word[1])
    assert covered[-1][1] == pytest.approx(long_word[2])
    assert all(a[1] >= b[0] for a, b in pairwise(covered))  # no gap


@pytest.mark.slow
def test_a_20000_by_20_strip_is_read_through_a_page_sized_detector_input(monkeypatch):
    from redacto.ocr import open_ocr
    from redacto.ocr.synthetic import REGULAR_FONTS, load_font

    image = Image.new("RGB", (MAX_SIDE, 20), "white")
    draw = ImageDraw.Draw(image)
    font = load_font(REGULAR_FONTS[0], 14)
    placed, x = [], 10
    while x < MAX_SIDE - 300:
        text = ["Patient", "Jane", "Smith", "408-555-1234"][len(placed) % 4]
        draw.text((x, 2), text, fill="black", font=font)
        right = int(draw.textbbox((x, 2), text, font=font)[2])
        placed.append((text, x, right))
        x = right + 12
    engine = open_ocr("ppocr")
    seen: list[tuple[int, int]] = []
    real = engine._rapidocr

    def spy(picture, **kwargs):
        seen.append(picture.size)
        return real(picture, **kwargs)

    monkeypatch.setattr(engine, "_rapidocr", spy)
    elements = engine.read(image)
    assert seen and all(w * h <= 2600 * 2600 for w, h in seen)
    found = 0
    for text, x0, x1 in placed:
        found += any(e.text == text and e.box.x0 <= x0 + 3 and e.box.x1 >= x1 - 3 for e in elements)
    assert found >= 0.98 * len(placed)
    assert len(elements) <= len(placed) * 1.02
