"""load_input_image: what it accepts, what it refuses and why, and that it never writes."""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from redacto.imaging.raster import MAX_PIXELS, BadImageError, load_image_bytes, load_input_image

SECRET = "Jane Example 123-45-6789"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def page(size: tuple[int, int] = (320, 200)) -> Image.Image:
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).rectangle((10, 10, 60, 40), fill=(200, 0, 0))
    return image


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares a size but holds no pixel data: only the header is ever read."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("suffix", "pillow_format", "expected"),
    [
        (".png", "PNG", "png"),
        (".jpg", "JPEG", "jpeg"),
        (".jpeg", "JPEG", "jpeg"),
        (".webp", "WEBP", "webp"),
    ],
)
def test_supported_formats_decode_to_rgb_without_touching_the_file(
    tmp_path: Path, suffix: str, pillow_format: str, expected: str
) -> None:
    path = tmp_path / f"page{suffix}"
    page().save(path, format=pillow_format)
    before = sha256(path)

    loaded = load_input_image(path)

    assert loaded.format == expected
    assert loaded.size == (320, 200) == loaded.image.size
    assert loaded.image.mode == "RGB"
    assert loaded.path == path
    red, green, _ = loaded.image.getpixel((30, 25))
    assert red > 150 and green < 60
    assert sha256(path) == before


def _write(tmp_path: Path, name: str, content: bytes | None) -> Path:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    return path


def _encoded(pillow_format: str) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    noisy = Image.effect_noise((400, 300), 60).convert("RGB")
    noisy.save(buffer, format=pillow_format)
    return buffer.getvalue()


def _corrupt_png() -> bytes:
    data = bytearray(_encoded("PNG"))
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(byte ^ 0x5A for byte in data[middle : middle + 64])
    return bytes(data)


BAD_INPUTS = [
    ("missing", "absent.png", None, "not found"),
    ("empty", "empty.png", b"", "empty"),
    ("text", "notes.png", f"Patient {SECRET}\n".encode(), "not an image"),
    ("garbage", "noise.jpg", bytes(range(256)) * 8, "not an image"),
    ("truncated png", "cut.png", _encoded("PNG")[:5000], "corrupt or truncated"),
    ("truncated jpeg", "cut.jpg", _encoded("JPEG")[:3000], "corrupt or truncated"),
    ("truncated webp", "cut.webp", _encoded("WEBP")[:2000], "corrupt or truncated"),
    ("corrupt png", "flipped.png", _corrupt_png(), "corrupt or truncated"),
    ("gif", "anim.gif", _encoded("GIF"), "GIF, which is not supported"),
    ("bmp", "scan.bmp", _encoded("BMP"), "BMP, which is not supported"),
    ("over 100 MP", "huge.png", png_header_only(10_001, 10_000), "limit is 100 megapixels"),
    ("too long a side", "strip.png", png_header_only(20_001, 10), "20000 pixels a side"),
    ("decompression bomb", "bomb.png", png_header_only(40_000, 40_000), "too large"),
    ("zero width", "zero.png", png_header_only(0, 10), "not an image"),
]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [case[1:] for case in BAD_INPUTS],
    ids=[case[0] for case in BAD_INPUTS],
)
def test_bad_inputs_raise_a_clear_error_without_content(
    tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    path = _write(tmp_path, name, content)
    before = path.read_bytes() if content is not None else None

    with pytest.raises(BadImageError, match=message) as raised:
        load_input_image(path)

    assert SECRET not in str(raised.value)
    assert "Jane" not in str(raised.value)
    if before is not None:
        assert path.read_bytes() == before


def test_a_directory_is_not_an_image(tmp_path: Path) -> None:
    with pytest.raises(BadImageError, match="not a regular file"):
        load_input_image(tmp_path)


def test_a_50_megapixel_phone_photo_is_accepted(tmp_path: Path) -> None:
    width, height = 8660, 5773
    assert width * height < MAX_PIXELS
    photo = Image.new("L", (width, height), 245)
    ImageDraw.Draw(photo).rectangle((8000, 5000, 8400, 5300), fill=10)
    path = tmp_path / "phone.jpg"
    photo.save(path, format="JPEG", quality=70)
    del photo

    loaded = load_input_image(path)

    assert loaded.size == (width, height)
    assert loaded.image.mode == "RGB"
    assert loaded.image.getpixel((8200, 5150))[0] < 40
    assert loaded.image.getpixel((100, 100))[0] > 200


# Orientation tag → where the marker drawn at the stored image's top-left corner appears.
ORIENTATIONS = [
    (1, (300, 200), "top-left"),
    (3, (300, 200), "bottom-right"),
    (6, (200, 300), "top-right"),
    (8, (200, 300), "bottom-left"),
]


@pytest.mark.parametrize(("orientation", "shown_size", "corner"), ORIENTATIONS)
def test_exif_orientation_is_applied_so_boxes_match_what_the_user_sees(
    tmp_path: Path, orientation: int, shown_size: tuple[int, int], corner: str
) -> None:
    stored = Image.new("RGB", (300, 200), "white")
    ImageDraw.Draw(stored).rectangle((0, 0, 39, 39), fill=(0, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "rotated.jpg"
    stored.save(path, format="JPEG", exif=exif, quality=95)
    before = sha256(path)

    loaded = load_input_image(path)

    assert loaded.size == shown_size
    assert loaded.orientation == orientation
    width, height = shown_size
    corners = {
        "top-left": (10, 10),
        "top-right": (width - 10, 10),
        "bottom-left": (10, height - 10),
        "bottom-right": (width - 10, height - 10),
    }
    for name, point in corners.items():
        dark = loaded.image.getpixel(point)[0] < 60
        assert dark == (name == corner), name
    assert sha256(path) == before


def test_transparent_png_is_shown_on_white(tmp_path: Path) -> None:
    image = Image.new("RGBA", (50, 40), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle((0, 0, 9, 9), fill=(0, 0, 255, 255))
    path = tmp_path / "alpha.png"
    image.save(path)

    loaded = load_input_image(path)

    assert loaded.image.mode == "RGB"
    assert loaded.image.getpixel((30, 30)) == (255, 255, 255)
    assert loaded.image.getpixel((5, 5)) == (0, 0, 255)


def test_sixteen_bit_grayscale_is_scaled_not_clipped(tmp_path: Path) -> None:
    import numpy as np

    levels = (np.arange(64 * 32).reshape(32, 64) * 30).astype(np.uint16)
    path = tmp_path / "scan16.png"
    Image.fromarray(levels).save(path)

    loaded = load_input_image(path)

    assert loaded.image.mode == "RGB"
    assert loaded.image.getpixel((63, 31)) == (int(levels[31, 63]) >> 8,) * 3
    assert loaded.image.getpixel((0, 0)) == (0, 0, 0)


def test_a_phone_mpo_jpeg_is_read_as_its_primary_image(tmp_path: Path) -> None:
    # Many phone cameras append an MPF image (preview, depth map): Pillow opens it as MPO.
    primary = page((320, 200))
    second = Image.new("RGB", (80, 50), "black")
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated 90° as stored: the primary's orientation still applies
    path = tmp_path / "phone.jpg"
    primary.save(path, format="MPO", save_all=True, append_images=[second], exif=exif)
    with Image.open(path) as opened:
        assert opened.format == "MPO" and getattr(opened, "n_frames", 1) == 2
    before = sha256(path)

    loaded = load_input_image(path)

    assert loaded.format == "jpeg" and loaded.orientation == 6
    assert loaded.size == (200, 320)
    assert loaded.image.getpixel((100, 160))[0] > 200  # white page, not the black second image
    assert sha256(path) == before


@pytest.mark.parametrize("in_memory", [False, True], ids=["file", "upload"])
def test_a_run_may_take_photos_only_up_to_a_lower_pixel_limit(
    tmp_path: Path, in_memory: bool
) -> None:
    """The review server's `--max-megapixels`: refused from the header, before any pixel is
    decoded (this PNG has none), with the size and the limit; the product's own limit stays
    for every other run."""
    path = _write(tmp_path, "wide.png", png_header_only(2_000, 1_000))
    with pytest.raises(BadImageError, match=r"2000x1000 pixels \(2 MP\); .* up to 1 MP"):
        if in_memory:
            load_image_bytes(path.read_bytes(), path, max_pixels=1_000_000)
        else:
            load_input_image(path, max_pixels=1_000_000)
    with pytest.raises(BadImageError, match="corrupt or truncated"):
        load_input_image(path)  # under the product's limit: read, and found to hold no pixels
