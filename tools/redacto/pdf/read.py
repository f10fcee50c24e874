"""Reading a PDF into one image-mode document: words with boxes, page by page.

Each page is measured in pixels of its rendering at `PDF_DPI` (y downward, origin at the
top-left of the visible page), the same rendering `write_redacted_pdf` burns boxes into,
so a box drawn from these words lands on the glyphs it covers.

- A page with a usable text layer (with /Rotate or not) gives its words from pdfium's
  characters, grouped along each character's own baseline (`redacto.pdf.words`: text
  turned 90°, 180°, 270° or up to 30° off an axis reads as words); each word's box is the
  union of its characters' loose boxes (the font's full height) in pixels, and words are
  put in reading order by lines with the OCR engines' own `order_lines`.
- Only words the page shows are read (`redacto.pdf.visible`): a word whose glyphs leave no
  ink on the rendered page — white text, text under an image or a filled rectangle,
  clipped, too small to read, or invisible (text render mode 3, the OCR layer a scanner
  adds) — is counted in `PdfPageInfo.hidden` and dropped: it cannot reach `redacted.pdf`,
  so it must not reach `redacted.txt` or the model either. A word at least half shown
  whose other glyphs draw nothing (a glyph its font lacks) is read whole.
- Shown characters the reader cannot group (steeper angles, letters stacked or set along
  a curve) are no words; what no OCR word stands over is counted in `PdfPageInfo.unread`,
  and the run cannot end PASS.
- A page with no shown characters (a scan) is rendered and read by OCR, so what the model
  sees is what the rendered page shows.
- A page with a text layer is OCR'd too, and every OCR word that no shown text-layer word
  covers is added after the page's text-layer words: text inside an image (a pasted scan,
  a stamp, a signature) and text drawn as outlines are in no text layer, yet they show on
  the page — and so in the output — unless the model reads them.

Bad PDFs (not a PDF, corrupt, encrypted with a password, no pages, pages over the pixel
limit) raise `BadPdfError`; the message never holds document content.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from redacto.document import Box, Document, Element
from redacto.imaging.raster import size_problem
from redacto.ocr.base import OcrLine, OcrWord, corners_of_box, order_lines
from redacto.pdf.geometry import PDF_DPI, PageGeometry
from redacto.pdf.visible import (
    CharBox,
    hide_text,
    ink_map,
    shown_characters,
    shows,
)
from redacto.pdf.words import PageTransform, PageWord, near, new_word, page_char

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
    and its pixels at the reading DPI), word source, its words, how many text-layer words
    it holds but does not show (left out), and how many shown characters nobody read."""

    number: int
    geometry: PageGeometry
    source: PageSource
    words: int
    hidden: int = 0
    unread: int = 0
    """Shown characters of the text layer that could not be grouped into words (an angle
    the reader does not handle, vertical writing, text along a curve) and that no OCR word
    stands over: the page holds text nobody read, and the run cannot end PASS."""

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
    ocr: OcrEngine | None = field(default=None, repr=False, compare=False)
    """The OCR engine that read the pages, kept open for the check after writing (it reads
    the burned pages beside their boxes: `redacto.pdf.pieces`)."""

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
                layer = _text_layer_words(page, size, image, dpi)
                if engine is None:
                    from redacto.ocr import open_ocr

                    engine = open_ocr(str(ocr))
                seen = [(e.text, e.box) for e in engine.read(image) if e.box is not None]
                words, source = _merge_words(layer.words, seen, layer.turned, layer.slanted)
                unread = _unread(layer.unread, words[len(layer.words) :])
            finally:
                page.close()
            for text, box in words:
                elements.append(Element(index=len(elements), text=text, box=box, page=number))
            pages.append(PdfPageInfo(number, geometry, source, len(words), layer.hidden, unread))
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
        ocr=engine,
    )


COVERED = 0.3
"""An OCR word is the text layer's own when text-layer boxes cover this share of it."""


def _merge_words(
    layer: list[tuple[str, Box]],
    seen: list[tuple[str, Box]],
    turned: Sequence[Box] = (),
    slanted: Sequence[Box] = (),
) -> tuple[list[tuple[str, Box]], PageSource]:
    """A page's words: its text layer's, plus what OCR saw where the layer has nothing.

    OCR reads lines that run left to right: what it makes of a turned word the layer holds
    (`turned`) is a misreading of that word (`_misread`), not text of its own."""
    if not layer:
        return seen, PageSource.OCR
    # A slanted word's box is the axis-aligned box around it, paper beside it too: it does
    # not count towards covering an OCR word, which it stands for only as OCR's misreading
    # of it (a word turned a quarter or upside down has its own box exactly).
    exact = [(text, box) for text, box in layer if not any(box == t for t in slanted)]
    extra = [
        (text, box)
        for text, box in seen
        if _covered_share(box, exact) < COVERED
        and not _twin(text, box, layer)
        and not _misread(text, box, layer, turned)
    ]
    if not extra:
        return layer, PageSource.TEXT_LAYER
    return [*layer, *extra], PageSource.TEXT_LAYER_AND_OCR


def _twin(text: str, box: Box, layer: list[tuple[str, Box]]) -> bool:
    """Whether an OCR word reads what the text-layer words it overlaps say: OCR's boxes on
    turned text (read a quarter turned, padded) can overlap the layer's exact boxes by
    less than `COVERED` and still be the same word."""
    plain = _alphanumeric(text)
    if not plain:
        return False
    overlapping = "".join(
        _alphanumeric(other_text) for other_text, other in layer if _overlap(box, other)
    )
    return plain in overlapping


def _misread(text: str, box: Box, layer: list[tuple[str, Box]], turned: Sequence[Box]) -> bool:
    """Whether an OCR word over a turned word of the layer is OCR's misreading of it: two
    letters or fewer, or letters all found, in order, in the turned words it overlaps. A
    word of its own there (text in an image beside a slanted stamp) is still read."""
    if not any(_overlap(box, other) for other in turned):
        return False
    plain = _alphanumeric(text)
    if len(plain) <= 2:
        return True
    under = iter(
        "".join(
            _alphanumeric(other_text)
            for other_text, other in layer
            if _overlap(box, other) and any(other == t for t in turned)
        )
    )
    return all(char in under for char in plain)


def _overlap(box: Box, other: Box) -> bool:
    return min(box.x1, other.x1) > max(box.x0, other.x0) and min(box.y1, other.y1) > max(
        box.y0, other.y0
    )


def _alphanumeric(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())


def _unread(ungrouped: list[Box], ocr_words: list[tuple[str, Box]]) -> int:
    """How many shown characters the text layer could not group that no word OCR added to
    the page stands over (a word of two letters or digits at least: OCR reading a column
    of single letters has not read a word either): text nobody read."""
    read = [box for text, box in ocr_words if len(_alphanumeric(text)) >= 2]
    return sum(
        1
        for char in ungrouped
        if not any(_inside((char.x0 + char.x1) / 2, (char.y0 + char.y1) / 2, box) for box in read)
    )


def _inside(x: float, y: float, box: Box) -> bool:
    return box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1


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


@dataclass(frozen=True)
class _LayerReading:
    """What a page's text layer gave: its shown words (text and box) in reading order, how
    many words it holds but does not show, and the boxes of shown characters it could not
    group into words (`redacto.pdf.words`: an angle it does not handle, or a run of
    characters each on a baseline of its own, as vertical writing or text on a curve)."""

    words: list[tuple[str, Box]]
    hidden: int
    unread: list[Box]
    turned: list[Box] = field(default_factory=list)
    """The boxes of shown words that do not run left to right (OCR cannot read those)."""
    slanted: list[Box] = field(default_factory=list)
    """Those of them that run along no axis: their boxes hold paper beside the word too."""


_STRAY_RUN = 3
"""This many characters in a row, each a word of its own though no white space parts it
from the one before and each touching the one before (vertical writing, text along a
curve), are text the reader cannot group."""


def _text_layer_words(
    page: Any, size: tuple[int, int], image: Image.Image, dpi: int
) -> _LayerReading:
    """The words `image` (the page rendered at `dpi`) shows and their pixel boxes, in
    reading order, read along each character's own baseline (`redacto.pdf.words`), and
    what the layer holds that the page does not show or that could not be grouped.

    Hides the page's text in memory to tell (`redacto.pdf.visible`): the page must not be
    rendered again for output after this call.
    """
    import pypdfium2.raw as pdfium_c

    transform = PageTransform.of_page(page, size)
    textpage = page.get_textpage()
    lines: list[list[PageWord]] = [[]]
    ungrouped: list[CharBox] = []  # characters the reader could not put in a word
    stray: set[int] = set()  # words of one character that could not be grouped (by id)
    run: list[PageWord] = []  # one-character words in a row, nothing parting them

    def close_run() -> None:
        if len(run) >= _STRAY_RUN:
            stray.update(id(w) for w in run)
        run.clear()

    overridden: dict[int, bool] = {}  # per text object: marked with an ActualText
    try:
        raw = textpage.raw
        word: PageWord | None = None
        for index in range(textpage.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(raw, index) or 0x20)
            if pdfium_c.FPDFText_IsGenerated(raw, index) == 1:
                # A space pdfium inferred ends a word; a line break it inferred does not
                # (it infers them between the letters of turned text drawn one by one): the
                # next character must still continue the word on its line. Neither ends a
                # run of characters each on a baseline of its own (pdfium breaks those up).
                if not char.isspace() or char == " ":
                    word = None
                continue
            if char.isspace() or not char.isprintable():
                if char in "\r\n" and lines[-1]:
                    lines.append([])
                word = None
                close_run()
                continue
            invisible = _invisible(pdfium_c, raw, index)
            drawn = page_char(pdfium_c, raw, index, char, transform, invisible)
            if drawn is not None and _actual_text(pdfium_c, raw, index, overridden):
                drawn = replace(drawn, along=None)  # its glyphs may say anything: unread
            if drawn is None or drawn.along is None:
                if drawn is not None and not invisible:
                    ungrouped.append(drawn.box)
                word = None
                continue
            glyph = None if invisible else _clipped(drawn.box, size)
            if word is not None and word.continues(drawn):
                word.add(drawn, glyph)
                if run and run[-1] is word:
                    run.pop()
                    close_run()
                continue
            if lines[-1] and not lines[-1][-1].on_line(drawn):
                lines.append([])
            word = new_word(drawn, glyph)
            lines[-1].append(word)
            if run and not (run[-1].first is not None and near(run[-1].first, drawn)):
                close_run()
            run.append(word)
        close_run()
    finally:
        textpage.close()
    found = sum(len(line) for line in lines) - len(stray)
    ungrouped += [w.boxes[0] for line in lines for w in line if id(w) in stray and w.glyphs[0]]
    if not found and not ungrouped:
        return _LayerReading([], 0, [])
    hide_text(page)
    ink = ink_map(image, render_page(page, dpi))
    shown = shown_characters(ink, [_clipped(box, size) for box in ungrouped])
    unread = [_box(_padded(box, size)) for box, ink_ in zip(ungrouped, shown, strict=True) if ink_]
    kept = [
        [w for w in line if id(w) not in stray and shows(ink, w.glyphs, w.empty)] for line in lines
    ]
    ocr_lines = [_as_line(line, size) for line in kept if line]
    words = [(w.text, w.box) for line in order_lines(ocr_lines) for w in line.words]
    turned = [_box(w.box(size)) for line in kept for w in line if not w.upright]
    slanted = [_box(w.box(size)) for line in kept for w in line if not w.on_axis]
    return _LayerReading(words, found - len(words), unread, turned, slanted)


def _actual_text(pdfium_c: Any, raw: Any, index: int, known: dict[int, bool]) -> bool:
    """Whether the character's text object is marked with an `ActualText`: pdfium then
    reads that text instead of the object's glyphs, spread evenly over its box, and the
    glyphs the page shows may say anything else ("hello" over an SSN). `known` holds each
    object's answer."""
    textobj = pdfium_c.FPDFText_GetTextObject(raw, index)
    if not textobj:
        return False
    key = ctypes.cast(textobj, ctypes.c_void_p).value or 0
    if key not in known:
        marks = (
            pdfium_c.FPDFPageObj_GetMark(textobj, number)
            for number in range(pdfium_c.FPDFPageObj_CountMarks(textobj))
        )
        known[key] = any(
            mark
            and pdfium_c.FPDFPageObjMark_GetParamValueType(mark, b"ActualText")
            != pdfium_c.FPDF_OBJECT_UNKNOWN
            for mark in marks
        )
    return known[key]


def _invisible(pdfium_c: Any, raw: Any, index: int) -> bool:
    textobj = pdfium_c.FPDFText_GetTextObject(raw, index)
    return bool(textobj) and pdfium_c.FPDFTextObj_GetTextRenderMode(textobj) == _INVISIBLE


def _clipped(box: CharBox, size: tuple[int, int]) -> CharBox | None:
    """A character's box within the page; None when it is wholly off the page."""
    x0, y0 = max(box[0], 0.0), max(box[1], 0.0)
    x1, y1 = min(box[2], float(size[0])), min(box[3], float(size[1]))
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


def _box(box: CharBox) -> Box:
    return Box(x0=box[0], y0=box[1], x1=box[2], y1=box[3])


def _as_line(words: list[PageWord], size: tuple[int, int]) -> OcrLine:
    """A text line in the OCR engines' shape, so reading order is computed in one place."""
    boxes = [_box(w.box(size)) for w in words]
    outline = Box(
        x0=min(b.x0 for b in boxes),
        y0=min(b.y0 for b in boxes),
        x1=max(b.x1 for b in boxes),
        y1=max(b.y1 for b in boxes),
    )
    ocr_words = tuple(
        OcrWord(text=w.text, box=b, confidence=1.0) for w, b in zip(words, boxes, strict=True)
    )
    return OcrLine(words=ocr_words, corners=corners_of_box(outline))
