"""Words and boxes from a PDF's text layer: grouping, reading order, pages, what is skipped."""

from __future__ import annotations

from pdf_builder import PAGE_H, Doc, Page, draw_image, text
from PIL import Image, ImageDraw, ImageFont

from redacto.pdf import PageSource, read_pdf

SCALE = 200 / 72


def test_words_come_in_reading_order_by_lines_whatever_the_drawing_order(tmp_path):
    # drawn bottom line first, and the right half of the top line before its left half
    source = Doc(
        [Page(text(54, 300, "second line") + text(200, 340, "right") + text(54, 340, "left"))]
    ).write(tmp_path / "in.pdf")
    read = read_pdf(source)
    assert [e.text for e in read.document.elements] == ["left", "right", "second", "line"]
    # The page is OCR'd too, and OCR saw nothing the text layer does not hold.
    assert read.pages[0].source is PageSource.TEXT_LAYER and read.ocr_name is not None


def test_a_word_box_covers_its_glyphs_in_page_pixels(tmp_path):
    source = Doc([Page(text(72, 300, "Jane", size=20))]).write(tmp_path / "in.pdf")
    (jane,) = read_pdf(source).document.elements
    assert jane.box is not None
    assert abs(jane.box.x0 - 72 * SCALE) <= 4  # left edge at x = 72 pt
    baseline = (PAGE_H - 300) * SCALE
    assert jane.box.y0 < baseline - 14 * SCALE < baseline < jane.box.y1  # cap height above


def test_indices_are_global_and_pages_are_set(tmp_path):
    source = Doc([Page(text(54, 340, "one two")), Page(text(54, 340, "three"))]).write(
        tmp_path / "in.pdf"
    )
    elements = read_pdf(source).document.elements
    assert [(e.index, e.page, e.text) for e in elements] == [
        (0, 0, "one"),
        (1, 0, "two"),
        (2, 1, "three"),
    ]


def test_invisible_text_is_not_read_as_words(tmp_path):
    source = Doc([Page(text(54, 340, "shown") + text(54, 300, "hidden layer", mode=3))]).write(
        tmp_path / "in.pdf"
    )
    assert [e.text for e in read_pdf(source).document.elements] == ["shown"]


def test_white_text_is_read_so_the_model_can_find_it(tmp_path):
    source = Doc([Page(text(54, 340, "Whitney", colour="1 1 1"))]).write(tmp_path / "in.pdf")
    assert [e.text for e in read_pdf(source).document.elements] == ["Whitney"]


def picture_of(words: str) -> Image.Image:
    """A picture of printed words, as a pasted scan or a stamp on a born-digital page."""
    image = Image.new("RGB", (1200, 200), (255, 255, 255))
    ImageDraw.Draw(image).text((40, 60), words, fill=(0, 0, 0), font=ImageFont.load_default(64))
    return image


def test_text_inside_an_image_is_read_by_ocr_after_the_text_layer(tmp_path):
    page = Page(
        text(54, 340, "Patient: Jane Smith") + draw_image("Stamp", 54, 200, 300, 50),
        images={"Stamp": picture_of("Seen by Oscar Pemberton")},
    )
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"))
    words = [e.text for e in read.document.elements]
    assert words[:3] == ["Patient:", "Jane", "Smith"]  # the text layer first, exact
    assert "Pemberton" in words[3:] and words.count("Smith") == 1  # no OCR twin of the layer
    assert read.pages[0].source is PageSource.TEXT_LAYER_AND_OCR
