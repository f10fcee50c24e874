"""Reading a photographed page safely, burning black boxes into it, writing a clean PNG.

The three operations at the edges of image mode:

- `load_input_image` decodes PNG, JPEG (phone MPO files included: their primary image) or
  WebP into RGB with the EXIF orientation applied, so OCR boxes land where the user sees
  the words. Anything else is a `BadImageError` whose message names the problem, never the
  document's content.
- `burn_boxes` returns a new image with every box's pixels replaced by solid black.
- `save_clean_png` writes a PNG with no metadata at all (EXIF/GPS, text chunks, ICC),
  atomically, and refuses to write over an input it loaded.

`load_image_bytes` and `clean_png_bytes` do the first and last in memory, for serve and
the proxy, which write nothing of a request to disk.

Limits (documented in docs/ocr.md): at most `MAX_PIXELS` (100 megapixels) and `MAX_SIDE`
(20,000 px) per side. A 50-megapixel phone photo passes; a decompression bomb does not.
The check runs on the header, before any pixel is decoded.
"""

from __future__ import annotations

import io
import math
import os
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from redacto.document import Box

MAX_PIXELS = 100_000_000
MAX_SIDE = 20_000
SUPPORTED_FORMATS = {"PNG": "png", "JPEG": "jpeg", "MPO": "jpeg", "WEBP": "webp"}
"""Pillow's format name → ours. `MPO` is a JPEG with further images after it (the MPF
extension many phone cameras write: a preview, a depth map): its primary image is the photo
the user sees, and the only one read and redacted; nothing of the others is written."""

# (device, inode) of every file load_input_image has read, so no save can replace one.
_LOADED_INPUTS: set[tuple[int, int]] = set()


class BadImageError(ValueError):
    """The input is not an image Redacto can read; the message says why, without content."""


@dataclass(frozen=True)
class LoadedImage:
    """A decoded input page: RGB pixels as the user sees them, and where they came from.

    `orientation` is the EXIF orientation tag that was applied (1 when none was present).
    """

    image: Image.Image
    size: tuple[int, int]
    format: str
    path: Path
    orientation: int = 1


def load_input_image(path: Path, max_pixels: int = MAX_PIXELS) -> LoadedImage:
    """Decode a PNG, JPEG or WebP page to RGB, EXIF orientation applied.

    Raises `BadImageError` for a missing or empty file, something that is not an image,
    a corrupt or truncated image, an unsupported format, or a size over the limits
    (`max_pixels`: a lower pixel limit than the product's, read from the header before any
    pixel is decoded). The file is only read.
    """
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as error:
        raise BadImageError(f"cannot read image {path}: file not found or not readable") from error
    if not path.is_file():
        raise BadImageError(f"cannot read image {path}: not a regular file")
    if stat.st_size == 0:
        raise BadImageError(f"cannot read image {path}: the file is empty")

    loaded = _loaded(path, path, max_pixels)
    _LOADED_INPUTS.add((stat.st_dev, stat.st_ino))
    return loaded


def load_image_bytes(data: bytes, name: Path, max_pixels: int = MAX_PIXELS) -> LoadedImage:
    """Decode a photo held in memory (an upload) as `load_input_image` decodes its file —
    the same formats, limits and EXIF orientation — without touching the disk. `name`
    stands for the file in messages and in `LoadedImage.path`. Raises `BadImageError`."""
    if not data:
        raise BadImageError(f"cannot read image {name}: the file is empty")
    return _loaded(io.BytesIO(data), name, max_pixels)


def _loaded(source: Path | io.BytesIO, name: Path, max_pixels: int) -> LoadedImage:
    rgb, image_format, orientation = _decode(source, str(name), max_pixels)
    return LoadedImage(
        image=rgb,
        size=rgb.size,
        format=SUPPORTED_FORMATS[image_format],
        path=name,
        orientation=orientation,
    )


def _decode(source: Path | io.BytesIO, label: str, max_pixels: int) -> tuple[Image.Image, str, int]:
    """RGB pixels upright, Pillow's format name and the EXIF orientation applied."""
    try:
        with warnings.catch_warnings():
            # Our own MAX_PIXELS check below replaces Pillow's bomb warning; its hard
            # DecompressionBombError (beyond ~179 MP) still fires and is reported as too large.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(source) as opened:
                image_format = opened.format or "unknown"
                _check_format(label, image_format)
                _check_size(label, opened.size, max_pixels)
                opened.load()
                orientation = _orientation(opened)
                upright = _apply_orientation(opened)
                rgb = _to_rgb(upright)
    except BadImageError:
        raise
    except Image.DecompressionBombError as error:
        raise BadImageError(
            f"image {label} is too large (over {MAX_PIXELS // 1_000_000} megapixels)"
        ) from error
    except UnidentifiedImageError as error:
        raise BadImageError(f"{label} is not an image (use PNG, JPEG or WebP)") from error
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        raise BadImageError(
            f"image {label} is corrupt or truncated ({type(error).__name__})"
        ) from error

    return rgb, image_format, orientation


def _check_format(label: str, image_format: str) -> None:
    if image_format not in SUPPORTED_FORMATS:
        raise BadImageError(
            f"image {label} is {image_format}, which is not supported: use PNG, JPEG or WebP"
        )


def size_problem(size: tuple[int, int], max_pixels: int = MAX_PIXELS) -> str | None:
    """Why an image (or a page rendered to one) of `size` cannot be redacted, or None.

    The one pixel limit for every input: photos here, PDF pages at their render DPI. A
    run may set a lower one for photos (`max_pixels`: the review server's
    `--max-megapixels`).
    """
    width, height = size
    if width < 1 or height < 1:
        return f"has no pixels ({width}x{height})"
    if width * height > max_pixels and max_pixels < MAX_PIXELS:
        return (
            f"is {width}x{height} pixels ({width * height / 1e6:.0f} MP); photos are taken "
            f"up to {max_pixels / 1e6:.0f} MP here"
        )
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        return (
            f"is {width}x{height} pixels; the limit is "
            f"{MAX_PIXELS // 1_000_000} megapixels and {MAX_SIDE} pixels a side"
        )
    return None


def _check_size(label: str, size: tuple[int, int], max_pixels: int) -> None:
    problem = size_problem(size, max_pixels)
    if problem is not None:
        raise BadImageError(f"image {label} {problem}")


def _orientation(image: Image.Image) -> int:
    try:
        value = image.getexif().get(0x0112, 1)
    except Exception:  # malformed EXIF: viewers cannot apply it either
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _apply_orientation(image: Image.Image) -> Image.Image:
    try:
        upright = ImageOps.exif_transpose(image)
    except Exception:  # malformed EXIF: show the pixels as stored, like a viewer would
        return image
    return upright if upright is not None else image


def _to_rgb(image: Image.Image) -> Image.Image:
    """RGB pixels; transparent areas become white, as a page is shown on a white screen."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda value: value / 256).convert("L")
    if image.mode == "P" or image.mode == "PA" or image.mode == "LA":
        image = image.convert("RGBA")
    if image.mode == "RGBA":
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, image).convert("RGB")
    if image.mode == "RGB":
        return image.copy()
    return image.convert("RGB")


def pixel_bounds(box: Box, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """A box as whole pixels, rounded outward and clipped to the image; None if empty."""
    width, height = size
    x0 = max(math.floor(box.x0), 0)
    y0 = max(math.floor(box.y0), 0)
    x1 = min(math.ceil(box.x1), width)
    y1 = min(math.ceil(box.y1), height)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def burn_boxes(image: Image.Image, boxes: Sequence[Box]) -> Image.Image:
    """A new image with each box's pixels replaced by solid black; `image` is unchanged.

    Boxes are clipped to the image and rounded outward, so a pixel a box only partly
    covers is blacked out whole.
    """
    burned = image.convert("RGB") if image.mode not in ("RGB", "RGBA", "L") else image.copy()
    blacks: dict[str, int | tuple[int, ...]] = {"RGB": (0, 0, 0), "RGBA": (0, 0, 0, 255), "L": 0}
    black = blacks[burned.mode]
    for box in boxes:
        bounds = pixel_bounds(box, burned.size)
        if bounds is not None:
            burned.paste(black, bounds)
    return burned


def save_clean_png(image: Image.Image, path: Path, *, source: Path | None = None) -> None:
    """Write `image` to `path` as a PNG with no metadata, atomically.

    Only pixels are written: no EXIF (so no GPS), no text chunks, no ICC profile, no DPI.
    The file appears complete or not at all (temporary file in the same folder, then
    rename). Refuses (`BadImageError`) to replace `source` or any file `load_input_image`
    read in this process, hard links and symbolic links included.
    """
    path = Path(path)
    _refuse_input(path, source)
    clean = _pixels_only(image)
    descriptor, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            clean.save(handle, format="PNG")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def clean_png_bytes(image: Image.Image) -> bytes:
    """`image` as PNG bytes with no metadata, as `save_clean_png` writes it, in memory."""
    buffer = io.BytesIO()
    _pixels_only(image).save(buffer, format="PNG")
    return buffer.getvalue()


def _pixels_only(image: Image.Image) -> Image.Image:
    mode = image.mode if image.mode in ("RGB", "RGBA", "L") else "RGB"
    pixels = image if image.mode == mode else image.convert(mode)
    # A fresh image from raw bytes carries no `info`: nothing of the original's metadata
    # (which Pillow's PNG writer would otherwise pick up, e.g. the ICC profile) can follow.
    return Image.frombytes(mode, pixels.size, pixels.tobytes())


def _refuse_input(path: Path, source: Path | None) -> None:
    try:
        target = path.stat()
    except FileNotFoundError:
        return
    if (target.st_dev, target.st_ino) in _LOADED_INPUTS or (
        source is not None and Path(source).exists() and os.path.samefile(path, source)
    ):
        raise BadImageError(f"refusing to overwrite the input image {path}")
