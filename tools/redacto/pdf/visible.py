"""Which text-layer words a page shows: the page rendered with and without its text.

A PDF's text layer can hold words that no reader of the page sees: white text, text drawn
under an image or a filled rectangle, text clipped away, type too small to read, an OCR
layer drawn beneath a scan. `redacted.pdf` is rebuilt from the rendered page, so such words
never reach it; they must not reach `redacted.txt` (or the model) either (docs/pdf.md).

The test is the page's own pixels: the page is rendered once as it is and once with every
text object switched to invisible (in memory; the file is never written), and a character
shows when enough pixels of its box change between the two with enough contrast. What
covers, clips or matches a glyph's colour leaves its pixels unchanged, whatever the PDF
construct behind it. A word is shown when every one of its characters is, or when at
least half are and the others draw nothing or a mark too small to judge: a glyph its font
lacks, a full stop in small type (`shows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from PIL import Image

INK_CONTRAST = 40
"""A pixel is a glyph's ink when drawing the text changes it by this much (of 255) in some
channel: black or grey type on any light ground — light grey too (70 % grey on white
changes it by 76, and is plainly legible), never near-white on white (86 % and lighter)."""
MIN_INK_PIXELS = 3
"""A character shows when this many pixels of its box are ink (a full stop at 8 pt has
about ten)."""

_MAX_DEPTH = 32  # form XObjects nest; a cycle is refused by pdfium, the depth is a backstop

CharBox = tuple[float, float, float, float]


def hide_text(page: Any) -> None:
    """Switch every text object of `page` (nested forms included) to invisible, in memory."""
    import pypdfium2.raw as pdfium_c

    raw = page.raw
    _hide_objects(
        pdfium_c,
        pdfium_c.FPDFPage_CountObjects(raw),
        lambda index: pdfium_c.FPDFPage_GetObject(raw, index),
        0,
    )


def _hide_objects(pdfium_c: Any, count: int, get: Any, depth: int) -> None:
    for index in range(count):
        obj = get(index)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            pdfium_c.FPDFTextObj_SetTextRenderMode(obj, pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE)
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
            _hide_objects(
                pdfium_c,
                pdfium_c.FPDFFormObj_CountObjects(obj),
                lambda inner, form=obj: pdfium_c.FPDFFormObj_GetObject(form, inner),
                depth + 1,
            )


def ink_map(shown: Image.Image, without_text: Image.Image) -> np.ndarray:
    """Per pixel, whether drawing the page's text changed it by at least `INK_CONTRAST`."""
    with_text = np.asarray(shown, dtype=np.int16)
    bare = np.asarray(without_text, dtype=np.int16)
    if with_text.shape != bare.shape:
        raise ValueError("the page rendered at two sizes")
    result: np.ndarray = np.abs(with_text - bare).max(axis=2) >= INK_CONTRAST
    return result


def shown_characters(ink: np.ndarray, chars: Sequence[CharBox | None]) -> list[bool]:
    """Per character box (pixels, unpadded; None: drawn invisibly), whether it holds enough
    ink to be read. However small its type: 2 pt type is legible when zoomed in, so a
    character is not judged by its size (a privacy tool fails closed)."""
    height, width = ink.shape
    shown: list[bool] = []
    for char in chars:
        if char is None:
            shown.append(False)
            continue
        x0, y0, x1, y1 = char
        left, top = max(int(x0), 0), max(int(y0), 0)
        right, bottom = min(int(np.ceil(x1)), width), min(int(np.ceil(y1)), height)
        shown.append(
            right > left
            and bottom > top
            and int(ink[top:bottom, left:right].sum()) >= MIN_INK_PIXELS
        )
    return shown


def shows(
    ink: np.ndarray,
    chars: Sequence[CharBox | None],
    empty: Sequence[bool] | None = None,
) -> bool:
    """Whether a word shows: every character holds ink (`shown_characters`), or at least
    half of them do and each other one is a glyph too slight to be judged by its ink
    (`empty`: pdfium gives it no outline at all, or one of a few pixels — a full stop or a
    hyphen in small type, whose ink can fall under `MIN_INK_PIXELS` though it is drawn).

    A glyph the font cannot draw (a ligature its encoding names and its glyphs lack) leaves
    a gap in a word the page otherwise shows ("Gri n" where the text says "Griffin"): that
    word is read whole, so that its whole extent is boxed when it is redacted. A character
    under an image, a rectangle (white or not) or another word's ink has a glyph of its own,
    so a word partly covered is still judged by every character."""
    shown = shown_characters(ink, chars)
    if all(shown):
        return bool(shown)
    if empty is None or 2 * sum(shown) < len(shown):
        return False
    return all(nothing for nothing, ink_ in zip(empty, shown, strict=True) if not ink_)
