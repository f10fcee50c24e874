"""A PDF: its pages read into one image-mode document, and a verified `redacted.pdf`.

The pages are read by `redacto.pdf.read_pdf` (text layer, OCR, or both); the output is
rebuilt from burned page images and checked before it counts (docs/pdf.md). Both happen
in memory here: the run's report is final, ERROR included, before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from redacto.document import Mode, Status
from redacto.inputs.base import (
    REDACTED_PDF,
    BadInputError,
    InputFile,
    OutputFile,
    ReadOptions,
    bytes_info,
    input_info,
    redacted,
)
from redacto.report import ReviewReason

if TYPE_CHECKING:
    from PIL import Image

    from redacto.pdf import PdfPages
    from redacto.pipeline import PipelineResult


class PdfInput(InputFile):
    """A PDF read page by page (`pages`: each page's geometry, source and word counts)."""

    suffixes: ClassVar[frozenset[str]] = frozenset({".pdf"})
    mode: ClassVar[Mode] = Mode.IMAGE
    noun: ClassVar[str] = "a PDF"

    def __init__(self, path: Path, pages: PdfPages, *, text_layer: bool = True) -> None:
        info = input_info(path) if pages.data is None else bytes_info(path, pages.data)
        super().__init__(path, pages.document, info, pages.ocr_name)
        self.pages = pages
        self.text_layer = text_layer
        """Whether `redacted.pdf` carries the kept words as invisible text (docs/pdf.md)."""

    @classmethod
    def read(cls, path: Path, options: ReadOptions) -> PdfInput:
        from redacto.pdf import BadPdfError, read_pdf

        try:
            pages = read_pdf(path, ocr=options.ocr, on_page=options.on_page)
        except BadPdfError as error:
            raise BadInputError(str(error)) from error
        return cls(path, pages, text_layer=options.text_layer)

    @classmethod
    def from_bytes(cls, data: bytes, name: Path, options: ReadOptions) -> PdfInput:
        """The PDF read from memory, page by page as `read` reads a file (the same page
        limits); its pages are rendered again from these bytes when it is redacted."""
        from redacto.pdf import BadPdfError, read_pdf

        try:
            pages = read_pdf(name, ocr=options.ocr, on_page=options.on_page, data=data)
        except BadPdfError as error:
            raise BadInputError(str(error).replace("(the PDF in memory)", str(name))) from error
        return cls(name, pages, text_layer=options.text_layer)

    def redacted_files(self, result: PipelineResult) -> tuple[OutputFile, ...]:
        """`redacted.pdf`, verified; the report gains its pages (with their boxes when the
        run redacted), and a failed check ends the run ERROR with no PDF."""
        from redacto.pdf import PdfVerificationError
        from redacto.pdf.output import (
            boxes_by_page,
            kept_words,
            pdf_report,
            redacted_values,
            verified_pdf_bytes,
        )

        report = result.report
        if not redacted(result):
            report.pdf = pdf_report(self.pages, None)
            return ()
        try:
            per_page = boxes_by_page(self.pages, report.detections, result.boxes)
            words = None
            if self.text_layer:
                words = kept_words(self.pages, report.detections, per_page)
            report.pdf = pdf_report(self.pages, per_page, words)
            values = redacted_values(self.pages, [*report.detections, *report.not_located])
            data = verified_pdf_bytes(self.pages, per_page, values, words, report.detections)
        except PdfVerificationError as error:
            report.status = Status.ERROR
            report.error = f"the redacted PDF failed its check after writing: {error}"
            if report.pdf is None:
                report.pdf = pdf_report(self.pages, None)
            return ()
        report.pdf.verified = True
        if any(page.unread for page in self.pages.pages):
            # Text the page shows that nobody read: no PASS can vouch for it.
            if report.status is Status.PASS:
                report.status = Status.NEEDS_REVIEW
            if ReviewReason.PDF_TEXT_UNREAD not in report.review_reasons:
                report.review_reasons.append(ReviewReason.PDF_TEXT_UNREAD)
        return (OutputFile(REDACTED_PDF, data),)

    def page_pictures(self) -> list[Image.Image]:
        """Each page rendered at the DPI it was read at, so its words' boxes fit it."""
        from redacto.pdf.read import load_page, open_pdf, render_page

        pdf = open_pdf(self.pages.source)
        try:
            return [
                render_page(load_page(pdf, self.path, number), self.pages.dpi)
                for number in range(len(self.pages.pages))
            ]
        finally:
            pdf.close()

    def page_pdf(self) -> bytes:
        """The PDF's own bytes: those it was read from in memory, or else its file's."""
        return self.pages.data if self.pages.data is not None else self.path.read_bytes()

    def points_per_pixel(self) -> list[float]:
        return [72 / self.pages.dpi for _ in self.pages.pages]
