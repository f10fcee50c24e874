"""The check after writing fails closed on every kind of leftover it looks for."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from test_pdf_read import NO_OCR

from devtools.fixtures.pdf_builder import Doc, Page, text
from redacto.document import Box
from redacto.pdf import PdfVerificationError, read_pdf, verify_redacted_pdf, write_redacted_pdf
from redacto.pdf.geometry import PageGeometry
from redacto.pdf.text_layer import LayerWord, layer_words, page_text_operators

NAME_BOX = Box(x0=200, y0=220, x1=540, y1=280)


def rebuilt(tmp_path: Path, boxes: list[list[Box]]) -> tuple[Path, list[PageGeometry]]:
    source = Doc(
        [Page(text(54, 340, "Patient: Jane Smith")), Page(text(54, 340, "Plan: rest"))]
    ).write(tmp_path / "in.pdf")
    pages = [page.geometry for page in read_pdf(source).pages]
    target = tmp_path / "out.pdf"
    write_redacted_pdf(source, boxes, target, pages=pages)
    return target, pages


@pytest.mark.slow
def test_a_rebuilt_pdf_with_its_boxes_burned_passes(tmp_path):
    target, pages = rebuilt(tmp_path, [[NAME_BOX], []])
    verify_redacted_pdf(target, [[NAME_BOX], []], pages=pages, values=["Jane", "Smith"])


@pytest.mark.slow
def test_a_box_that_was_not_burned_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[], []])
    with pytest.raises(PdfVerificationError, match="page 1: box 1 is not black"):
        verify_redacted_pdf(target, [[NAME_BOX], []], pages=pages, values=[])


@pytest.mark.slow
def test_a_pdf_with_a_text_layer_and_metadata_fails(tmp_path):
    source = Doc([Page(text(54, 340, "Patient: Jane Smith"))], info_author="Jane Smith").write(
        tmp_path / "in.pdf"
    )
    pages = [page.geometry for page in read_pdf(source).pages]
    with pytest.raises(PdfVerificationError, match="holds strings"):
        verify_redacted_pdf(source, [[]], pages=pages, values=["Jane Smith"])


@pytest.mark.slow
def test_a_page_count_that_differs_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[NAME_BOX], []])
    with pytest.raises(PdfVerificationError, match="2 pages, not 3"):
        verify_redacted_pdf(target, [[], [], []], pages=[*pages, pages[0]], values=[])


@pytest.mark.slow
def test_a_long_value_in_the_pixel_streams_fails(tmp_path):
    target, pages = rebuilt(tmp_path, [[], []])
    drawing = re.search(rb"q [^\n]* cm /Im0 Do Q", target.read_bytes())  # a content stream
    assert drawing is not None
    with pytest.raises(PdfVerificationError, match="a redacted value occurs"):
        verify_redacted_pdf(target, [[], []], pages=pages, values=[drawing.group().decode()])


def test_a_file_that_is_not_a_pdf_fails(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_bytes(b"not a pdf")
    with pytest.raises(PdfVerificationError, match="cannot be opened"):
        verify_redacted_pdf(target, [[]], pages=[PageGeometry(1, 1)], values=[])


# The text layer: the check reads the output's text back with pdfium.

LINES = ["Patient: Jane Smith", "SSN 123-45-", "6789 Alice", "Marlowe, Smith Ltd"]


def layered(
    tmp_path: Path, burned: list[Box], written: list[LayerWord]
) -> tuple[Path, list[PageGeometry]]:
    """`LINES` redacted with `burned` black and `written` as the text layer."""
    content = "".join(text(54, 340 - 24 * n, line) for n, line in enumerate(LINES))
    source = Doc([Page(content)]).write(tmp_path / "in.pdf")
    pages = [page.geometry for page in read_pdf(source, ocr=NO_OCR).pages]
    target = tmp_path / "out.pdf"
    write_redacted_pdf(source, [burned], target, pages=pages, words_by_page=[written])
    return target, pages


def words_of(tmp_path: Path) -> dict[str, LayerWord]:
    """Every word of `LINES` as the reader boxes it, as a text layer would hold it."""
    source = Doc(
        [Page("".join(text(54, 340 - 24 * n, line) for n, line in enumerate(LINES)))]
    ).write(tmp_path / "words.pdf")
    elements = read_pdf(source, ocr=NO_OCR).document.elements
    return {w.text: w for w in layer_words(elements, [])}


def test_a_text_layer_of_the_kept_words_passes(tmp_path):
    words = words_of(tmp_path)
    kept = [words[w] for w in ("Patient:", "SSN", "Smith")]
    jane = words["Jane"].box
    target, pages = layered(tmp_path, [jane], kept)
    verify_redacted_pdf(target, [[jane]], pages=pages, values=["Jane"], words_by_page=[kept])


def test_a_redacted_word_in_the_text_layer_at_its_place_fails(tmp_path):
    words = words_of(tmp_path)
    jane = words["Jane"]
    target, pages = layered(tmp_path, [jane.box], [words["Patient:"], jane])
    with pytest.raises(PdfVerificationError, match=r"can be extracted|on a black box"):
        verify_redacted_pdf(
            target, [[jane.box]], pages=pages, values=["Jane"], words_by_page=[[jane]]
        )


@pytest.mark.parametrize(
    ("value", "leaked"),
    [
        ("123-45-6789", ["123-45-", "6789"]),  # an SSN split across lines, both halves
        ("123-45-6789", ["6789"]),  # or one of them
        ("Alice Marlowe,", ["Alice", "Marlowe,"]),  # a name across a line break
        ("Alice Marlowe,", ["Marlowe,"]),
    ],
)
def test_a_redacted_value_or_a_piece_of_one_in_the_text_fails(tmp_path, value, leaked):
    words = words_of(tmp_path)
    kept = [words["SSN"]]
    target, pages = layered(tmp_path, [], kept + [words[w] for w in leaked])
    with pytest.raises(PdfVerificationError, match="a redacted value can be extracted"):
        verify_redacted_pdf(target, [[]], pages=pages, values=redacted(value), words_by_page=[kept])


def redacted(value: str) -> list[str]:
    """The values a run checks for (`output.redacted_values`): each word the detection
    covers, as read, and the detection's own value."""
    return [value, *{"123-45-6789": ["123-45-", "6789"]}.get(value, value.split())]


def test_a_piece_of_a_value_the_page_also_keeps_in_the_clear_is_no_leak(tmp_path):
    # "Jane Smith" is redacted on line 1; "Smith Ltd", a company, is kept on line 4
    words = words_of(tmp_path)
    burned = [words["Jane"].box]
    kept = [words["Patient:"], words["Smith"], words["Ltd"]]
    target, pages = layered(tmp_path, burned, kept)
    verify_redacted_pdf(target, [burned], pages=pages, values=["Jane Smith"], words_by_page=[kept])


def test_other_words_or_a_word_elsewhere_fails(tmp_path):
    words = words_of(tmp_path)
    kept = [words["Patient:"], words["SSN"]]
    target, pages = layered(tmp_path, [], kept)
    with pytest.raises(PdfVerificationError, match="holds other words than the 1 kept"):
        verify_redacted_pdf(target, [[]], pages=pages, values=[], words_by_page=[kept[:1]])
    moved = [kept[0], replace(kept[1], box=words["Marlowe,"].box)]
    with pytest.raises(PdfVerificationError, match="word 2 of its text layer is outside"):
        verify_redacted_pdf(target, [[]], pages=pages, values=[], words_by_page=[moved])


def test_text_that_is_not_invisible_fails(tmp_path, monkeypatch):
    from redacto.pdf import write

    def visible(*args):
        return page_text_operators(*args).replace(b"3 Tr", b"0 Tr")

    monkeypatch.setattr(write, "page_text_operators", visible)
    kept = [words_of(tmp_path)["Patient:"]]
    target, pages = layered(tmp_path, [], kept)
    with pytest.raises(PdfVerificationError, match="text that is not invisible"):
        verify_redacted_pdf(target, [[]], pages=pages, values=[], words_by_page=[kept])


def test_a_text_layer_where_none_was_asked_for_fails(tmp_path):
    kept = [words_of(tmp_path)["Patient:"]]
    target, pages = layered(tmp_path, [], kept)
    # its font's character collection is the first string the structure may not hold
    with pytest.raises(PdfVerificationError, match="structure holds strings"):
        verify_redacted_pdf(target, [[]], pages=pages, values=[])


def test_words_that_run_together_in_the_text_fail(tmp_path, monkeypatch):
    from redacto.pdf import text_layer

    # two words whose boxes touch, and no space drawn between them
    monkeypatch.setattr(text_layer, "_space", lambda left, right, following, narrowest: (right, 0))
    kept = [
        LayerWord("ab", Box(x0=200, y0=200, x1=260, y1=240), new_line=True),
        LayerWord("cd", Box(x0=260, y0=200, x1=320, y1=240), new_line=False),
    ]
    target, pages = layered(tmp_path, [], kept)
    with pytest.raises(PdfVerificationError, match="word 2 of its text layer runs into"):
        verify_redacted_pdf(target, [[]], pages=pages, values=[], words_by_page=[kept])
