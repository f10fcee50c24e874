"""`redacted.pdf`'s invisible text layer: the kept words, searchable and in place.

Born-digital and scanned pages, A4 and Letter, redacted with a scripted model; the scanned
pages are read by a stand-in OCR that returns the words the "scan" was drawn with, so the
test is about the layer, not OCR. Independent readers check the output: poppler's
`pdftotext` (search, word boxes) and pdfium (copy).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFont

from devtools.fixtures.pdf_builder import Doc, Page, draw_image, text
from redacto.document import Box, Element, ImageReading, Status
from redacto.inputs import PdfInput, Redaction, redact
from redacto.ocr.base import OcrEngine
from redacto.pdf import PDF_DPI, render_page
from redacto.pdf.output import verified_pdf_bytes
from redacto.pdf.read import read_pdf
from redacto.pdf.text_layer import layer_text, layer_words
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

LINES = (
    "Patient: Jane Smith, born 1984",
    "Diagnosis: fracture of the left wrist",
    "SSN 123-45-",
    "6789 on file. Referred by Dr. Alice",
    "Marlowe last week for a cast.",
)
VALUES = ("Jane Smith", "1984", "123-45-6789", "Alice Marlowe")
KEPT_SENTENCE = "Diagnosis: fracture of the left wrist"
REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": ["NAME: Jane Smith\nDATE: 1984\nSSN: 123-45-6789\nNAME: Alice Marlowe"],
    "validate": ["PASS"],
}
OPTIONS = PipelineOptions(rules=False, image_reading=ImageReading.TEXT)
SIZES = {"letter": (612.0, 792.0), "a4": (595.0, 842.0)}
FONT_PT = 14
PX_PER_PT = PDF_DPI / 72


class GoldOcr(OcrEngine):
    """Reads back the words a scan was drawn with (none for a born-digital page)."""

    name = "gold"

    def __init__(self, words: list[Element]) -> None:
        self.words = words

    def read(self, image: Image.Image) -> list[Element]:
        return list(self.words)


def born_digital(path: Path, size: tuple[float, float]) -> tuple[Path, GoldOcr]:
    content = "".join(text(54, size[1] - 60 - 24 * n, line) for n, line in enumerate(LINES))
    return Doc([Page(content, media_box=(0, 0, *size))]).write(path), GoldOcr([])


def scanned(path: Path, size: tuple[float, float]) -> tuple[Path, GoldOcr]:
    """A page image at the reading DPI with `LINES` drawn word by word, and their boxes."""
    pixels = tuple(int(np.ceil(v * PX_PER_PT)) for v in size)
    image = Image.new("RGB", pixels, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(FONT_PT * 1.4 * PX_PER_PT))
    words: list[Element] = []
    for number, line in enumerate(LINES):
        x, y = 54 * PX_PER_PT, (40 + 24 * number) * PX_PER_PT
        for word in line.split():
            x0, y0, x1, y1 = draw.textbbox((x, y), word, font=font)
            draw.text((x, y), word, fill=(0, 0, 0), font=font)
            box = Box(x0=x0 - 2, y0=y0 - 4, x1=x1 + 2, y1=y1 + 4)
            words.append(Element(index=len(words), text=word, box=box))
            x = x1 + font.getlength(" ")
    page = Page(draw_image("Scan", 0, 0, *size), images={"Scan": image}, media_box=(0, 0, *size))
    return Doc([page]).write(path), GoldOcr(words)


def redacted(
    path: Path, ocr: GoldOcr, replies: dict[str, list[str]] = REPLIES
) -> tuple[Redaction, bytes, PdfInput]:
    source = PdfInput(path, read_pdf(path, ocr=ocr))
    redaction = redact(source, trusting(replies), PromptLibrary.load(), options=OPTIONS)
    assert redaction.report.status is Status.PASS, redaction.report.error
    (file,) = redaction.files
    return redaction, file.data, source


def kept_lines(source: PdfInput, redaction: Redaction) -> list[list[Element]]:
    """The report's kept words (elements no detection names), grouped by line as read."""
    detected = {d.index for d in redaction.report.detections}
    lines: list[list[Element]] = []
    for element in source.document.elements:
        if element.index in detected:
            continue
        assert element.box is not None
        new_line = not lines or element.box.y0 > lines[-1][-1].box.y1  # type: ignore[union-attr]
        if new_line:
            lines.append([])
        lines[-1].append(element)
    return lines


def pdftotext(path: Path, *args: str) -> str:
    return subprocess.run(
        ["pdftotext", *args, str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils")
PAGES = [(kind, paper) for kind in ("born-digital", "scanned") for paper in SIZES]


@pytest.fixture(scope="module", params=PAGES, ids=[f"{k}-{p}" for k, p in PAGES])
def page_run(request, tmp_path_factory):
    kind, paper = request.param
    root = tmp_path_factory.mktemp(f"{kind}-{paper}")
    build = born_digital if kind == "born-digital" else scanned
    path, ocr = build(root / "in.pdf", SIZES[paper])
    redaction, data, source = redacted(path, ocr)
    output = root / "redacted.pdf"
    output.write_bytes(data)
    return kind, paper, redaction, output, source


@needs_poppler
def test_a_search_finds_kept_sentences_and_no_redacted_value(page_run):
    _, _, redaction, output, _ = page_run
    found = " ".join(pdftotext(output).split())
    assert KEPT_SENTENCE in found
    assert "Referred by Dr." in found and "last week for a cast." in found
    for value in VALUES:
        for piece in (value, *re.split(r"[ -]", value)):
            if len(piece) > 2:
                assert piece not in found
    assert redaction.report.pdf is not None and redaction.report.pdf.text_layer
    assert redaction.report.pdf.pages[0].text_words == len(found.split())


@needs_poppler
def test_pdftotext_places_each_kept_word_on_its_box(page_run):
    _, _, redaction, output, source = page_run
    boxes = bboxes(output)
    kept = [element for line in kept_lines(source, redaction) for element in line]
    # poppler orders words by its own layout analysis: match each kept word by its text
    assert sorted(word for *_, word in boxes) == sorted(element.text for element in kept)
    found: dict[str, list[list[float]]] = {}
    for *edges, word in boxes:
        found.setdefault(word, []).append([float(v) for v in edges])
    for element in kept:
        assert element.box is not None
        meant = np.array([v / PX_PER_PT for v in element.box.as_list()])
        distances = [np.abs(np.array(edges) - meant).max() for edges in found[element.text]]
        assert min(distances) <= 2.0, element.text
        found[element.text].pop(int(np.argmin(distances)))


@needs_poppler
def test_on_a_born_digital_page_each_word_sits_where_poppler_reads_it_in_the_original(page_run):
    kind, _, _, output, source = page_run
    if kind != "born-digital":
        pytest.skip("a scan has no words of its own to compare with")
    original = {word: edges for *edges, word in bboxes(source.path)}
    for *edges, word in bboxes(output):
        x0, y0, x1, y1 = (float(v) for v in edges)
        ox0, oy0, ox1, oy1 = (float(v) for v in original[word])
        assert abs(x0 - ox0) <= 2 and abs(x1 - ox1) <= 2, word  # each word appears once
        assert y0 <= (oy0 + oy1) / 2 <= y1, word  # the layer's line covers the glyphs'


def bboxes(path: Path) -> list[tuple[str, ...]]:
    """pdftotext's words with their boxes (x0, y0, x1, y1, word), in points from the top."""
    return re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        pdftotext(path, "-bbox"),
    )


def test_pdfium_copies_each_line_as_the_report_keeps_it(page_run):
    _, _, redaction, output, source = page_run
    pdf = pdfium.PdfDocument(str(output))
    try:
        textpage = pdf[0].get_textpage()
        copied = textpage.get_text_range()
        textpage.close()
    finally:
        pdf.close()
    expected = [" ".join(e.text for e in line) for line in kept_lines(source, redaction)]
    assert copied.split("\r\n") == expected


def test_the_invisible_text_changes_no_pixel(page_run):
    _, _, redaction, output, source = page_run
    assert redaction.report.pdf is not None
    boxes = [page.boxes for page in redaction.report.pdf.pages]
    pixels_only = verified_pdf_bytes(source.pages, boxes, [], None)
    with_text, without = pdfium.PdfDocument(str(output)), pdfium.PdfDocument(pixels_only)
    try:
        assert np.array_equal(
            np.asarray(render_page(with_text[0])), np.asarray(render_page(without[0]))
        )
    finally:
        with_text.close()
        without.close()


def test_french_accents_and_a_ligature_copy_back_as_read(tmp_path):
    encoding = "<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [128 /fi] >>"
    lines = ("Le médecin a reçu Jane Smith à l'hôpital", "Bureau de l'of\x80ce, côté élève")
    content = "".join(text(54, 340 - 24 * n, line) for n, line in enumerate(lines))
    path = Doc([Page(content)], font_encoding=encoding).write(tmp_path / "fr.pdf")
    redaction, data, source = redacted(path, GoldOcr([]))
    pdf = pdfium.PdfDocument(data)
    try:
        textpage = pdf[0].get_textpage()
        copied = textpage.get_text_range()
        textpage.close()
    finally:
        pdf.close()
    assert copied.split("\r\n") == [
        "Le médecin a reçu à l'hôpital",
        "Bureau de l'office, côté élève",
    ]
    kept = [" ".join(layer_text(e.text) for e in line) for line in kept_lines(source, redaction)]
    assert copied.split("\r\n") == kept


@pytest.mark.parametrize(
    ("word", "written"),
    [
        ("office", "office"),
        ("o\ufb03ce", "office"),  # ﬃ
        ("\ufb01ve", "five"),
        ("élève", "élève"),
        ("e\u0301le\u0300ve", "e\u0301le\u0300ve"),  # combining accents stay as read
        ("Zoë\u00ad", "Zoë"),  # a soft hyphen is a format character: no reader shows it
        ("a\tb", "a b"),
        ("\x07", ""),
        ("𝔄𝔟", "𝔄𝔟"),  # beyond the BMP
    ],
)
def test_layer_text(word, written):
    assert layer_text(word) == written


def test_a_word_a_black_box_reaches_is_left_out_and_lines_are_marked():
    def word(index, text, x0, x1, y0=100):
        return Element(index=index, text=text, box=Box(x0=x0, y0=y0, x1=x1, y1=y0 + 40))

    kept = [word(0, "Seen", 10, 90), word(1, "by", 100, 140), word(2, "Dr.", 10, 70, y0=150)]
    # a black box over "by"'s second character's centre (x 130) leaves "by" out
    burned = [Box(x0=125, y0=100, x1=200, y1=140)]
    words = layer_words(kept, burned)
    assert [(w.text, w.new_line) for w in words] == [("Seen", True), ("Dr.", True)]
    # one over its last few pixels, short of its last character's centre, leaves it in
    assert [w.text for w in layer_words(kept, [Box(x0=135, y0=100, x1=150, y1=140)])] == [
        "Seen",
        "by",
        "Dr.",
    ]


def test_a_word_read_with_a_space_inside_is_written_as_its_pieces():
    element = Element(index=0, text="New\tYork", box=Box(x0=0, y0=0, x1=80, y1=20))
    words = layer_words([element], [])
    assert [(w.text, w.box.x0, w.box.x1, w.new_line) for w in words] == [
        ("New", 0, 30, True),
        ("York", 40, 80, False),
    ]


def test_a_page_with_right_to_left_text_gets_no_layer():
    # pdfium reorders Hebrew and Arabic as it reads them: such a page's layer could never
    # pass its check, so it has none (and the run is not turned into an ERROR)
    def word(index, text):
        return Element(
            index=index, text=text, box=Box(x0=100 * index, y0=0, x1=100 * index + 80, y1=20)
        )

    assert layer_words([word(0, "Dr."), word(1, "שלום")], []) == []
    assert layer_words([word(0, "Dr."), word(1, "مرحبا")], []) == []
    assert [w.text for w in layer_words([word(0, "Dr."), word(1, "日本語")], [])] == [
        "Dr.",
        "日本語",
    ]


TILTED = (
    "employer 156.9 485.8 272.0 512.9|records. 279.5 489.9 381.9 511.6|"
    "Your 387.6 494.4 444.4 513.7|refund 452.0 495.6 534.0 516.7|"
    "was 541.3 504.3 589.2 518.5|reduced 596.6 500.3 698.1 522.1|"
    "from 704.8 503.9 763.6 524.3|$1,053.98 770.5 506.1 894.4 532.5|"
    "to 901.7 512.4 926.5 529.7|$72.59. 933.6 511.5 1026.4 536.8|"
    "If 1034.0 514.8 1054.9 533.9|you 1059.1 521.5 1104.3 540.4|"
    "agree, 155.7 526.5 233.8 546.5|no 241.5 529.4 272.0 543.0|"
    "action 279.4 524.8 355.6 545.7|is 362.8 527.6 383.8 546.6|"
    "needed. 390.7 528.5 488.3 550.1|The 495.8 531.9 543.0 551.9|"
    "balance 549.6 533.7 646.2 555.3|will 653.0 537.2 697.3 557.0|"
    "be 704.8 538.9 735.4 558.3|deposited 742.2 540.1 863.1 567.3|"
    "to 869.8 546.3 894.6 563.5|account 901.8 547.3 999.3 567.0|"
    "3675117504. 154.7 556.6 317.2 579.4|To 153.6 591.5 183.2 609.9|"
    "dispute, 190.0 591.7 289.6 618.2|call 296.5 595.2 340.7 615.1|"
    "1-833-590-6557 347.7 597.9 542.2 621.8"
)
"""Gold words of a photographed letter (main-financial-test-005): its lines climb to the
right, so the end of one sits as low as the start of the next."""


def test_a_tilted_photo_whose_lines_pdfium_interleaves_still_passes(tmp_path):
    # pdfium reads "you" and "agree," (next line) as one line and orders them by x; the
    # check matches words by text and place, and holds each line's own order
    size = (1246.999 / PX_PER_PT, 1555.999 / PX_PER_PT)  # the photo's 1247 x 1556 px
    image = Image.new("RGB", (1247, 1556), (255, 255, 255))
    page = Page(draw_image("Scan", 0, 0, *size), images={"Scan": image}, media_box=(0, 0, *size))
    path = Doc([page]).write(tmp_path / "tilted.pdf")
    words = []
    for index, entry in enumerate(TILTED.split("|")):
        text, *edges = entry.split()
        x0, y0, x1, y1 = map(float, edges)
        words.append(Element(index=index, text=text, box=Box(x0=x0, y0=y0, x1=x1, y1=y1)))
    account = {"classify": ["CATEGORY: Financial"], "detect": ["ACCOUNT: 3675117504"]}
    replies = {**account, "validate": ["PASS"]}
    redaction, data, _ = redacted(path, GoldOcr(words), replies)  # PASS: verified as written
    assert redaction.report.pdf is not None and redaction.report.pdf.pages[0].text_words == 28
    kept = [word.text for word in words if word.text != "3675117504."]
    pdf = pdfium.PdfDocument(data)
    try:
        textpage = pdf[0].get_textpage()
        copied = textpage.get_text_range().split()
        textpage.close()
    finally:
        pdf.close()
    assert copied != kept  # pdfium's order, not the page's...
    assert sorted(copied) == sorted(kept)  # ...of the same words
