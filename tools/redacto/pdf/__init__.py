"""PDF input and output: words with boxes from each page, and a rebuilt, verified PDF.

`read_pdf` turns a PDF into one image-mode `Document` (words from the text layer where a
page has a usable one, OCR of the rendered page where it does not; `Element.page` per page,
boxes in pixels of the page rendered at `PDF_DPI`). `write_redacted_pdf` renders every page
again, burns the boxes in black and builds a new PDF from those images alone;
`verify_redacted_pdf` reopens it and fails closed. Why it is built this way: docs/pdf.md.
pypdfium2 is imported lazily: `redacto.pdf` costs nothing until a PDF is opened.
"""

from __future__ import annotations

from redacto.pdf.read import (
    PDF_DPI,
    BadPdfError,
    PageSource,
    PdfPageInfo,
    PdfPages,
    read_pdf,
    render_page,
)
from redacto.pdf.write import (
    PdfVerificationError,
    verify_redacted_pdf,
    write_redacted_pdf,
)

__all__ = [
    "PDF_DPI",
    "BadPdfError",
    "PageSource",
    "PdfPageInfo",
    "PdfPages",
    "PdfVerificationError",
    "read_pdf",
    "render_page",
    "verify_redacted_pdf",
    "write_redacted_pdf",
]
