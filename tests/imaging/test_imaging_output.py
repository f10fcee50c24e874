"""burn_boxes blacks out exactly its boxes; save_clean_png writes pixels and nothing else."""

from __future__ import annotations

import hashlib
import os
import struct
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageCms, PngImagePlugin

from redacto.document import Box
from redacto.imaging.raster import (
    BadImageError,
    burn_boxes,
    load_input_image,
    pixel_bounds,
    save_clean_png,
)


def noise(size: tuple[int, int] = (120, 80)) -> Image.Image:
    rng = np.random.default_rng(7)
    pixels = rng.integers(20, 256, size=(size[1], size[0], 3), dtype=np.uint8)
    return Image.fromarray(pixels, "RGB")


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        (Box(x0=10, y0=20, x1=30, y1=40), (10, 20, 30, 40)),
        (Box(x0=10.2, y0=20.7, x1=29.1, y1=39.01), (10, 20, 30, 40)),
        (Box(x0=-5, y0=-3.5, x1=8, y1=6), (0, 0, 8, 6)),
        (Box(x0=110, y0=70, x1=500, y1=90.5), (110, 70, 120, 80)),
        (Box(x0=10, y0=10, x1=10, y1=30), None),
        (Box(x0=130, y0=10, x1=150, y1=30), None),
        (Box(x0=3.5, y0=3.5, x1=3.6, y1=3.6), (3, 3, 4, 4)),
    ],
)
def test_pixel_bounds_round_outward_and_clip(
    box: Box, expected: tuple[int, int, int, int] | None
) -> None:
    assert pixel_bounds(box, (120, 80)) == expected


def test_burn_boxes_blacks_out_exactly_the_boxes_and_leaves_the_original() -> None:
    original = noise()
    before = np.asarray(original).copy()
    boxes = [
        Box(x0=10.2, y0=20.7, x1=29.1, y1=39.01),
        Box(x0=100, y0=60, x1=400, y1=400),
        Box(x0=50, y0=5, x1=50, y1=9),
    ]

    burned = burn_boxes(original, boxes)

    after = np.asarray(burned)
    expected_black = np.zeros(before.shape[:2], dtype=bool)
    expected_black[20:40, 10:30] = True
    expected_black[60:80, 100:120] = True
    assert (after[expected_black] == 0).all()
    assert (after[~expected_black] == before[~expected_black]).all()
    assert (np.asarray(original) == before).all()
    assert burned is not original


@pytest.mark.parametrize(
    ("mode", "black"), [("RGB", (0, 0, 0)), ("RGBA", (0, 0, 0, 255)), ("L", 0)]
)
def test_burn_boxes_is_opaque_black_in_every_mode(mode: str, black: object) -> None:
    image = Image.new(mode, (20, 20), "white" if mode != "RGBA" else (255, 255, 255, 0))
    burned = burn_boxes(image, [Box(x0=2, y0=2, x1=8, y1=8)])
    assert burned.getpixel((5, 5)) == black
    assert burned.getpixel((15, 15)) == image.getpixel((15, 15))


def png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kinds.append(data[offset + 4 : offset + 8])
        offset += 12 + length
    return kinds


def photo_with_metadata(path: Path) -> None:
    """A JPEG carrying GPS EXIF, a camera make and an ICC profile, as phones write them."""
    exif = Image.Exif()
    exif[0x010F] = "ExampleCam"
    exif[0x8825] = {1: "N", 2: (52.0, 13.0, 7.5), 3: "E", 4: (4.0, 53.0, 1.2)}
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    noise().save(path, format="JPEG", exif=exif, icc_profile=profile, quality=95)


def test_save_clean_png_strips_every_kind_of_metadata(tmp_path: Path) -> None:
    source = tmp_path / "photo.jpg"
    photo_with_metadata(source)
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    loaded = load_input_image(source)
    with Image.open(source) as raw:
        assert raw.getexif().get_ifd(0x8825), "the fixture must really carry GPS"
        assert raw.info.get("icc_profile")
    tagged = loaded.image.copy()
    tagged.info.update({"icc_profile": b"x" * 64, "exif": b"Exif\0\0junk", "comment": "secret"})
    out = tmp_path / "redacted.png"

    save_clean_png(tagged, out)

    data = out.read_bytes()
    assert set(png_chunks(data)) == {b"IHDR", b"IDAT", b"IEND"}
    with Image.open(out) as written:
        assert written.format == "PNG"
        assert dict(written.getexif()) == {}
        assert written.info == {}
        assert np.array_equal(np.asarray(written.convert("RGB")), np.asarray(loaded.image))
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photo.jpg", "redacted.png"]


def test_save_clean_png_drops_text_chunks_from_a_png_source(tmp_path: Path) -> None:
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Jane Example")
    buffer = BytesIO()
    noise().save(buffer, format="PNG", pnginfo=info)
    buffer.seek(0)
    with Image.open(buffer) as tagged:
        tagged.load()
        assert tagged.info.get("Author") == "Jane Example"
        out = tmp_path / "clean.png"
        save_clean_png(tagged, out)
    assert b"Jane" not in out.read_bytes()
    assert set(png_chunks(out.read_bytes())) == {b"IHDR", b"IDAT", b"IEND"}


def test_save_clean_png_refuses_to_overwrite_a_loaded_input(tmp_path: Path) -> None:
    source = tmp_path / "page.png"
    noise().save(source)
    before = source.read_bytes()
    loaded = load_input_image(source)
    link = tmp_path / "link.png"
    link.symlink_to(source)
    hard = tmp_path / "hard.png"
    os.link(source, hard)

    for target in (source, link, hard):
        with pytest.raises(BadImageError, match="refusing to overwrite"):
            save_clean_png(loaded.image, target)
    assert source.read_bytes() == before


def test_save_clean_png_refuses_an_explicit_source(tmp_path: Path) -> None:
    source = tmp_path / "never-loaded.png"
    noise().save(source)
    before = source.read_bytes()
    with pytest.raises(BadImageError, match="refusing to overwrite"):
        save_clean_png(noise(), source, source=source)
    assert source.read_bytes() == before


def test_save_clean_png_replaces_atomically_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "redacted.png"
    save_clean_png(noise(), out)
    first = out.read_bytes()

    def failing_save(self: Image.Image, fp: object, *args: object, **kwargs: object) -> None:
        fp.write(b"half a png")  # type: ignore[attr-defined]
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", failing_save)
    with pytest.raises(OSError, match="disk full"):
        save_clean_png(burn_boxes(noise(), [Box(x0=0, y0=0, x1=50, y1=50)]), out)

    assert out.read_bytes() == first
    assert [p.name for p in tmp_path.iterdir()] == ["redacted.png"]
