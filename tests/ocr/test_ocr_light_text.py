"""Light and coloured text: every word box OCR gives covers that word's own glyphs, so a
burned box leaves no letter of a redacted value readable beside it (PP-OCR's boxes on grey
0.8 text drifted by a whole word: "regina" stayed readable next to the e-mail's box)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image, ImageDraw

from redacto.document import Box
from redacto.ocr import open_ocr
from redacto.ocr.synthetic import REGULAR_FONTS, load_font

pytestmark = pytest.mark.slow

LINES = (
    "Referral note, Lakeshore clinic",
    "Contact Regina Okafor at regina.okafor@example.com",
    "SSN 078-05-1120 on file",
)
INKS = {
    "black": (0, 0, 0),
    "grey 0.66": (168, 168, 168),
    "grey 0.8": (204, 204, 204),
    "light blue": (120, 160, 235),
}


@dataclass(frozen=True)
class DrawnWord:
    text: str
    glyphs: Box
    """The bounding box of the word's own ink on the page."""


def page(ink: tuple[int, int, int]) -> tuple[Image.Image, list[DrawnWord]]:
    """A page whose heading is black and whose next two lines are in `ink` (a form's pale
    field text under its printed labels), drawn word by word so each word's glyphs are
    known."""
    image = Image.new("RGB", (1240, 600), "white")
    draw = ImageDraw.Draw(image)
    font = load_font(REGULAR_FONTS[0], 30)
    space = draw.textlength(" ", font=font)
    drawn = []
    for row, line in enumerate(LINES):
        x, y = 60.0, 60.0 + row * 80
        for word in line.split():
            mask = Image.new("L", image.size, 0)
            ImageDraw.Draw(mask).text((x, y), word, font=font, fill=255)
            x0, y0, x1, y1 = mask.getbbox() or (0, 0, 0, 0)
            draw.text((x, y), word, font=font, fill=ink if row else (0, 0, 0))
            drawn.append(DrawnWord(word, Box(x0=x0, y0=y0, x1=x1, y1=y1)))
            x += draw.textlength(word, font=font) + space
    return image, drawn


def covers(box: Box, glyphs: Box) -> bool:
    return (
        box.x0 <= glyphs.x0 + 1
        and box.x1 >= glyphs.x1 - 1
        and box.y0 <= glyphs.y0 + 1
        and box.y1 >= glyphs.y1 - 1
    )


@pytest.mark.parametrize("ink", list(INKS), ids=list(INKS))
@pytest.mark.parametrize("engine", ["ppocr", "tesseract"])
def test_each_word_read_is_boxed_over_all_its_glyphs(engine: str, ink: str):
    image, drawn = page(INKS[ink])
    words = open_ocr(engine).read(image)
    by_text = {word.text: word for word in drawn}
    checked = [(element, by_text[element.text]) for element in words if element.text in by_text]
    if engine == "ppocr":  # it reads all of these; a test that checked nothing would pass
        assert len(checked) >= len(drawn) - 2, [element.text for element in words]
    short = [
        (element.text, element.box, word.glyphs)
        for element, word in checked
        if not covers(element.box, word.glyphs)
    ]
    assert short == []


def test_the_values_of_a_grey_line_leave_no_glyph_pixel_after_burning():
    from redacto.imaging.raster import burn_boxes

    image, drawn = page(INKS["grey 0.8"])
    words = open_ocr("ppocr").read(image)
    values = {"Regina", "Okafor", "regina.okafor@example.com", "078-05-1120"}
    burned = np.asarray(burn_boxes(image, [w.box for w in words if w.text in values]).convert("L"))
    original = np.asarray(image.convert("L"))
    for word in drawn:
        if word.text in values:
            g = word.glyphs
            region = (slice(int(g.y0), int(g.y1)), slice(int(g.x0), int(g.x1)))
            glyph_pixels = original[region] < 230  # the letters, not their faint anti-aliasing
            assert glyph_pixels.any()
            assert int(burned[region][glyph_pixels].max()) < 40, word.text
