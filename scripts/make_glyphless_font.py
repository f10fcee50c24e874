"""Regenerate `tools/redacto/pdf/glyphless.ttf`, the font of redacted.pdf's text layer.

    python scripts/make_glyphless_font.py

A TrueType font with two glyphs, both empty and 500 units (half an em) wide, ascent 800
and descent -200 units on a 1,000-unit em: nothing it draws can ever be seen, whatever a
viewer does with text render mode 3, and every character of the layer is drawn with glyph
1 (the PDF's CIDToGIDMap) while its ToUnicode map gives the text back. Written once with
fontTools (a development tool here, not a dependency of the package) and committed: the
file is 632 bytes and has no timestamps, so this script reproduces it byte for byte.
Why a glyphless font rather than DejaVu Sans: docs/pdf.md ("The text layer").
"""

from __future__ import annotations

import io
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

TARGET = Path(__file__).resolve().parents[1] / "tools" / "redacto" / "pdf" / "glyphless.ttf"
GLYPHS = (".notdef", "blank")


def glyphless_font() -> bytes:
    """The font's bytes: two empty glyphs, metrics as the module docstring says."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(list(GLYPHS))
    builder.setupCharacterMap({0x20: "blank"})
    builder.setupGlyf({name: TTGlyphPen(None).glyph() for name in GLYPHS})
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


if __name__ == "__main__":
    TARGET.write_bytes(glyphless_font())
    print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)")
