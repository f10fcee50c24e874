"""From a finished pipeline run to a verified `redacted.pdf`, and the report's PDF part.

The pipeline returns one list of boxes for the whole document; here they are put back on
their pages (each box is a detected element's, and each element knows its page), the words
each page keeps become its text layer (`kept_words`), and the redacted PDF is built and
verified in memory (`verified_pdf_bytes`): a failed check gives no bytes, so no
`redacted.pdf` is ever claimed, and writing it is left to the caller.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from redacto.document import Box, Detection, Element
from redacto.pdf.pieces import hidden_values, kept_piece_problem
from redacto.pdf.read import PdfPages
from redacto.pdf.text_layer import LayerWord, layer_words
from redacto.pdf.write import PdfVerificationError, verify_redacted_pdf, write_redacted_pdf
from redacto.report import PdfPageReport, PdfReport


def boxes_by_page(
    pdf: PdfPages, detections: Sequence[Detection], boxes: Sequence[Box]
) -> list[list[Box]]:
    """Each page's boxes, from the detected elements; refuses boxes it cannot place.

    The pipeline draws one box per detected element that has one, in index order; the same
    walk here must give exactly the pipeline's boxes, or the run fails closed.
    """
    elements = pdf.document.elements
    detected = sorted({d.index for d in detections if d.index is not None})
    placed = [elements[i] for i in detected if elements[i].box is not None]
    if [element.box for element in placed] != list(boxes):
        raise PdfVerificationError("the boxes do not match the detected words")
    per_page: list[list[Box]] = [[] for _ in pdf.pages]
    for element in placed:
        assert element.box is not None
        per_page[element.page].append(element.box)
    return per_page


def kept_elements(pdf: PdfPages, detections: Sequence[Detection]) -> list[list[Element]]:
    """Each page's words that no detection names, in reading order: `redacted.txt`'s words."""
    detected = {d.index for d in detections if d.index is not None}
    kept: list[list[Element]] = [[] for _ in pdf.pages]
    for element in pdf.document.elements:
        if element.index not in detected:
            kept[element.page].append(element)
    return kept


def kept_words(
    pdf: PdfPages, detections: Sequence[Detection], per_page: Sequence[Sequence[Box]]
) -> list[list[LayerWord]]:
    """Each page's text layer: the words it read that no detection names, in reading order,
    less those a burned box would cover (`text_layer.layer_words`)."""
    kept = kept_elements(pdf, detections)
    return [layer_words(kept[number], per_page[number]) for number in range(len(pdf.pages))]


def redacted_values(pdf: PdfPages, detections: Sequence[Detection]) -> list[str]:
    """The words under the boxes (and any value-only detections): none may be in the output."""
    elements = pdf.document.elements
    values = {elements[d.index].text for d in detections if d.index is not None}
    values |= {d.value for d in detections if d.value}
    return sorted(values)


def pdf_report(
    pdf: PdfPages,
    per_page: Sequence[Sequence[Box]] | None,
    words: Sequence[Sequence[LayerWord]] | None = None,
) -> PdfReport:
    """The report's page list; boxes are filled in when the run got as far as drawing them,
    and the text layer's word counts when it was made."""
    return PdfReport(
        dpi=pdf.dpi,
        text_layer=words is not None,
        pages=[
            PdfPageReport(
                page=page.number,
                width=page.size[0],
                height=page.size[1],
                width_pt=round(page.geometry.width, 3),
                height_pt=round(page.geometry.height, 3),
                rotation=page.geometry.rotation,
                source=page.source.value,
                words=page.words,
                hidden_words=page.hidden,
                boxes=list(per_page[page.number]) if per_page is not None else [],
                text_words=len(words[page.number]) if words is not None else 0,
                unread_characters=page.unread,
            )
            for page in pdf.pages
        ],
    )


def verified_pdf_bytes(
    pdf: PdfPages,
    per_page: Sequence[Sequence[Box]],
    values: Sequence[str],
    words: Sequence[Sequence[LayerWord]] | None = None,
    detections: Sequence[Detection] | None = None,
) -> bytes:
    """The redacted PDF, built and verified in memory (nothing is written); `words`, each
    page's text layer (`kept_words`), or None for pixels only.

    With the run's `detections`, each box is also held to the value it hides
    (`redacto.pdf.pieces`): no word kept beside it (the text layer's, `redacted.txt`'s) and
    no word the OCR that read the PDF reads beside it on the burned page may hold a piece of
    that value. Raises `PdfVerificationError` if building it or any check fails.
    """
    pages = [page.geometry for page in pdf.pages]
    hidden = None
    if detections is not None:
        hidden = hidden_values(pdf.document.elements, detections, len(pdf.pages))
        problem = kept_piece_problem(kept_elements(pdf, detections), hidden)
        if problem is not None:
            raise PdfVerificationError(problem)
    try:
        with io.BytesIO() as buffer:
            write_redacted_pdf(pdf.source, per_page, buffer, pages=pages, words_by_page=words)
            data = buffer.getvalue()
        verify_redacted_pdf(
            data,
            per_page,
            pages=pages,
            values=values,
            words_by_page=words,
            hidden=hidden,
            ocr=pdf.ocr,
        )
    except ValueError as error:  # the source PDF cannot be read again (BadPdfError)
        raise PdfVerificationError(f"cannot render the input again: {error}") from error
    return data
