"""Write the burn check's golden vectors from the Python reference; check them.

    python -m devtools.generated --check ink-vectors   # exit 1, naming each stale file
    python -m devtools.generated --write ink-vectors   # rewrite tests/vectors/ink/

One file per case below: a small image drawn by Pillow (words in Pillow's own bundled font,
so no system font decides a pixel), the boxes given to `redacto.imaging.ink_cover.cover_ink`, and
what it answers: each box as it is to be burned, and the boxes left unresolved. An RGB image
also lists each of its colours with the grey `convert("L")` gives it, which the Kotlin core
(`InkCoverVectorTest`) must reproduce with `luma` before it can reproduce the boxes.
Format: `tests/vectors/README.md`, "ink/".
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from redacto.document import Box
from redacto.imaging.ink_cover import cover_ink

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "ink"

Json = dict[str, Any]
Colour = int | tuple[int, int, int]
Drawn = tuple[Image.Image, list[Box]]


@dataclass(frozen=True)
class InkCase:
    """One image and its boxes; `draw` makes both."""

    name: str
    description: str
    draw: Callable[[], Drawn]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _words(
    mode: str,
    size: tuple[int, int],
    paper: Colour,
    ink: Colour,
    words: list[str],
    at: tuple[float, float] = (6, 8),
    font_size: int = 18,
) -> tuple[Image.Image, list[Box]]:
    """`words` drawn left to right, a word gap apart, and each word's own ink box."""
    image = Image.new(mode, size, paper)
    draw = ImageDraw.Draw(image)
    font = _font(font_size)
    x, y = at
    boxes = []
    for word in words:
        x0, y0, x1, y1 = draw.textbbox((x, y), word, font=font)
        boxes.append(Box(x0=x0, y0=y0 - 2, x1=x1, y1=y1 + 2))
        draw.text((x, y), word, font=font, fill=ink)
        x += draw.textlength(word, font=font) + 0.6 * font_size
    return image, boxes


def _cut(box: Box, left: float = 0, right: float = 0) -> Box:
    return Box(x0=box.x0 + left, y0=box.y0, x1=box.x1 - right, y1=box.y1)


def _cut_both(mode: str, paper: Colour, ink: Colour) -> Callable[[], Drawn]:
    """The address's box cut on the right, then on the left; the words beside it exact."""

    def draw() -> Drawn:
        image, (before, value, after) = _words(
            mode, (200, 40), paper, ink, ["to", "ana@x.io", "ok"]
        )
        return image, [_cut(value, right=22), _cut(value, left=25), before, after]

    return draw


def _space_before() -> Drawn:
    image, (before, value, after) = _words("L", (180, 40), 255, 0, ["sent", "jo@x.org", "on"])
    padded = Box(x0=before.x1 + 2, y0=value.y0, x1=after.x0 - 2, y1=value.y1)
    return image, [padded, Box(x0=before.x1 + 1.5, y0=value.y0, x1=value.x1 - 6.25, y1=value.y1)]


def _rule_through() -> Drawn:
    image, (_, value, _) = _words("L", (200, 36), 250, 10, ["No", "4471", "22"], font_size=12)
    middle = round((value.y0 + value.y1) / 2)
    ImageDraw.Draw(image).rectangle((30, middle - 1, 190, middle + 1), fill=10)
    return image, [
        Box(x0=value.x0, y0=middle - 4, x1=value.x1, y1=middle + 4),
        Box(x0=value.x0 + 3, y0=middle - 4.5, x1=value.x1 - 3, y1=middle + 3.5),
    ]


def _underline() -> Drawn:
    image, (name, other) = _words("L", (160, 40), 255, 0, ["Ewa", "Lind"])
    ImageDraw.Draw(image).line((0, name.y1 - 1, 159, name.y1 - 1), fill=0, width=1)
    return image, [_cut(name, right=8), other]


def _edges() -> Drawn:
    image, (first, last) = _words("L", (120, 40), 255, 0, ["Mara", "Okafor"], at=(-4, 8))
    return image, [
        _cut(first, left=8),
        Box(x0=last.x0, y0=last.y0, x1=last.x1 - 12, y1=last.y1),
        Box(x0=-3.5, y0=-2.0, x1=10.0, y1=50.0),
        Box(x0=100.0, y0=first.y0, x1=130.0, y1=first.y1),
        Box(x0=125.0, y0=5.0, x1=140.0, y1=20.0),
        Box(x0=20.0, y0=10.0, x1=40.0, y1=13.0),
    ]


def _faint() -> Drawn:
    image, (word,) = _words("L", (100, 36), 250, 232, ["Faint"])
    return image, [_cut(word, right=10)]


def _noisy() -> Drawn:
    rng = np.random.default_rng(45)
    paper = np.clip(228 + rng.normal(0, 9, (40, 180)), 0, 255).astype(np.uint8)
    image = Image.fromarray(paper, "L")
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = draw.textbbox((40, 10), "Okafor", font=_font(18))
    draw.text((40, 10), "Okafor", font=_font(18), fill=30)
    return image, [Box(x0=x0 + 14, y0=y0 - 2, x1=x1 - 14, y1=y1 + 2), Box(x0=5, y0=5, x1=30, y1=30)]


def _two_tone() -> Drawn:
    """Paper of two greys, 101 above and 100 below, half the ring each (dark ink above and
    light ink below, faint ink above and pale ink below, keep the halves even): NumPy's median
    is the mean of the middle two, 100.5, by which both the pale columns before the word (131)
    and the faint ones after it (70) are ink; with 100 as the paper the faint ones would not
    be, with 101 the pale ones."""
    image = Image.new("L", (64, 24), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 63, 11), fill=101)
    draw.rectangle((0, 12, 63, 23), fill=100)
    for left, right in ((20, 23), (26, 41)):
        draw.rectangle((left, 9, right, 11), fill=0)
        draw.rectangle((left, 12, right, 14), fill=201)
    draw.rectangle((42, 10, 45, 11), fill=70)
    draw.rectangle((16, 12, 19, 13), fill=131)
    return image, [Box(x0=28.0, y0=8.0, x1=36.0, y1=16.0)]


def _colour_noise() -> Drawn:
    """Random colours, each with its grey: the conversion on colours text rarely has."""
    rng = np.random.default_rng(601)
    image = Image.fromarray(rng.integers(0, 256, (12, 48, 3), dtype=np.uint8), "RGB")
    return image, [Box(x0=16.0, y0=3.0, x1=32.0, y1=9.0)]


CASES = (
    InkCase(
        "black_on_white",
        "Black words on white; the address's box cut on each side is widened over the rest of "
        "its word and no further; the exact boxes beside it are left as they are.",
        _cut_both("L", 255, 0),
    ),
    InkCase(
        "grey_on_white",
        "RGB grey 0.8 words on white.",
        _cut_both("RGB", (255, 255, 255), (204, 204, 204)),
    ),
    InkCase(
        "light_blue",
        "RGB light blue words on white.",
        _cut_both("RGB", (255, 255, 255), (120, 160, 235)),
    ),
    InkCase(
        "white_on_dark_blue",
        "RGB white words on dark blue: light on dark is ink too.",
        _cut_both("RGB", (20, 40, 90), (255, 255, 255)),
    ),
    InkCase("white_on_black", "Grey-level white words on black.", _cut_both("L", 0, 255)),
    InkCase(
        "space_before_word",
        "Boxes that begin in the space after the word before (one on a fractional edge): "
        "the word before is not taken in.",
        _space_before,
    ),
    InkCase(
        "rule_through_text",
        "A rule drawn through the words runs on past the reach: both boxes unresolved.",
        _rule_through,
    ),
    InkCase(
        "underline",
        "An underline below the words lies outside the glyphs' middle band: not followed.",
        _underline,
    ),
    InkCase(
        "image_edges",
        "Words cut by the image's edges: the edge ends the word; boxes past the edge, "
        "too low (under 4 rows) or outside the image.",
        _edges,
    ),
    InkCase(
        "faint", "Ink closer to the paper than the minimum contrast: nothing is followed.", _faint
    ),
    InkCase(
        "noisy_paper", "A word on noisy paper (a photo's grain), and a box on grain alone.", _noisy
    ),
    InkCase("two_tone_paper", "Paper whose median falls between two greys (a half).", _two_tone),
    InkCase("colour_noise", "Random RGB colours: their greys, and a box over them.", _colour_noise),
)


def _image(image: Image.Image) -> Json:
    return {
        "mode": image.mode,
        "width": image.width,
        "height": image.height,
        "zlib_base64": base64.b64encode(zlib.compress(image.tobytes(), 9)).decode("ascii"),
    }


def _greys(image: Image.Image) -> list[tuple[int, int]]:
    """Each colour of an RGB image, as 0xRRGGBB, with its grey from `convert("L")`."""
    if image.mode != "RGB":
        return []
    rgb = np.asarray(image, dtype=np.int64).reshape(-1, 3)
    packed = rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]
    grey = np.asarray(image.convert("L"), dtype=np.int64).reshape(-1)
    return sorted({(int(c), int(g)) for c, g in zip(packed, grey, strict=True)}, key=lambda p: p[0])


def _boxes(boxes: Any) -> list[list[float]]:
    return [[box.x0, box.y0, box.x1, box.y1] for box in boxes]


def vector(case: InkCase) -> Json:
    """One case's file: the image, its boxes and `cover_ink`'s answer."""
    image, boxes = case.draw()
    covered = cover_ink(image, boxes)
    return {
        "name": case.name,
        "description": case.description,
        "image": _image(image),
        "greys": [list(pair) for pair in _greys(image)],
        "boxes": _boxes(boxes),
        "covered": _boxes(covered.boxes),
        "unresolved": _boxes(covered.unresolved),
    }


def stored_image(vector: Json) -> Image.Image:
    """The image a vector file holds."""
    image = vector["image"]
    raw = zlib.decompress(base64.b64decode(image["zlib_base64"]))
    return Image.frombytes(image["mode"], (image["width"], image["height"]), raw)


def render(vector: Json) -> str:
    """The file text of one vector."""
    return json.dumps(vector, indent=1) + "\n"


def outputs() -> dict[str, str]:
    """Every vector file (relative to the repository root) and its text."""
    relative = VECTORS.relative_to(ROOT).as_posix()
    return {f"{relative}/{case.name}.json": render(vector(case)) for case in CASES}
