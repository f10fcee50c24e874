"""The trap PDF every end-to-end PDF test redacts, and the checks on what comes out.

Three pages. Page 1 (born-digital): a name, a diagnosis to keep, a name in white text, a
name hidden under an opaque image, a name under a filled black rectangle (the classic
failed redaction), a name split across two lines, and a name whose first half ends the
page. Page 2 (born-digital): the name's second half, then an address. Page 3: a scan (an
image of the words) with an invisible OCR text layer over it that misreads the name, and a
text layer drawn in the normal mode under the scan image. The document also carries the
name in its Info dictionary, XMP metadata, a comment, a filled form field, an embedded
file, JavaScript and an outline title.

The hidden names are text-layer words no reader of the page sees: they are not read at all
(`redacto.pdf.visible`), so they reach neither the model nor `redacted.txt`.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from devtools.fixtures.pdf_builder import PAGE_H, PAGE_W, Doc, Page, draw_image, text
from redacto.document import ImageReading
from redacto.inputs import RedactOutcome, redact_path
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from scripted_models import trusting

NAME = "Jane Smith"
HIDDEN = "Wolfgang Hiddenberg"  # under the image
WHITE = "Whitney Whitefield"  # white on white
COVERED = "Blanche Blackwood"  # under a black rectangle drawn over it
UNDER_SCAN = "Ursula Underscan"  # a normal text layer the scan image is drawn over
NEVER_SHOWN = (HIDDEN, WHITE, COVERED, UNDER_SCAN, "Jone", "Smyth")
"""Every value of the trap PDF that its pages hold as text but do not show."""


def scanned_page_image() -> Image.Image:
    """A 200-dpi "scan" of two lines, as a scanner's image of a printed page."""
    image = Image.new("RGB", (1700, 1100), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=64)
    draw.text((160, 250), f"Patient {NAME}", fill=(0, 0, 0), font=font)
    draw.text((160, 500), "Diagnosis fracture", fill=(0, 0, 0), font=font)
    return image


def trap_pdf(path: Path) -> Path:
    cover = Image.new("RGB", (40, 10), (200, 200, 200))
    page_one = Page(
        text(54, 340, f"Patient: {NAME}")
        + text(54, 310, "Diagnosis: fracture")
        + text(54, 280, WHITE, colour="1 1 1")
        + text(54, 250, HIDDEN)
        + draw_image("Cover", 40, 240, 300, 30)
        + text(54, 120, COVERED)
        + "0 g 40 110 300 30 re f\n"
        + text(54, 200, "Referred by Dr. Alice")
        + text(54, 180, "Marlowe last week.")
        + text(54, 40, "Emergency contact: Robert"),
        images={"Cover": cover},
        annotation=f"Call {NAME}",
    )
    page_two = Page(text(54, 340, "Brown, 12 Harbour Road") + text(54, 310, "Plan: rest"))
    page_three = Page(
        text(58, 120, UNDER_SCAN, size=23)
        + draw_image("Scan", 0, 0, PAGE_W, PAGE_H)
        + text(58, 300, "Patient Jone Smyth", size=23, mode=3)
        + text(58, 210, "Diagnosis fracture", size=23, mode=3),
        images={"Scan": scanned_page_image()},
    )
    return Doc(
        [page_one, page_two, page_three],
        info_author=NAME,
        xmp_creator=NAME,
        form_value=NAME,
        attachment=f"Notes about {NAME}",
        javascript=NAME,
        outline_title=NAME,
    ).write(path)


TRAP_REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": [f"NAME: {NAME}\nNAME: Alice Marlowe\nNAME: Robert Brown\nADDRESS: 12 Harbour Road"],
    "validate": ["PASS"],
}
"""Detect names every name and the address the pages show (the page read as text lines, so
each value is placed on every word it covers, across line and page breaks): nothing
personal is left readable, so the residual check has nothing to flag and the run passes."""

SILENT_REPLIES = {"classify": ["CATEGORY: Medical"], "detect": ["NONE"], "validate": ["PASS"]}
"""A model that names nothing: whatever stays out of `redacted.txt` did so by reading."""


def redact_scripted(source: Path, replies: dict[str, list[str]], out: Path) -> RedactOutcome:
    """`redact_path` on a PDF with canned replies per step, the page read as text: how
    every end-to-end PDF test runs the pipeline."""
    return redact_path(
        source,
        out,
        trusting(replies),
        prompts=PromptLibrary.load(),
        options=PipelineOptions(image_reading=ImageReading.TEXT),
    )
