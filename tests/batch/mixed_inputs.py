"""A folder of inputs as a records office holds them: letters in English and French, photos
of pages, born-digital and scanned PDFs on A4 and Letter, and two broken files.

Short on purpose: the tiny test model's KV cache holds 1,024 tokens.
"""

from __future__ import annotations

from pathlib import Path

from cli_runs import render_short_page
from devtools.fixtures.pdf_builder import Doc
from page_shapes import SHAPES

LETTERS = {
    "letters/chen.txt": "Dear Mrs. Chen, your MRN 4471829 visit is booked. Call 408-555-1234.\n",
    "letters/martin.txt": "Mr. Paul Martin, 22 Baker Street, London. Email paul@example.com\n",
    "letters/dupont.txt": "Madame Dupont habite 12 rue des Lilas, 69003 Lyon.\n",
    "letters/bernard.txt": "Monsieur Luc Bernard, né le 3 mai 1980, tél. 06 12 34 56 78.\n",
    "letters/old/garcia.txt": "Ms. Ana Garcia paid with card 4111 1111 1111 1111.\n",
    "letters/old/leroy.txt": "Mme Claire Leroy, IBAN FR76 3000 6000 0112 3456 7890 189.\n",
    "notes/visit.md": "# Visit\n\nJane Smith saw Dr. Patel on 4 June.\r\n",
    "notes/call.txt": "Call back John Doe at 555-0100 about the invoice.\n",
    "notes/rappel.txt": "Rappeler Sophie Martin au 01 23 45 67 89 avant vendredi.\n",
    "notes/short.txt": "Nothing personal here.\n",
}
PHOTOS = {
    "photos/page.png": ("Patient: Jane Smith", "Email jane.doe@example.com or 408-555-0199"),
    "photos/page.jpg": ("Client: Marc Dubois", "Tel 06 11 22 33 44"),
    "photos/scan.webp": ("Patient: Ana Garcia", "Phone 408-555-0142"),
    "photos/receipt.png": ("Paid by John Doe", "Card 4111 1111 1111 1111"),
}
PDFS = {
    "pdfs/letter.pdf": ("letter", False),
    "pdfs/a4.pdf": ("a4", False),
    "pdfs/a4-rotated.pdf": ("a4 rotated 90", False),
    "pdfs/a4-scanned.pdf": ("a4", True),
}
BROKEN = ("broken/corrupt.pdf", "broken/empty.png")


def make_mixed_folder(root: Path) -> Path:
    """20 inputs under `root` (made): 10 texts, 4 photos, 4 PDFs, 2 broken; `root`."""
    for name, text in LETTERS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    for name, lines in PHOTOS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        render_short_page(root / name, lines)
    shapes = {shape.name: shape for shape in SHAPES}
    for name, (shape, scanned) in PDFS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        Doc([shapes[shape].page(scanned=scanned)]).write(root / name)
    (root / "broken").mkdir()
    (root / BROKEN[0]).write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage\n")
    (root / BROKEN[1]).write_bytes(b"")
    return root


def good_inputs() -> list[str]:
    """The 18 inputs that redact, as paths inside the folder."""
    return [*LETTERS, *PHOTOS, *PDFS]


NAMES = ("Chen", "Martin", "Dupont", "Garcia", "Leroy", "Patel", "Bernard", "Dubois")


def letters(folder: Path, count: int) -> list[Path]:
    """`count` one-line English letters in `folder` (made), each naming a person."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        name = NAMES[number % len(NAMES)]
        path = folder / f"letter-{number:02d}.txt"
        path.write_text(f"Dear Mrs. {name}, call 408-555-{1000 + number}.\n", encoding="utf-8")
        paths.append(path)
    return paths
