"""Reading a PDF into one image-mode document: words with boxes, page by page.

Each page is measured in pixels of its rendering at `PDF_DPI` (y downward, origin at the
top-left of the visible page), the same rendering `write_redacted_pdf` burns boxes into,
so a box drawn from these words lands on the glyphs it covers.

- A page with a usable text layer gives its words from pdfium's characters: characters
  are grouped into words at spaces, control characters and line breaks, each word's box is
  the union of its characters' loose boxes (the font's full height) converted to pixels,
  and words are put in reading order by lines with the OCR engines' own `order_lines`.
- Only words the page shows are read (`redacto.pdf.visible`): a word whose glyphs leave no
  ink on the rendered page — white text, text under an image or a filled rectangle,
  clipped, too small to read, or invisible (text render mode 3, the OCR layer a scanner
  adds) — is counted in `PdfPageInfo.hidden` and dropped: it cannot reach `redacted.pdf`,
  so it must not reach `redacted.txt` or the model either.
- A page with no shown characters (a scan), or a rotated page, is rendered and read by
  OCR, so what the model sees is what the rendered page shows.
- A page with a text layer is OCR'd too, and every OCR word that no shown text-layer word
  covers is added after the page's text-layer words: text inside an image (a pasted scan,
  a stamp, a signature) and text drawn as outlines are in no text layer, yet they show on
  the page — and so in the output — unless the model reads them.

Bad PDFs (not a PDF, corrupt, encrypted with a password, no pages, pages over the pixel
limit) raise `BadPdfError`; the message never holds document content.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from redacto.document import Box, Document, Element
from redacto.imaging import size_problem
from redacto.ocr.base import OcrLine, OcrWord, corners_of_box, order_lines
from redacto.pdf.geometry import PDF_DPI, PageGeometry
from redacto.pdf.visible import CharBox, hide_text, ink_map, shows

if TYPE_CHECKING:
    from PIL import Image

    from redacto.ocr import OcrEngine

MAX_PAGES = 2000
_INVISIBLE = 3  # FPDF_TEXTRENDERMODE_INVISIBLE
_WORD_PAD_PX = 2.0  # a little over a glyph's edge, as OCR boxes are padded (docs/ocr.md)
_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD


class BadPdfError(ValueError):
    """The PDF cannot be redacted as given; the message says why, without its content."""


class PageSource(StrEnum):
    """Where a page's words came from."""

    TEXT_LAYER = "text_layer"
    OCR = "ocr"
    TEXT_LAYER_AND_OCR = "text_layer_and_ocr"
    """The text layer, plus OCR words where the page shows text the layer does not hold."""


@dataclass(frozen=True)
class PdfPageInfo:
    """One page as read: its number (0-based), its geometry (the area shown, in points,
    and its pixels at the reading DPI), word source, its words, and how many text-layer
    words it holds but does not show (left out)."""

    number: int
    geometry: PageGeometry
    source: PageSource
    words: int
    hidden: int = 0

    @property
    def size(self) -> tuple[int, int]:
        """The page's size in pixels at the reading DPI, the space its word boxes are in."""
        return self.geometry.pixels


@dataclass(frozen=True)
class PdfPages:
    """A read PDF: the document for the pipeline and what each page was."""

    path: Path
    dpi: int
    pages: tuple[PdfPageInfo, ...]
    document: Document
    ocr_name: str | None = None
    data: bytes | None = field(default=None, repr=False)
    """The PDF's bytes when it was read from memory (an upload); None: read from `path`."""

    @property
    def source(self) -> Path | bytes:
        """What to open the PDF again from (`open_pdf`): its bytes, or else its file."""
        return self.data if self.data is not None else self.path


OnPage = Callable[[int, int], None]
"""Progress while reading: called with (pages done, pages in all)."""


def open_pdf(path: Path | bytes) -> Any:
    """Open a PDF (a file, or its bytes) with pdfium, read-only; any failure is a
    `BadPdfError`."""
    import pypdfium2 as pdfium

    if isinstance(path, bytes):
        data: bytes | str = path
        path = Path("(the PDF in memory)")  # a message names the file, never its bytes
    else:
        data = str(path)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == _PASSWORD_ERROR:
            raise BadPdfError(f"{path}: the PDF is encrypted with a password") from error
        # pdfium refuses a page tree of /Count 0 as a format error, like any corrupt file.
        raise BadPdfError(
            f"{path}: not a PDF, a corrupt one, or one with no pages ({error})"
        ) from error
    count = len(pdf)
    if count == 0:
        pdf.close()
        raise BadPdfError(f"{path}: the PDF has no pages")
    if count > MAX_PAGES:
        pdf.close()
        raise BadPdfError(f"{path}: the PDF has {count} pages; the limit is {MAX_PAGES}")
    return pdf


def load_page(pdf: Any, path: Path, number: int) -> Any:
    """Page `number` of an open PDF; a page pdfium cannot load is a `BadPdfError`."""
    import pypdfium2 as pdfium

    try:
        return pdf[number]
    except pdfium.PdfiumError as error:
        raise BadPdfError(f"{path}: page {number + 1} cannot be read ({error})") from error


def render_page(page: Any, dpi: int = PDF_DPI) -> Image.Image:
    """The page as RGB pixels at `dpi`: its content only, without annotations or form
    fields (neither is read as words, so neither may show in the output)."""
    bitmap = page.render(scale=dpi / 72, draw_annots=False, may_draw_forms=False)
    try:
        return bitmap.to_pil().convert("RGB")
    finally:
        bitmap.close()


def read_pdf(
    path: Path,
    *,
    ocr: str | OcrEngine = "ppocr",
    dpi: int = PDF_DPI,
    on_page: OnPage | None = None,
    data: bytes | None = None,
) -> PdfPages:
    """Read every page's words into one document (indices global, `page` set per page).

    `data`, when given, is the PDF itself, held in memory (an upload): it is read instead
    of a file, and `path` only names it in messages.

    Every page is rendered and OCR'd (see the module docstring) by the engine named `ocr`,
    or by `ocr` itself when it is an open engine (the eval reads many PDFs with one).
    Raises `BadPdfError` for a bad PDF and `OcrError` (an `EngineError`) when OCR cannot run.
    """
    pdf = open_pdf(data) if data is not None else open_pdf(path)
    engine: OcrEngine | None = None if isinstance(ocr, str) else ocr
    elements: list[Element] = []
    pages: list[PdfPageInfo] = []
    try:
        for number in range(len(pdf)):
            page = load_page(pdf, path, number)
            try:
                geometry = PageGeometry.of_page(page, dpi)
                size = geometry.pixels
                _check_size(path, number, size)
                image = render_page(page, dpi)
                if image.size != size:
                    raise BadPdfError(f"{path}: page {number + 1} renders at another size")
                layer: list[tuple[str, Box]] = []
                hidden = 0
                if page.get_rotation() == 0:
                    layer, hidden = _text_layer_words(page, size, image, dpi)
                if engine is None:
                    from redacto.ocr import open_ocr

                    engine = open_ocr(str(ocr))
                seen = [(e.text, e.box) for e in engine.read(image) if e.box is not None]
                words, source = _merge_words(layer, seen)
            finally:
                page.close()
            for text, box in words:
                elements.append(Element(index=len(elements), text=text, box=box, page=number))
            pages.append(PdfPageInfo(number, geometry, source, len(words), hidden))
            if on_page is not None:
                on_page(number + 1, len(pdf))
    finally:
        pdf.close()
    return PdfPages(
        path=path,
        dpi=dpi,
        pages=tuple(pages),
        document=Document.from_elements(elements),
        ocr_name=engine.name if engine is not None else None,
        data=data,
    )


COVERED = 0.3
"""An OCR word is the text layer's own when text-layer boxes cover this share of it."""


def _merge_words(
    layer: list[tuple[str, Box]], seen: list[tuple[str, Box]]
) -> tuple[list[tuple[str, Box]], PageSource]:
    """A page's words: its text layer's, plus what OCR saw where the layer has nothing."""
    if not layer:
        return seen, PageSource.OCR
    extra = [(text, box) for text, box in seen if _covered_share(box, layer) < COVERED]
    if not extra:
        return layer, PageSource.TEXT_LAYER
    return [*layer, *extra], PageSource.TEXT_LAYER_AND_OCR


def _covered_share(box: Box, layer: list[tuple[str, Box]]) -> float:
    """How much of `box` the text-layer word boxes cover (overlaps are rare; a sum)."""
    if box.area <= 0:
        return 1.0
    covered = 0.0
    for _, other in layer:
        width = min(box.x1, other.x1) - max(box.x0, other.x0)
        height = min(box.y1, other.y1) - max(box.y0, other.y0)
        if width > 0 and height > 0:
            covered += width * height
    return min(covered / box.area, 1.0)


def _check_size(path: Path, number: int, size: tuple[int, int]) -> None:
    problem = size_problem(size)
    if problem is not None:
        raise BadPdfError(f"{path}: page {number + 1} at {PDF_DPI} dpi {problem}")


@dataclass
class _Word:
    chars: list[str]
    box: list[float]  # x0, y0, x1, y1 in pixels, padded
    glyphs: list[CharBox | None]  # each character's unpadded box; None: drawn invisible

    def add(self, char: str, box: CharBox, glyph: CharBox | None) -> None:
        self.chars.append(char)
        self.glyphs.append(glyph)
        self.box = [
            min(self.box[0], box[0]),
            min(self.box[1], box[1]),
            max(self.box[2], box[2]),
            max(self.box[3], box[3]),
        ]

    def continues(self, box: CharBox, *, invisible: bool) -> bool:
        """The next character sits on this word's line, without a gap wider than a space,
        and is drawn visibly or invisibly (render mode 3) as this word's last one is."""
        if invisible != (self.glyphs[-1] is None):
            return False
        centre = (box[1] + box[3]) / 2
        height = self.box[3] - self.box[1]
        on_line = self.box[1] <= centre <= self.box[3]
        return on_line and -0.5 * height <= box[0] - self.box[2] <= 0.25 * height


def _text_layer_words(
    page: Any, size: tuple[int, int], image: Image.Image, dpi: int
) -> tuple[list[tuple[str, Box]], int]:
    """The words `image` (the page rendered at `dpi`) shows and their pixel boxes, in
    reading order, and how many words the layer holds that it does not show.

    Hides the page's text in memory to tell (`redacto.pdf.visible`): the page must not be
    rendered again for output after this call.
    """
    import pypdfium2.raw as pdfium_c

    textpage = page.get_textpage()
    try:
        raw = textpage.raw
        lines: list[list[_Word]] = [[]]
        word: _Word | None = None
        for index in range(textpage.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(raw, index) or 0x20)
            if char in "\r\n":
                word = None
                if lines[-1]:
                    lines.append([])
                continue
            if char.isspace() or not char.isprintable():
                word = None
                continue
            glyph = _char_box(pdfium_c, page, raw, index, size)
            if glyph is None:
                word = None
                continue
            box = _padded(glyph, size)
            shown = None if _invisible(pdfium_c, raw, index) else glyph
            if word is not None and word.continues(box, invisible=shown is None):
                word.add(char, box, shown)
                continue
            if word is not None and lines[-1] and not _same_line(lines[-1][-1], box):
                lines.append([])
            word = _Word([char], list(box), [shown])
            lines[-1].append(word)
    finally:
        textpage.close()
    found = sum(len(line) for line in lines)
    if found:
        hide_text(page)
        ink = ink_map(image, render_page(page, dpi))
        lines = [[w for w in line if shows(ink, w.glyphs)] for line in lines]
    ocr_lines = [_as_line(line, size) for line in lines if line]
    words = [(w.text, w.box) for line in order_lines(ocr_lines) for w in line.words]
    return words, found - len(words)


def _same_line(previous: _Word, box: tuple[float, float, float, float]) -> bool:
    centre = (box[1] + box[3]) / 2
    return previous.box[1] <= centre <= previous.box[3]


def _invisible(pdfium_c: Any, raw: Any, index: int) -> bool:
    textobj = pdfium_c.FPDFText_GetTextObject(raw, index)
    return bool(textobj) and pdfium_c.FPDFTextObj_GetTextRenderMode(textobj) == _INVISIBLE


def _char_box(
    pdfium_c: Any, page: Any, raw: Any, index: int, size: tuple[int, int]
) -> CharBox | None:
    """A character's loose box in pixels, clipped to the page; None when off the page."""
    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect)):
        return None
    xs, ys = [], []
    for x, y in ((rect.left, rect.top), (rect.right, rect.bottom)):
        device_x, device_y = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, size[0], size[1], 0, x, y, device_x, device_y)
        xs.append(device_x.value)
        ys.append(device_y.value)
    x0, y0 = max(float(min(xs)), 0.0), max(float(min(ys)), 0.0)
    x1, y1 = min(float(max(xs)), float(size[0])), min(float(max(ys)), float(size[1]))
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _padded(box: CharBox, size: tuple[int, int]) -> CharBox:
    """A character box grown by the word padding, still within the page."""
    x0, y0, x1, y1 = box
    return (
        max(x0 - _WORD_PAD_PX, 0.0),
        max(y0 - _WORD_PAD_PX, 0.0),
        min(x1 + _WORD_PAD_PX, float(size[0])),
        min(y1 + _WORD_PAD_PX, float(size[1])),
    )


def _as_line(words: list[_Word], size: tuple[int, int]) -> OcrLine:
    """A text line in the OCR engines' shape, so reading order is computed in one place."""
    boxes = [Box(x0=w.box[0], y0=w.box[1], x1=w.box[2], y1=w.box[3]) for w in words]
    outline = Box(
        x0=min(b.x0 for b in boxes),
        y0=min(b.y0 for b in boxes),
        x1=max(b.x1 for b in boxes),
        y1=max(b.y1 for b in boxes),
    )
    ocr_words = tuple(
        OcrWord(text="".join(w.chars), box=b, confidence=1.0)
        for w, b in zip(words, boxes, strict=True)
    )
    return OcrLine(words=ocr_words, corners=corners_of_box(outline))
