"""Regenerate `tools/redacto/pdf/glyphless.ttf`, the font of redacted.pdf's text layer.

    python -m devtools.generated --write glyphless-font

A TrueType font with two glyphs 500 units (half an em) wide, ascent 800 and descent -200
units on a 1,000-unit em. Glyph 1, which draws every character of the layer (the PDF's
CIDToGIDMap) while the ToUnicode map gives the text back, is one straight line from its
box's lower-left to its upper-right corner: it encloses no area, so even a viewer that
ignored text render mode 3 would fill nothing, yet its bounding box is the full cell.
pdfium needs that box: it skips a text object whose glyphs have no width (a one-letter
word, or the space drawn between two words, would vanish from the text). Written once with
fontTools (a development tool here, not a dependency of the package) and committed: the
file is under a kilobyte and has no timestamps, so this module reproduces it byte for byte.
Why a glyphless font rather than DejaVu Sans: docs/pdf-output.md ("The text layer").
"""

from __future__ import annotations

import io
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "tools" / "redacto" / "pdf" / "glyphless.ttf"
GLYPHS = (".notdef", "blank")


def glyphless_font() -> bytes:
    """The font's bytes: an empty .notdef and the one line glyph, metrics as the module
    docstring says."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(list(GLYPHS))
    builder.setupCharacterMap({0x20: "blank"})
    line = TTGlyphPen(None)
    line.moveTo((0, -200))
    line.lineTo((500, 800))
    line.closePath()
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "blank": line.glyph()})
    builder.setupHorizontalMetrics({name: (500, 0) for name in GLYPHS})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "RedactoGlyphless", "styleName": "Regular"})
    builder.setupOS2(
        sTypoAscender=800,
        sTypoDescender=-200,
        sTypoLineGap=0,
        usWinAscent=800,
        usWinDescent=200,
        fsType=0,  # installable: any use, embedding included
    )
    builder.setupPost()
    builder.font["head"].created = builder.font["head"].modified = 0
    buffer = io.BytesIO()
    builder.save(buffer)
    return buffer.getvalue()


def outputs() -> dict[str, bytes]:
    """The font file (relative to the repository root) and its bytes."""
    return {TARGET.relative_to(ROOT).as_posix(): glyphless_font()}
