"""Writing a redacted PDF from pixels and the kept words alone, and checking it after writing.

`write_redacted_pdf` renders each page of the original at the reading DPI, burns that
page's boxes in black (`imaging.burn_boxes`, the photo path's own code) and writes a new
PDF whose pages are those images and nothing else: one lossless (Flate) RGB image per page,
a content stream that draws it, a catalog and a page tree — and, unless the caller wants
pixels only, an invisible text layer of the words each page keeps (`redacto.pdf.text_layer`)
with the one font it needs. No text, fonts, vector paths, metadata, annotations, form
fields, attachments, JavaScript, outline or earlier revisions of the original can reach the
output, because nothing of the original's structure is copied. The file is written whole,
page by page (one page's pixels in memory at a time).

`verify_redacted_pdf` reopens the written file with pdfium and fails closed
(`PdfVerificationError`, whose message names pages and boxes, never values) unless: the page
count matches, every page is upright, the original's size in points and renders at its
pixels, each page's text is exactly its kept words (in order, each inside its box, drawn
invisibly, none on a black box: `redacto.pdf.text_check`) — or none at all without a text
layer —, no redacted value or piece of one can be extracted, no page has an annotation,
the document has no metadata, attachments, form or outline, the file's structure holds no
string (but the font's character collection) and names none of the keys that carry them,
no redacted value's bytes occur in its streams, and each box renders black.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from redacto.document import Box
from redacto.imaging.ink_cover import cover_ink
from redacto.imaging.raster import burn_boxes, pixel_bounds
from redacto.pdf.geometry import PageGeometry, pdf_number
from redacto.pdf.pieces import HiddenValue, burned_piece_problem
from redacto.pdf.read import load_page, open_pdf, render_page
from redacto.pdf.text_check import (
    ReadWord,
    invisible_problem,
    layer_problem,
    read_layer,
    value_problem,
)
from redacto.pdf.text_layer import (
    CID_SYSTEM_INFO,
    FONT_RESOURCE,
    CharacterCodes,
    LayerWord,
    font_objects,
    page_text_operators,
)

if TYPE_CHECKING:
    from redacto.ocr import OcrEngine

_BLACK_LIMIT = 24  # a rendered box pixel may be this light at most (0 = pure black)
_MIN_VALUE_BYTES = 6  # shorter values could occur by chance in compressed pixel data
_FORBIDDEN_KEYS = (
    b"/Info",
    b"/Metadata",
    b"/Annots",
    b"/AcroForm",
    b"/Names",
    b"/EmbeddedFiles",
    b"/JavaScript",
    b"/JS",
    b"/OpenAction",
    b"/AA",
    b"/Outlines",
    b"/Prev",
    b"/Font",
)
_FONT_KEY = b"/Font"  # allowed where a text layer was written: its one font
_STREAM = re.compile(rb"/Length (\d+) >>\nstream\n")


class PdfVerificationError(RuntimeError):
    """The written PDF failed a check; the run must end ERROR with no PDF claimed."""


def write_redacted_pdf(
    source: Path | bytes,
    boxes_by_page: Sequence[Sequence[Box]],
    target: Path | BinaryIO,
    *,
    pages: Sequence[PageGeometry],
    words_by_page: Sequence[Sequence[LayerWord]] | None = None,
) -> None:
    """Render `source`'s pages (a file, or the PDF's bytes), burn each page's boxes, write
    the images as a new PDF to `target` (a file, or an open binary stream such as
    `io.BytesIO`: the same bytes).

    `pages` are the pages' geometries as `read_pdf` measured them, the space the boxes are
    in; each output page is the same size in points, and renders back at the same pixels.
    A page whose geometry or rendering differs now is refused rather than burned in the
    wrong place. `words_by_page` (`text_layer.layer_words`), when given, is each page's
    invisible text layer; None writes pixels only.
    """
    pdf = open_pdf(source)
    try:
        if len(pdf) != len(boxes_by_page) or len(pdf) != len(pages):
            raise PdfVerificationError("the PDF's page count changed since it was read")
        if words_by_page is not None and len(words_by_page) != len(pages):
            raise PdfVerificationError("the text layer's page count differs from the PDF's")
        with _opened(target) as handle:
            writer = _ImagePdfWriter(handle, text_layer=words_by_page is not None)
            for number, geometry in enumerate(pages):
                page = load_page(pdf, _named(source), number)
                try:
                    if PageGeometry.of_page(page, geometry.dpi) != geometry:
                        raise PdfVerificationError(
                            f"page {number + 1} has another size or rotation than when read"
                        )
                    image = render_page(page, geometry.dpi)
                finally:
                    page.close()
                if image.size != geometry.pixels:
                    raise PdfVerificationError(f"page {number + 1} renders at another size")
                covered = cover_ink(image, list(boxes_by_page[number]))
                if covered.unresolved:
                    raise PdfVerificationError(
                        f"page {number + 1}: {len(covered.unresolved)} box(es) cut ink that "
                        "runs on past where a word could end; nothing was burned"
                    )
                burned = burn_boxes(image, list(covered.boxes)).tobytes()
                words = words_by_page[number] if words_by_page is not None else ()
                writer.add_page(burned, geometry, words)
            writer.finish()
    finally:
        pdf.close()


def _named(source: Path | bytes) -> Path:
    """What a message calls the PDF: its file, never its bytes."""
    return source if isinstance(source, Path) else Path("(the PDF in memory)")


@contextmanager
def _opened(target: Path | BinaryIO) -> Iterator[BinaryIO]:
    """A path opened for writing (and closed after), or a stream as it is (left open)."""
    if isinstance(target, Path):
        with target.open("wb") as handle:
            yield handle
    else:
        yield target


class _ImagePdfWriter:
    """A PDF of full-page RGB images, with an invisible text layer over each when asked,
    written object by object as pages arrive."""

    def __init__(self, handle: BinaryIO, *, text_layer: bool = False) -> None:
        self.handle = handle
        self.offsets: dict[int, int] = {}
        self.pages: list[int] = []
        # 1: catalog, 2: page tree, 3: the text layer's font (written last, once the pages
        # and the characters they use are known)
        self.font_id = 3 if text_layer else None
        self.codes = CharacterCodes()
        self.next_id = 4 if text_layer else 3
        handle.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def _object(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[number] = self.handle.tell()
        self.handle.write(f"{number} 0 obj\n".encode() + body)
        if stream is not None:
            self.handle.write(b"\nstream\n" + stream + b"\nendstream")
        self.handle.write(b"\nendobj\n")

    def add_page(self, rgb: bytes, geometry: PageGeometry, words: Sequence[LayerWord] = ()) -> None:
        """One page of `geometry`'s size in points, showing the `rgb` pixels of its rendering
        and holding `words` as invisible text."""
        width, height = geometry.pixels
        image_id, content_id, page_id = self.next_id, self.next_id + 1, self.next_id + 2
        self.next_id += 3
        pixels = zlib.compress(rgb, 6)
        self._object(
            image_id,
            (
                f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
                f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                f"/Length {len(pixels)} >>"
            ).encode(),
            pixels,
        )
        # The page is the original's size in points and the image fills it: pdfium renders
        # a page's width and height onto whole pixels (A4's 595 pt onto 1653 px at 200 dpi,
        # not 1652.8), as it rendered the original, so each image pixel lands on its own.
        page_w, page_h = pdf_number(geometry.width), pdf_number(geometry.height)
        draw = f"q {page_w} 0 0 {page_h} 0 0 cm /Im0 Do Q".encode()
        fonts = ""
        if self.font_id is not None:
            draw = zlib.compress(draw + b"\n" + page_text_operators(words, geometry, self.codes))
            self._object(
                content_id, f"<< /Filter /FlateDecode /Length {len(draw)} >>".encode(), draw
            )
            fonts = f" /Font << /{FONT_RESOURCE} {self.font_id} 0 R >>"
        else:
            self._object(content_id, f"<< /Length {len(draw)} >>".encode(), draw)
        self._object(
            page_id,
            (
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w} {page_h}] "
                f"/Resources << /XObject << /Im0 {image_id} 0 R >>{fonts} >> "
                f"/Contents {content_id} 0 R >>"
            ).encode(),
        )
        self.pages.append(page_id)

    def finish(self) -> None:
        if self.font_id is not None:
            for number, body, stream in font_objects(self.codes, self.font_id, self.next_id):
                self._object(number, body, stream)
                self.next_id = max(self.next_id, number + 1)
        kids = " ".join(f"{page} 0 R" for page in self.pages)
        self._object(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        self._object(2, f"<< /Type /Pages /Kids [{kids}] /Count {len(self.pages)} >>".encode())
        start = self.handle.tell()
        lines = [f"xref\n0 {self.next_id}\n", "0000000000 65535 f \n"]
        lines += [f"{self.offsets[number]:010d} 00000 n \n" for number in range(1, self.next_id)]
        self.handle.write("".join(lines).encode())
        self.handle.write(
            f"trailer\n<< /Size {self.next_id} /Root 1 0 R >>\nstartxref\n{start}\n%%EOF\n".encode()
        )


def verify_redacted_pdf(
    output: Path | bytes,
    boxes_by_page: Sequence[Sequence[Box]],
    *,
    pages: Sequence[PageGeometry],
    values: Sequence[str],
    words_by_page: Sequence[Sequence[LayerWord]] | None = None,
    hidden: Sequence[Sequence[HiddenValue]] | None = None,
    ocr: OcrEngine | None = None,
) -> None:
    """Reopen the written PDF (a file, or its bytes in memory) and check it holds pixels,
    with every box black, and as text exactly `words_by_page` (None: no text at all).

    Each page must be the size in points of the original's page as read (`pages`), upright,
    and render at its pixels. With `hidden` (each page's boxes and the values they hide)
    and an `ocr` engine, each rendered page is also read by OCR beside its boxes, and no
    piece of a hidden value may be read there (`redacto.pdf.pieces`). Raises
    `PdfVerificationError` on the first failed check (the message names the check and page,
    never a value).
    """
    import pypdfium2.raw as pdfium_c

    data = output.read_bytes() if isinstance(output, Path) else output
    path = output if isinstance(output, Path) else Path("(the output)")
    if words_by_page is not None and len(words_by_page) != len(pages):
        raise PdfVerificationError("the text layer's page count differs from the PDF's")
    _check_bytes(data, values, text_layer=words_by_page is not None)
    layers: list[tuple[list[ReadWord], Sequence[Box]]] = []
    try:
        pdf = open_pdf(data)
    except ValueError as error:
        raise PdfVerificationError("the output cannot be opened as a PDF") from error
    try:
        if len(pdf) != len(pages):
            raise PdfVerificationError(f"the output has {len(pdf)} pages, not {len(pages)}")
        if any(pdf.get_metadata_dict(skip_empty=True).values()):
            raise PdfVerificationError("the output has document metadata")
        if pdf.count_attachments() or pdf.get_formtype() or any(True for _ in pdf.get_toc()):
            raise PdfVerificationError("the output has attachments, a form or an outline")
        for number, expected in enumerate(pages):
            try:
                page = load_page(pdf, path, number)
            except ValueError as error:
                raise PdfVerificationError(
                    f"page {number + 1} of the output cannot be read"
                ) from error
            try:
                burned = boxes_by_page[number]
                expects_text = words_by_page is not None and bool(words_by_page[number])
                layers.append((_read_text(page, number, expects_text), burned))
                if pdfium_c.FPDFPage_GetAnnotCount(page.raw):
                    raise PdfVerificationError(f"page {number + 1} has annotations")
                _check_geometry(number, PageGeometry.of_page(page, expected.dpi), expected)
                image = render_page(page, expected.dpi)
            finally:
                page.close()
            if image.size != expected.pixels:
                raise PdfVerificationError(
                    f"page {number + 1} renders at {image.width} x {image.height} px, "
                    f"not {expected.pixels[0]} x {expected.pixels[1]}"
                )
            _check_black(number, np.asarray(image), boxes_by_page[number])
            if ocr is not None and hidden is not None and hidden[number]:
                problem = burned_piece_problem(number, image, hidden[number], ocr)
                if problem is not None:
                    raise PdfVerificationError(problem)
    finally:
        pdf.close()
    meant = words_by_page or [[] for _ in pages]
    problem = value_problem([found for found, _ in layers], meant, values)
    for number, (found, burned) in enumerate(layers):
        if problem is None:
            problem = layer_problem(number, found, meant[number], burned, pages[number])
    if problem is not None:
        raise PdfVerificationError(problem)


def _read_text(page: Any, number: int, expects_text: bool) -> list[ReadWord]:
    """The page's text read back (checked against its kept words once every page is read):
    none at all on a page without a text layer, and only invisible text on one with it."""
    textpage = page.get_textpage()
    try:
        found = read_layer(page, textpage)
        characters = textpage.count_chars()
    finally:
        textpage.close()
    if characters and not expects_text:
        raise PdfVerificationError(f"page {number + 1} has {characters} characters")
    problem = invisible_problem(page, number)
    if problem is not None:
        raise PdfVerificationError(problem)
    return found


def _check_geometry(number: int, found: PageGeometry, expected: PageGeometry) -> None:
    """The output page shows the original's area: the same size, upright, from its origin."""
    if found.rotation or not expected.same_size(found):
        raise PdfVerificationError(
            f"page {number + 1} has another size: {found.describe()}, rotated "
            f"{found.rotation}, where the original shows {expected.describe()}"
        )


def _check_bytes(data: bytes, values: Sequence[str], *, text_layer: bool = False) -> None:
    """The file's structure holds no strings and no key that carries metadata, content or
    actions; its streams (pixels, drawing and text operators, the font) hold no redacted
    value's bytes.

    Values are looked for in the streams only from `_MIN_VALUE_BYTES` up: a shorter one
    could occur in compressed pixels by chance. The structure is checked more strictly
    still: it may hold no string at all, so no value of any length can be there — but for
    the text layer's font, whose character collection a CIDFont must name in two strings
    (`CID_SYSTEM_INFO`, exactly), and its `/Font` resources.
    """
    structure, streams = _split_streams(data)
    if text_layer:
        structure = structure.replace(CID_SYSTEM_INFO, b"")
    if b"(" in structure or b"<" in structure.replace(b"<<", b""):
        raise PdfVerificationError("the output's structure holds strings")
    for key in _FORBIDDEN_KEYS:
        if text_layer and key == _FONT_KEY:
            continue
        if re.search(re.escape(key) + rb"(?![A-Za-z])", structure):
            raise PdfVerificationError(f"the output's structure names {key.decode()}")
    for value in values:
        for encoded in {value.encode("utf-8"), value.encode("utf-16-be")}:
            if len(encoded.strip()) >= _MIN_VALUE_BYTES and encoded in streams:
                raise PdfVerificationError("a redacted value occurs in the output's bytes")


def _split_streams(data: bytes) -> tuple[bytes, bytes]:
    """The file without its stream contents (where structure keys live), and those contents
    (pixel data and the drawing operators), each stream followed by a newline."""
    structure, streams = io.BytesIO(), io.BytesIO()
    position = 0
    for match in _STREAM.finditer(data):
        if match.start() < position:
            continue
        structure.write(data[position : match.end()])
        end = match.end() + int(match.group(1))
        streams.write(data[match.end() : end] + b"\n")
        position = end
    structure.write(data[position:])
    return structure.getvalue(), streams.getvalue()


def _check_black(number: int, pixels: np.ndarray, boxes: Sequence[Box]) -> None:
    """Every box's pixels (one pixel in from its edge, where rendering may blend) are black."""
    height, width = pixels.shape[:2]
    for position, box in enumerate(boxes, start=1):
        bounds = pixel_bounds(box, (width, height))
        if bounds is None:
            continue
        x0, y0, x1, y1 = bounds
        if x1 - x0 > 2 and y1 - y0 > 2:
            x0, y0, x1, y1 = x0 + 1, y0 + 1, x1 - 1, y1 - 1
        if int(pixels[y0:y1, x0:x1].max()) > _BLACK_LIMIT:
            raise PdfVerificationError(f"page {number + 1}: box {position} is not black")
