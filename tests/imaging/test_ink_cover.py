"""The last look before burning: a box whose edge cuts a glyph is widened over the rest of
its word, whatever the ink's contrast, and never into the next word."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from redacto.document import Box
from redacto.imaging.ink_cover import cover_ink
from redacto.imaging.raster import burn_boxes
from redacto.ocr.synthetic import REGULAR_FONTS, load_font

LINE = "Contact regina.okafor@example.com today"
VALUE = "regina.okafor@example.com"
INKS = {
    "black on white": ((0, 0, 0), "white"),
    "grey 0.8": ((204, 204, 204), "white"),
    "light blue": ((120, 160, 235), "white"),
    "white on dark blue": ((255, 255, 255), (20, 40, 90)),
}


def drawn(ink: tuple[int, int, int], paper: object) -> tuple[Image.Image, dict[str, Box]]:
    """The line drawn word by word, and each word's own glyph box."""
    image = Image.new("RGB", (900, 120), paper)
    draw = ImageDraw.Draw(image)
    font = load_font(REGULAR_FONTS[0], 30)
    x, glyphs = 20.0, {}
    for word in LINE.split():
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).text((x, 40), word, font=font, fill=255)
        x0, y0, x1, y1 = mask.getbbox()
        glyphs[word] = Box(x0=x0, y0=y0 - 2, x1=x1, y1=y1 + 2)
        draw.text((x, 40), word, font=font, fill=ink)
        x += draw.textlength(word + " ", font=font)
    return image, glyphs


def visible_columns(image: Image.Image, box: Box, paper: Image.Image) -> int:
    """Columns of the value's glyph box that still differ from the blank page."""
    x0, y0, x1, y1 = int(box.x0), int(box.y0), int(box.x1), int(box.y1)
    burned = np.asarray(image.convert("L"), dtype=int)[y0:y1, x0:x1]
    blank = np.asarray(paper.convert("L"), dtype=int)[y0:y1, x0:x1]
    black = burned == 0
    return int(((np.abs(burned - blank) > 20) & ~black).any(axis=0).sum())


@pytest.mark.parametrize("case", list(INKS), ids=list(INKS))
@pytest.mark.parametrize("cut", ["left", "right"])
def test_a_box_that_cuts_a_word_is_widened_over_all_of_it_and_no_further(case, cut):
    ink, paper = INKS[case]
    image, glyphs = drawn(ink, paper)
    value = glyphs[VALUE]
    half = (
        Box(x0=value.x0 + 150, y0=value.y0, x1=value.x1, y1=value.y1)
        if cut == "left"
        else Box(x0=value.x0, y0=value.y0, x1=value.x1 - 150, y1=value.y1)
    )
    covered = cover_ink(image, [half])
    assert covered.unresolved == ()
    (box,) = covered.boxes
    assert box.x0 <= value.x0 and box.x1 >= value.x1
    assert box.x1 < glyphs["today"].x0 and box.x0 > glyphs["Contact"].x1  # not the neighbours
    burned = burn_boxes(image, [box])
    assert visible_columns(burned, value, Image.new("RGB", image.size, paper)) == 0
    # Without the widening, the cut part of the address stays readable.
    assert visible_columns(burn_boxes(image, [half]), value, Image.new("RGB", image.size, paper))


def test_a_box_that_cuts_nothing_is_left_as_it_is():
    image, glyphs = drawn((0, 0, 0), "white")
    exact = glyphs[VALUE]
    assert cover_ink(image, [exact]).boxes == (exact,)
    blank = Image.new("RGB", (200, 100), "white")
    box = Box(x0=50, y0=20, x1=150, y1=60)
    assert cover_ink(blank, [box]).boxes == (box,)


def test_a_box_that_begins_in_the_space_before_its_word_keeps_the_word_before():
    # The sample photo's address box starts in the space after "emailed to": "to" stays.
    image, glyphs = drawn((0, 0, 0), "white")
    value = glyphs[VALUE]
    padded = Box(x0=glyphs["Contact"].x1 + 2, y0=value.y0, x1=glyphs["today"].x0 - 2, y1=value.y1)
    assert cover_ink(image, [padded]).boxes == (padded,)


def test_noise_alone_does_not_drag_a_box():
    rng = np.random.default_rng(7)
    noisy = np.clip(235 + rng.normal(0, 8, (120, 900)), 0, 255).astype(np.uint8)
    image = Image.fromarray(noisy).convert("RGB")
    ImageDraw.Draw(image).text((300, 40), "Okafor", font=load_font(REGULAR_FONTS[0], 30), fill=0)
    box = Box(x0=295, y0=35, x1=420, y1=80)
    (widened,) = cover_ink(image, [box]).boxes
    assert widened.x0 >= 280 and widened.x1 <= 440


def test_ink_that_runs_on_past_the_reach_is_unresolved():
    image = Image.new("RGB", (2000, 100), "white")
    ImageDraw.Draw(image).rectangle((100, 40, 1990, 60), fill=(0, 0, 0))  # a bar through the text
    box = Box(x0=100, y0=30, x1=140, y1=70)
    covered = cover_ink(image, [box])
    assert covered.unresolved == (box,)


def test_a_photo_whose_box_cuts_endless_ink_ends_error_with_no_image(tmp_path):
    from typer.testing import CliRunner

    from cli_runs import script
    from redacto.cli import app

    photo = tmp_path / "bar.png"
    image = Image.new("RGB", (1400, 100), "white")
    ImageDraw.Draw(image).rectangle((100, 40, 1390, 60), fill=(0, 0, 0))
    image.save(photo)
    elements = tmp_path / "words.json"
    elements.write_text('[{"text": "Okafor", "box": [100, 30, 140, 70]}]', encoding="utf-8")
    model = script(tmp_path, detect=["0:NAME"], validate=["PASS"])
    out = tmp_path / "out"
    command = ["redact", str(photo), "--elements", str(elements), "--model", model]
    command += ["--out", str(out), "--category", "general", "--detectors", "rules,model"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 1, result.output
    assert "cut ink" in (out / "report.json").read_text(encoding="utf-8")
    assert not (out / "redacted.png").exists()
