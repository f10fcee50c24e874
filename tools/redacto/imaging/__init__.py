"""The pixels of image mode: a page read safely, boxes widened to the ink, a clean PNG out.

- `raster`: decode a photo (PNG, JPEG, WebP) with its orientation applied and its size
  bounded, burn black boxes into it, write a PNG with no metadata;
- `ink_cover`: the last look before burning: widen each box to the glyphs it cuts.

Both the photo path (`redacto.inputs`) and the PDF writer (`redacto.pdf`) burn through
here, so a page looks the same redacted whatever it came from. The modules are imported by
name: reading a photo's size needs Pillow, not the numpy the ink cover uses.
"""
