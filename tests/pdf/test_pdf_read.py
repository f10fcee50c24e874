"""Words and boxes from a PDF's text layer: grouping, reading order, pages, what is skipped."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from devtools.fixtures.pdf_builder import PAGE_H, Doc, Page, draw_image, text
from redacto.document import Element
from redacto.ocr import OcrEngine
from redacto.pdf import PageSource, read_pdf

SCALE = 200 / 72


class _NoOcr(OcrEngine):
    """OCR that sees nothing, so a test sees the text layer's words alone."""

    name = "none"

    def read(self, image: Image.Image) -> list[Element]:
        return []


NO_OCR = _NoOcr()


@pytest.mark.slow
def test_words_come_in_reading_order_by_lines_whatever_the_drawing_order(tmp_path):
    # drawn bottom line first, and the right half of the top line before its left half
    source = Doc(
        [Page(text(54, 300, "second line") + text(200, 340, "right") + text(54, 340, "left"))]
    ).write(tmp_path / "in.pdf")
    read = read_pdf(source)
    assert [e.text for e in read.document.elements] == ["left", "right", "second", "line"]
    # The page is OCR'd too, and OCR saw nothing the text layer does not hold.
    assert read.pages[0].source is PageSource.TEXT_LAYER and read.ocr_name is not None


@pytest.mark.slow
def test_a_word_box_covers_its_glyphs_in_page_pixels(tmp_path):
    source = Doc([Page(text(72, 300, "Jane", size=20))]).write(tmp_path / "in.pdf")
    (jane,) = read_pdf(source).document.elements
    assert jane.box is not None
    assert abs(jane.box.x0 - 72 * SCALE) <= 4  # left edge at x = 72 pt
    baseline = (PAGE_H - 300) * SCALE
    assert jane.box.y0 < baseline - 14 * SCALE < baseline < jane.box.y1  # cap height above


@pytest.mark.slow
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


GREY = Image.new("RGB", (40, 10), (200, 200, 200))

HIDDEN_TRAPS = [
    ("invisible (render mode 3)", text(54, 300, "hidden layer", mode=3), {}),
    ("white on white", text(54, 300, "hidden layer", colour="1 1 1"), {}),
    ("near-white on white", text(54, 300, "hidden layer", colour="0.95 0.95 0.95"), {}),
    (
        "under an image",
        text(54, 300, "hidden layer") + draw_image("Cover", 40, 290, 300, 30),
        {"Cover": GREY},
    ),
    ("under a black rectangle", text(54, 300, "hidden layer") + "0 g 40 290 300 30 re f\n", {}),
    ("clipped away", "q 0 0 10 10 re W n " + text(54, 300, "hidden layer") + "Q\n", {}),
    ("off the page", text(700, 300, "hidden layer"), {}),
]


@pytest.mark.parametrize(
    ("trap", "content", "images"), HIDDEN_TRAPS, ids=[t[0] for t in HIDDEN_TRAPS]
)
def test_a_word_the_page_does_not_show_is_not_read_and_is_counted(tmp_path, trap, content, images):
    page = Page(text(54, 340, "shown words") + content, images=images)
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"), ocr=NO_OCR)
    assert [e.text for e in read.document.elements] == ["shown", "words"]
    assert read.pages[0].hidden == (0 if trap == "off the page" else 2)


@pytest.mark.parametrize("colour", ["0 0 0", "0.5 0.5 0.5", "0 0 1", "1 0 0"])
def test_dark_or_coloured_text_shows_and_is_read(tmp_path, colour):
    page = Page(text(54, 340, "Patient: Jane Smith", colour=colour, size=8))
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"), ocr=NO_OCR)
    assert [e.text for e in read.document.elements] == ["Patient:", "Jane", "Smith"]
    assert read.pages[0].hidden == 0


def test_text_over_an_image_shows_and_the_same_word_under_it_does_not(tmp_path):
    page = Page(
        text(54, 300, "under")
        + draw_image("Cover", 40, 290, 300, 30)
        + text(54, 300, "over", colour="0 0 0"),
        images={"Cover": GREY},
    )
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"), ocr=NO_OCR)
    assert [e.text for e in read.document.elements] == ["over"]
    assert read.pages[0].hidden == 1


def test_a_scan_over_its_own_text_layer_is_read_by_ocr_only(tmp_path):
    # The layer is drawn in the normal mode, then the scan image over it: not mode 3, yet
    # not shown, so the page reads as a scan.
    page = Page(
        text(54, 300, "Patient Jone Smyth") + draw_image("Scan", 0, 0, 612, 396),
        images={"Scan": picture_of("Patient Jane Smith")},
    )
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"), ocr=NO_OCR)
    assert read.pages[0].source is PageSource.OCR and read.pages[0].hidden == 3
    assert read.document.elements == ()


def picture_of(words: str) -> Image.Image:
    """A picture of printed words, as a pasted scan or a stamp on a born-digital page."""
    image = Image.new("RGB", (1200, 200), (255, 255, 255))
    ImageDraw.Draw(image).text((40, 60), words, fill=(0, 0, 0), font=ImageFont.load_default(64))
    return image


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_shown_word_misjudged_hidden_is_still_read_by_ocr(tmp_path, monkeypatch):
    # Fail-safe direction of the ink test: a word left out of the layer is no longer
    # covered by it, so the page's OCR pass reads it off the pixels.
    monkeypatch.setattr("redacto.pdf.read.shows", lambda *_: False)
    page = Page(text(54, 340, "Patient: Jane Smith"))
    read = read_pdf(Doc([page]).write(tmp_path / "in.pdf"))
    assert [e.text for e in read.document.elements] == ["Patient:", "Jane", "Smith"]
    assert read.pages[0].source is PageSource.OCR and read.pages[0].hidden == 3
