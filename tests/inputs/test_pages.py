"""What each kind says its pages are (`page_pictures`, `page_pdf`, `points_per_pixel`): the
review page shows the pictures, proofreading draws on the PDF at that scale. A photo is
one upright page, as a PDF of A4's length on its long side; a text has no page. (A PDF's
pages: tests/pdf/test_pdf_input.py.)"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from redacto.inputs import ReadOptions, read_input, read_input_bytes

A4_LONG_SIDE_PT = 842


def no_words(tmp_path: Path) -> ReadOptions:
    """An `--elements` file with no word: the photo is read without OCR."""
    listed = tmp_path / "words.json"
    listed.write_text("[]", encoding="utf-8")
    return ReadOptions(elements_path=listed)


def pdf_page_size(data: bytes) -> tuple[float, float]:
    pdf = pdfium.PdfDocument(data)
    try:
        assert len(pdf) == 1
        return pdf[0].get_size()
    finally:
        pdf.close()


@pytest.mark.parametrize("from_bytes", [False, True], ids=["file", "bytes"])
def test_a_photo_is_one_page_and_a_pdf_of_a4s_length(tmp_path, from_bytes):
    path = tmp_path / "photo.png"
    Image.new("RGB", (400, 100), (255, 255, 255)).save(path)
    options = no_words(tmp_path)
    if from_bytes:
        photo = read_input_bytes(path.read_bytes(), Path(path.name), options)
    else:
        photo = read_input(path, options)
    (picture,) = photo.page_pictures()
    assert picture.size == (400, 100)
    assert photo.points_per_pixel() == [pytest.approx(A4_LONG_SIDE_PT / 400)]
    assert pdf_page_size(photo.page_pdf() or b"") == pytest.approx((842, 210.5))


def test_a_turned_photo_is_its_upright_page(tmp_path):
    """EXIF says the photo is shown turned a quarter: its page, its scale and its PDF are
    those of the photo as shown (where OCR's boxes are)."""
    path = tmp_path / "turned.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90° clockwise
    Image.new("RGB", (400, 100), (255, 255, 255)).save(path, exif=exif)
    photo = read_input(path, no_words(tmp_path))
    (picture,) = photo.page_pictures()
    assert picture.size == (100, 400)
    assert photo.points_per_pixel() == [pytest.approx(A4_LONG_SIDE_PT / 400)]
    assert pdf_page_size(photo.page_pdf() or b"") == pytest.approx((210.5, 842))


def test_a_text_has_no_page(tmp_path):
    path = tmp_path / "note.txt"
    path.write_bytes(b"Patient Jane Smith\r\n")
    text = read_input(path)
    assert (text.page_pictures(), text.page_pdf(), text.points_per_pixel()) == ([], None, [])
