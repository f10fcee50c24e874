"""Synthetic form pages with known word ink boxes, and the scores OCR is judged by.

Tests, `python -m devtools.bench.ocr` and the bundled sample photo all need a page whose every
word's text and true ink box is known. The page is rendered with Pillow (Debian
`fonts-dejavu-core` / `fonts-liberation`) and filled with invented values only: no real
person's data. `degrade_like_photo` turns it into something closer to a phone photo.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

from redacto.document import Box, Element

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation"),
)
REGULAR_FONTS = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf")
BOLD_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "LiberationSerif-Bold.ttf")

# The layout is designed for a 1240 px wide page (A4 at 150 dpi) and scaled from there.
BASE_WIDTH = 1240
BASE_HEIGHT = 1754

FIRST_NAMES = ("Amara", "Jonas", "Priya", "Mateo", "Ingrid", "Tobias", "Leila", "Corin")
LAST_NAMES = ("Okafor", "Lindqvist", "Raman", "Delgado", "Hartmann", "Whitcombe", "Sato")
STREETS = ("Juniper Lane", "Harbor Road", "Willow Crescent", "Mill Street", "Orchard Way")
CITIES = ("Fairhaven", "Brookfield", "Ashton", "Millbrook", "Kingsport")
PROCEDURES = ("Consultation", "Blood panel", "X-ray chest", "Follow-up visit", "Vaccination")


class FontMissingError(RuntimeError):
    """The Debian fonts the renderer needs are not installed."""


@dataclass(frozen=True)
class RenderedWord:
    """One word drawn on a synthetic page: its text, its exact ink box and its line."""

    text: str
    ink_box: Box
    line: int


@dataclass(frozen=True)
class RenderedPage:
    """A synthetic page and the ground truth for every word on it, in reading order."""

    image: Image.Image
    words: tuple[RenderedWord, ...]


def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A TrueType font from the Debian font directories, by file name."""
    for directory in FONT_DIRS:
        candidate = directory / name
        if candidate.is_file():
            return ImageFont.truetype(str(candidate), size)
    raise FontMissingError(
        f"font {name} not found: install Debian fonts-dejavu-core and fonts-liberation"
    )


def form_lines(seed: int) -> list[list[tuple[str, str, float]]]:
    """The page content: lines of (text, style, x as a fraction of the page width).

    Styles: `title`, `label` (bold), `value`, `small` (fine print, 70% size).
    """
    rng = random.Random(seed)
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    kin = f"{rng.choice(FIRST_NAMES)} {last}"
    birth = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(1940, 2005)}"
    visit = f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"
    street = f"{rng.randint(2, 980)} {rng.choice(STREETS)}"
    city = f"{rng.choice(CITIES)} {rng.randint(10000, 99999)}"
    phone = f"(555) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}"
    email = f"{first.lower()}.{last.lower()}@example.org"
    mrn = f"MRN-{rng.randint(1000000, 9999999)}"
    policy = f"{rng.choice('ABCDEFGH')}{rng.randint(100000000, 999999999)}"
    lines: list[list[tuple[str, str, float]]] = [
        [("Riverside Community Clinic", "title", 0.08)],
        [("Patient Intake and Billing Form", "value", 0.08)],
        [("Patient name:", "label", 0.08), (f"{first} {last}", "value", 0.30)],
        [("Date of birth:", "label", 0.08), (birth, "value", 0.30)],
        [("Address:", "label", 0.08), (f"{street}, {city}", "value", 0.30)],
        [
            ("Phone:", "label", 0.08),
            (phone, "value", 0.30),
            ("Email:", "label", 0.56),
            (email, "value", 0.66),
        ],
        [("Record number:", "label", 0.08), (mrn, "value", 0.30)],
        [("Insurance policy:", "label", 0.08), (policy, "value", 0.30)],
        [("Next of kin:", "label", 0.08), (kin, "value", 0.30)],
        [("Date", "label", 0.08), ("Description", "label", 0.30), ("Amount", "label", 0.72)],
    ]
    for _ in range(4):
        amount = f"${rng.randint(20, 900)}.{rng.randint(0, 99):02d}"
        lines.append(
            [
                (visit, "value", 0.08),
                (rng.choice(PROCEDURES), "value", 0.30),
                (amount, "value", 0.72),
            ]
        )
    lines += [
        [("Notes:", "label", 0.08)],
        [
            (
                f"Patient reports mild headaches since {visit}. Referred by Dr. Hartmann",
                "value",
                0.08,
            )
        ],
        [
            (
                f"for review of blood pressure readings. Contact {first} at the number above",
                "value",
                0.08,
            )
        ],
        [
            (
                "before the next appointment. Payment due within 30 days of this invoice.",
                "value",
                0.08,
            )
        ],
        [("Signature:", "label", 0.08), (f"{first[0]}. {last}", "value", 0.30)],
        [(f"Fine print: statement {policy} for {first} {last}, born {birth}.", "small", 0.08)],
        [("Questions about this bill? Call (555) 010-2288 or write to", "small", 0.08)],
        [(f"billing@riverside.example.org quoting {mrn}. Keep this copy.", "small", 0.08)],
    ]
    return lines


def render_form_page(seed: int = 0, width: int = BASE_WIDTH, font_set: int = 0) -> RenderedPage:
    """Render a form-like page (names, dates, numbers) with the ink box of every word.

    `width` scales the whole layout (3024 gives a 12-megapixel phone-sized page);
    `font_set` picks DejaVu Sans (0), Liberation Sans (1) or Liberation Serif (2).
    """
    scale = width / BASE_WIDTH
    height = round(BASE_HEIGHT * scale)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    fonts = {
        "title": load_font(BOLD_FONTS[font_set], round(40 * scale)),
        "label": load_font(BOLD_FONTS[font_set], round(26 * scale)),
        "value": load_font(REGULAR_FONTS[font_set], round(26 * scale)),
        "small": load_font(REGULAR_FONTS[font_set], round(18 * scale)),
    }

    placed: list[tuple[str, tuple[float, float, float, float], int]] = []
    y = round(90 * scale)
    for line_number, segments in enumerate(form_lines(seed)):
        line_font_size: float = 0
        for text, style, x_fraction in segments:
            font = fonts[style]
            line_font_size = max(line_font_size, font.size)
            x = round(x_fraction * width)
            for word in text.split(" "):
                bbox = draw.textbbox((x, y), word, font=font)
                draw.text((x, y), word, font=font, fill=0)
                placed.append((word, bbox, line_number))
                x += round(draw.textlength(word + " ", font=font))
        y += round(line_font_size * (2.2 if line_number in (1, 8, 13, 18) else 1.75))

    words = tuple(
        RenderedWord(text=word, ink_box=ink_box(page, bbox), line=line)
        for word, bbox, line in placed
    )
    return RenderedPage(image=page.convert("RGB"), words=words)


def ink_box(page: Image.Image, bbox: tuple[float, float, float, float]) -> Box:
    """The exact box of dark pixels inside a word's layout box (margin for antialiasing)."""
    x0, y0, x1, y1 = bbox
    margin = 2
    region = page.crop((x0 - margin, y0 - margin, x1 + margin, y1 + margin))
    found = ImageOps.invert(region).point(lambda value: 255 if value > 60 else 0).getbbox()
    if found is None:
        return Box(x0=x0, y0=y0, x1=x1, y1=y1)
    return Box(
        x0=x0 - margin + found[0],
        y0=y0 - margin + found[1],
        x1=x0 - margin + found[2],
        y1=y0 - margin + found[3],
    )


def degrade_like_photo(
    page: RenderedPage, seed: int = 0, angle: float = 1.2, frame: float = 1.0
) -> RenderedPage:
    """A phone-photo look: page on a desk, small rotation, uneven light, blur, sensor noise.

    `frame` < 1 shrinks the page to that share of the picture, on a darker background, as
    when a phone photographs a whole sheet. The words' boxes follow the framing and the
    rotation (as the hull of each rotated ink box, so a little larger than the ink):
    score recall and reading order on the result; measure exact coverage on unrotated pages.
    """
    rng = random.Random(seed)
    gray = page.image.convert("L")
    width, height = gray.size
    offset_x = offset_y = 0.0
    if frame < 1.0:
        desk = Image.new("L", gray.size, 95)
        small = gray.resize((round(width * frame), round(height * frame)))
        offset_x, offset_y = (width - small.width) // 2, (height - small.height) // 2
        desk.paste(small, (int(offset_x), int(offset_y)))
        gray = desk
    rotated = gray.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=95)
    gradient = Image.linear_gradient("L").resize((width, height)).point(lambda v: v * 0.25)
    lit = Image.eval(rotated, lambda v: v * 0.9 + 10)
    lit = Image.composite(Image.new("L", (width, height), 150), lit, gradient)
    blurred = lit.filter(ImageFilter.GaussianBlur(radius=max(0.8, width / 1600)))
    noise = Image.effect_noise((width, height), 18 + rng.random() * 6)
    noisy = Image.blend(blurred, noise, 0.12)

    theta = math.radians(angle)
    cos, sin = math.cos(theta), math.sin(theta)
    center_x, center_y = width / 2, height / 2

    def moved(x: float, y: float) -> tuple[float, float]:
        dx = x * frame + offset_x - center_x
        dy = y * frame + offset_y - center_y
        return center_x + dx * cos + dy * sin, center_y - dx * sin + dy * cos

    words = []
    for word in page.words:
        box = word.ink_box
        points = [moved(x, y) for x in (box.x0, box.x1) for y in (box.y0, box.y1)]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        hull = Box(x0=min(xs), y0=min(ys), x1=max(xs), y1=max(ys))
        words.append(RenderedWord(text=word.text, ink_box=hull, line=word.line))
    return RenderedPage(image=noisy.convert("RGB"), words=tuple(words))


_EDGE_PUNCTUATION = re.compile(r"^[^\w$]+|[^\w$]+$")


def normalize_word(text: str) -> str:
    """Compare words ignoring case and leading/trailing punctuation."""
    return _EDGE_PUNCTUATION.sub("", text.casefold())


@dataclass(frozen=True)
class OcrScore:
    """How well OCR elements reproduce a rendered page.

    `recall`: share of rendered words found with the same (normalized) text at the same
    place. `coverage`: for each found word, the share of its ink box inside the pixels
    `burn_boxes` would black out for its OCR box (the thing redaction needs).
    `order_violations`: found words whose OCR index is not after the previous found word's.
    `box_to_ink`: mean area of a found word's burned box over its ink box's area (how much
    redacting one word over-blacks around it).
    """

    words: int
    found: int
    recall: float
    min_coverage: float
    mean_coverage: float
    order_violations: int
    box_to_ink: float


def overlap_area(a: Box, b: Box) -> float:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(0.0, width) * max(0.0, height)


def burned_area(box: Box) -> Box:
    """The whole pixels `redacto.imaging.raster.burn_boxes` blacks out for a box (rounded
    outward)."""
    return Box(
        x0=math.floor(box.x0), y0=math.floor(box.y0), x1=math.ceil(box.x1), y1=math.ceil(box.y1)
    )


def score_ocr(truth: tuple[RenderedWord, ...], elements: list[Element]) -> OcrScore:
    """Match each rendered word to the OCR element with the same text that overlaps it most."""
    coverages: list[float] = []
    growth: list[float] = []
    matched_indices: list[int] = []
    for word in truth:
        target = normalize_word(word.text)
        best: tuple[float, int, Box] | None = None
        for element in elements:
            if element.box is None or normalize_word(element.text) != target:
                continue
            burned = burned_area(element.box)
            covered = overlap_area(word.ink_box, burned)
            if covered > 0 and (best is None or covered > best[0]):
                best = (covered, element.index, burned)
        if best is None:
            continue
        coverages.append(best[0] / max(word.ink_box.area, 1.0))
        growth.append(best[2].area / max(word.ink_box.area, 1.0))
        matched_indices.append(best[1])
    violations = sum(1 for a, b in itertools.pairwise(matched_indices) if b <= a)
    return OcrScore(
        words=len(truth),
        found=len(coverages),
        recall=len(coverages) / max(len(truth), 1),
        min_coverage=min(coverages, default=0.0),
        mean_coverage=sum(coverages) / max(len(coverages), 1),
        order_violations=violations,
        box_to_ink=sum(growth) / max(len(growth), 1),
    )
