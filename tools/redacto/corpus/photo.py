"""Make a clean page look like a phone photo, moving every gold box with the pixels.

The page is laid on a desk, rotated 1–2° and scaled (one affine map), lit unevenly, blurred,
given sensor noise and saved as JPEG. A word box is carried through the same map: its four
corners are transformed and the box becomes their axis-aligned bounding box.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

DESKS = ((74, 62, 52), (118, 108, 98), (44, 46, 52), (150, 140, 120), (96, 84, 70))


@dataclass(frozen=True)
class PhotoMap:
    """The affine map from clean-page pixels to photo pixels: p' = s·R(p − c_in) + c_out."""

    angle_deg: float
    scale: float
    centre_in: tuple[float, float]
    centre_out: tuple[float, float]

    def forward(self, x: float, y: float) -> tuple[float, float]:
        theta = math.radians(self.angle_deg)
        dx, dy = x - self.centre_in[0], y - self.centre_in[1]
        return (
            self.scale * (math.cos(theta) * dx - math.sin(theta) * dy) + self.centre_out[0],
            self.scale * (math.sin(theta) * dx + math.cos(theta) * dy) + self.centre_out[1],
        )

    def inverse_coefficients(self) -> tuple[float, ...]:
        """PIL's AFFINE data: output pixel → input pixel."""
        theta = math.radians(self.angle_deg)
        cos, sin, s = math.cos(theta), math.sin(theta), self.scale
        (cix, ciy), (cox, coy) = self.centre_in, self.centre_out
        return (
            cos / s,
            sin / s,
            cix - (cos * cox + sin * coy) / s,
            -sin / s,
            cos / s,
            ciy - (-sin * cox + cos * coy) / s,
        )

    def box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """The axis-aligned bounding box of a box's transformed corners."""
        x0, y0, x1, y1 = box
        corners = [self.forward(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)


def photograph(page: Image.Image, rng: random.Random) -> tuple[bytes, PhotoMap, tuple[int, int]]:
    """JPEG bytes of the degraded photo, the map it applied, and its size."""
    margin = rng.randrange(30, 70)
    desk = rng.choice(DESKS)
    framed = Image.new("RGB", (page.width + 2 * margin, page.height + 2 * margin), desk)
    framed.paste(page, (margin, margin))

    angle = rng.uniform(1.0, 2.0) * rng.choice((-1, 1))
    scale = rng.uniform(0.86, 1.0)
    theta = math.radians(angle)
    width = math.ceil(
        scale * (framed.width * abs(math.cos(theta)) + framed.height * abs(math.sin(theta)))
    )
    height = math.ceil(
        scale * (framed.width * abs(math.sin(theta)) + framed.height * abs(math.cos(theta)))
    )
    photo_map = PhotoMap(
        angle_deg=angle,
        scale=scale,
        centre_in=(framed.width / 2 - margin, framed.height / 2 - margin),  # in clean-page pixels
        centre_out=(width / 2, height / 2),
    )
    framed_map = PhotoMap(
        angle, scale, (framed.width / 2, framed.height / 2), (width / 2, height / 2)
    )
    photo = framed.transform(
        (width, height),
        Image.Transform.AFFINE,
        framed_map.inverse_coefficients(),
        resample=Image.Resampling.BICUBIC,
        fillcolor=desk,
    )
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.1)))

    pixels = np.asarray(photo, dtype=np.float32)
    noise_rng = np.random.default_rng(rng.randrange(2**32))
    pixels = pixels * _lighting(width, height, rng)[..., None]
    pixels += noise_rng.standard_normal(pixels.shape, dtype=np.float32) * rng.uniform(3.0, 7.0)
    photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")

    buffer = io.BytesIO()
    photo.save(buffer, format="JPEG", quality=rng.randrange(72, 90))
    return buffer.getvalue(), photo_map, (width, height)


def _lighting(width: int, height: int, rng: random.Random) -> np.ndarray:
    """A brightness field: a linear fall-off from a lit corner plus a soft vignette."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xs / width - 0.5) * math.cos(direction) + (ys / height - 0.5) * math.sin(direction)
    darkest = rng.uniform(0.72, 0.88)
    linear = 1.0 - (ramp + 0.71) / 1.42 * (1.0 - darkest)
    radius = ((xs / width - 0.5) ** 2 + (ys / height - 0.5) ** 2) ** 0.5
    vignette = 1.0 - 0.12 * radius**2
    return (linear * vignette).astype(np.float32)
