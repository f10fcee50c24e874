"""Two invented CVs, English and French, as born-digital and scanned one-page PDFs, on a
short 8.5 × 6.9 in page (quick to OCR), A4 (595 × 842 pt) or US Letter (612 × 792 pt).

Every value is invented. Each CV holds the mistakes the proofreading tests place, laid
out so that each of the locator's four strategies is needed by one of them: a typo that
occurs twice (only its context, a name, tells which), typographic apostrophes and a
`d’` drawn apart from `une`, a second column the context is taken from, and words the
text layer glues (`basic|Germna.`: `|` is a gap drawn by kerning, with no space
character, as many PDF producers write one).

Born-digital pages are Helvetica text (WinAnsiEncoding, so `’`, `é`, `ç` are real
characters of the text layer); scanned pages are the same lines drawn by Pillow at 200 dpi
and embedded as the page's only content, so the pipeline reads them with OCR. The lines sit
at the same place from the page's top-left corner whatever its size, so on a tall page a
wrong page height moves every box.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from devtools.fixtures.pdf_builder import write_objects

SCAN_DPI = 200
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
GAP_EM = 0.1
"""The kerning gap a `|` stands for, in ems."""


@dataclass(frozen=True)
class PageSize:
    """A page's name (in test ids) and its width and height in points."""

    name: str
    width: float
    height: float


SHORT = PageSize("short", 612, 500)
"""8.5 × 6.9 in: as wide as Letter, short enough that OCR reads it quickly."""
A4 = PageSize("a4", 595, 842)
LETTER = PageSize("letter", 612, 792)


@dataclass(frozen=True)
class Line:
    """Text drawn from (x, y): points from the page's left and top edges, baseline."""

    x: float
    y: float
    text: str
    size: float = 11


ENGLISH_NAME = "Jonathan Whitcombe"
ENGLISH_EMAIL = "jonathan.whitcombe@example.org"
ENGLISH_PHONE = "+1 415 555 0142"
ENGLISH_ADDRESS = "42 Willow Crescent, Fairhaven"

ENGLISH_CV = [
    Line(50, 50, ENGLISH_NAME, 18),
    Line(50, 75, f"Email: {ENGLISH_EMAIL}"),
    Line(50, 92, f"Phone: {ENGLISH_PHONE}"),
    Line(50, 109, f"Address: {ENGLISH_ADDRESS}"),
    Line(50, 140, "Profile", 13),
    Line(50, 160, "Data analyst who recieved a master degree in statistics in 2016."),
    Line(50, 177, f"In 2021 {ENGLISH_NAME} recieved the analyst award of the year."),
    Line(50, 210, "Experience", 13),
    Line(330, 210, "Skills", 13),
    Line(50, 230, "Senior analyst at a logistics firm,"),
    Line(330, 230, "Python, SQL and statistics."),
    Line(50, 247, "led a team of five and"),
    Line(330, 247, "Fluent in French and"),
    Line(50, 264, "managed the quartely reports."),
    Line(330, 264, "Spanish, basic|Germna."),
    Line(50, 300, "References available on request.", 10),
]

FRENCH_NAME = "Marie-Claire Dubois"
FRENCH_EMAIL = "marie.dubois@exemple.fr"
FRENCH_PHONE = "06 12 34 56 78"
FRENCH_ADDRESS = "12 rue des Lilas, 69003 Lyon"

FRENCH_CV = [
    Line(50, 50, FRENCH_NAME, 18),
    Line(50, 75, f"Courriel : {FRENCH_EMAIL}"),
    Line(50, 92, f"Téléphone : {FRENCH_PHONE}"),
    Line(50, 109, f"Adresse : {FRENCH_ADDRESS}"),
    Line(50, 140, "Profil", 13),
    Line(50, 160, "Titulaire d’une licence en gestion, j’ai travailler six ans dans l’industrie."),
    Line(50, 177, "Dotée d’ une expériance de la logistique, je cherche un poste à Lyon."),
    Line(50, 194, f"En 2020, {FRENCH_NAME} a recu le prix de l’innovation ;"),
    Line(50, 211, "elle a recu aussi une mention du jury."),
    Line(50, 245, "Compétences", 13),
    Line(50, 265, "Gestion de projet, tableurs, anglais courant."),
]


@dataclass(frozen=True)
class Frame:
    """How the upright page lies in the PDF's own space: turned by /Rotate (clockwise, as a
    viewer turns it) and offset by a CropBox inside a larger MediaBox."""

    rotate: int = 0
    left: float = 0.0
    bottom: float = 0.0
    page: PageSize = SHORT
    """The upright page's size."""

    @property
    def size(self) -> tuple[float, float]:
        """The unrotated visible area's width and height."""
        upright = (self.page.width, self.page.height)
        return (upright[1], upright[0]) if self.rotate % 180 else upright

    def user_point(self, x: float, y: float) -> tuple[float, float]:
        """The page-space point shown at (x, y) from the upright page's top-left."""
        width, height = self.size
        u, v = {
            0: (x, height - y),
            90: (y, x),
            180: (width - x, y),
            270: (width - y, height - x),
        }[self.rotate]
        return self.left + u, self.bottom + v

    def text_matrix(self) -> str:
        """The turn that makes glyphs run left to right on the upright page."""
        return {0: "1 0 0 1", 90: "0 1 -1 0", 180: "-1 0 0 -1", 270: "0 -1 1 0"}[self.rotate]

    def boxes(self) -> str:
        width, height = self.size
        if not (self.left or self.bottom):
            return f"/MediaBox [0 0 {width} {height}] /Rotate {self.rotate}"
        # the MediaBox reaches past the CropBox on every side: only the CropBox shows
        media = f"/MediaBox [0 0 {self.left + width + 30} {self.bottom + height + 20}]"
        crop = f"/CropBox [{self.left} {self.bottom} {self.left + width} {self.bottom + height}]"
        return f"{media} {crop} /Rotate {self.rotate}"


def write_born_digital(lines: list[Line], path: Path, frame: Frame = Frame()) -> Path:
    """A PDF whose words are real text (Helvetica, WinAnsiEncoding), shown upright through
    `frame`."""
    content = "".join(_text_operator(line, frame) for line in lines).encode("cp1252")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R {frame.boxes()} "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        _stream(b"", content),
    ]
    return write_objects(path, objects, "/Root 1 0 R")


def write_scanned(lines: list[Line], path: Path, page: PageSize = SHORT) -> Path:
    """A PDF whose only content is a picture of the lines (no text layer: OCR reads it)."""
    image = scan_image(lines, page=page)
    data = zlib.compress(image.tobytes())
    draw = f"q {page.width} 0 0 {page.height} 0 0 cm /Scan Do Q\n".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page.width} {page.height}] "
        "/Resources << /XObject << /Scan 4 0 R >> >> /Contents 5 0 R >>".encode(),
        _stream(
            f"/Type /XObject /Subtype /Image /Width {image.width} /Height {image.height} "
            "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode".encode(),
            data,
        ),
        _stream(b"", draw),
    ]
    return write_objects(path, objects, "/Root 1 0 R")


def scan_image(lines: list[Line], dpi: int = SCAN_DPI, page: PageSize = SHORT) -> Image.Image:
    """The lines drawn black on white, as a scanner at `dpi` would capture the page."""
    scale = dpi / 72
    image = Image.new("RGB", (round(page.width * scale), round(page.height * scale)), "white")
    draw = ImageDraw.Draw(image)
    for line in lines:
        font = ImageFont.truetype(FONT, round(line.size * scale))
        x = line.x * scale
        for part in line.text.split("|"):
            draw.text((x, line.y * scale), part, font=font, fill="black", anchor="ls")
            x += draw.textlength(part, font=font) + GAP_EM * line.size * scale
    return image


def _text_operator(line: Line, frame: Frame) -> str:
    parts = [_escape(part) for part in line.text.split("|")]
    gap = round(-GAP_EM * 1000)
    array = f" {gap} ".join(f"({part})" for part in parts)
    x, y = frame.user_point(line.x, line.y)
    return f"BT /F1 {line.size} Tf {frame.text_matrix()} {x} {y} Tm [{array}] TJ ET\n"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return (
        b"<< "
        + dictionary
        + f" /Length {len(data)} >>\nstream\n".encode()
        + data
        + (b"\nendstream")
    )
