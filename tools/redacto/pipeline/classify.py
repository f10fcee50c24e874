"""Step 1 — Classify: which of the seven categories' prompts should drive detection.

A universal prompt sees at most the first chunk's worth of the document (a page read as
text: its first lines, as text mode would show them). An answer that cannot be read, or
names no known category, falls back to General — recorded in the report, never an
exception: General's detector is the broadest, so the fallback fails safe.
"""

from __future__ import annotations

from dataclasses import dataclass

from redacto.document import Category, Document, Mode, Step
from redacto.pipeline.chunking import classify_text
from redacto.pipeline.page_text import PageText
from redacto.pipeline.parsing import ClassifyParse
from redacto.pipeline.state import ImageReading, Phase, ProgressEvent, StepContext


@dataclass(frozen=True)
class Classification:
    category: Category
    document_type: str
    fallback: bool
    given: bool = False
    """The user named the category; the model was not asked."""


def classify(document: Document, context: StepContext) -> Classification:
    """Ask the model for DOCUMENT_TYPE and CATEGORY; General when the answer is unusable.

    A category given in the options is taken as it is, without a model call.
    """
    context.emit(ProgressEvent(step=Step.CLASSIFY, phase=Phase.START))
    if context.options.category is not None:
        given = Classification(context.options.category, "", fallback=False, given=True)
        context.emit(ProgressEvent(step=Step.CLASSIFY, phase=Phase.END, category=given.category))
        return given
    shown = document
    if document.mode is Mode.IMAGE and context.options.image_reading is ImageReading.TEXT:
        # A page read as text is classified as text too, its OCR lines kept.
        shown = Document.from_text(PageText.of(document.elements).text)
    template = context.prompts.prompt(Step.CLASSIFY, shown.mode)
    system, user = template.render(document=classify_text(shown, context.options.chunk_size))
    parse = ClassifyParse()
    reply = context.call_lines(Step.CLASSIFY, system, user, parse.feed, parse.rejected)
    context.record(Step.CLASSIFY, reply, parse.rejected)
    fallback = parse.category is None
    result = Classification(
        category=parse.category or Category.GENERAL,
        document_type=parse.document_type,
        fallback=fallback,
    )
    context.emit(ProgressEvent(step=Step.CLASSIFY, phase=Phase.END, category=result.category))
    return result
