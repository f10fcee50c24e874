"""`--strict` applied to a finished run's outputs: every unexplained word redacted, rescored.

`--strict` redacts each word of the output that no reader could explain (docs/lexicon.md);
the pipeline runs the residual check where validate runs, so a run without the model tier
never sees it, and a run with it costs the LLM's time. This reads a finished `eval run`
instead: each output is rebuilt from the run's predictions (text mode: the predicted spans;
image mode: the rendered page's gold words, a word hidden when a predicted box covers half
of it, as `validator_outputs` does), the residual check (`pipeline.residual`, the pipeline's
own) names its unexplained words in the document's language, and those words are added to
the prediction as redactions, then the output is scored again.

It is strict's last step without another model round: in the pipeline a word strict
redacts fails the round, and the next round's redaction and reading may differ a little.
"""

from __future__ import annotations

from collections.abc import Sequence

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument, render_page
from redacto.document import Category, Document, Element, Mode, Span
from redacto.evaluation.prediction import PredictedBox, PredictedSpan
from redacto.evaluation.results import DocumentResult
from redacto.evaluation.scorer import score_document
from redacto.evaluation.validator_outputs import _covering_label
from redacto.pipeline.residual import LABELS, document_language, unexplained_words
from redacto.report import UnexplainedWord


def _label(word: UnexplainedWord) -> str:
    return next((label for kind, label in LABELS.items() if kind.value == word.kind), "NAME")


def strict_result(result: DocumentResult, document: CorpusDocument) -> DocumentResult:
    """`result` with every unexplained word of its output redacted, scored again (a result
    without a category or with an error is returned as it is: validate never ran)."""
    prediction = result.prediction
    category = prediction.category
    if category is None or prediction.error:
        return result
    if result.mode is Mode.TEXT:
        text = Document.from_text(document.text)
        spans = [Span(start=s.start, end=s.end) for s in prediction.spans]
        words = unexplained_words(text, spans, Category(category), document_language(text))
        added = tuple(
            PredictedSpan(start=w.span.start, end=w.span.end, label=_label(w))
            for w in words
            if w.span is not None
        )
        strict = prediction.model_copy(update={"spans": (*prediction.spans, *added)})
        return result.model_copy(
            update={"prediction": strict, "score": score_document(document, strict)}
        )
    page = render_page(document, RENDER_CACHE_DIR)
    elements = [Element(index=w.index, text=w.text, box=w.box) for w in page.words]
    shown = Document.from_elements(elements)
    hidden = [e.index for e in elements if e.box is not None and _covering_label(e.box, result)]
    words = unexplained_words(shown, hidden, Category(category), document_language(shown))
    boxes = tuple(PredictedBox(box=w.box, label=_label(w)) for w in words if w.box is not None)
    strict = prediction.model_copy(update={"boxes": (*prediction.boxes, *boxes)})
    return result.model_copy(
        update={"prediction": strict, "score": score_document(document, strict, page)}
    )


def strict_results(
    results: Sequence[DocumentResult], documents: Sequence[CorpusDocument]
) -> list[DocumentResult]:
    """Every result of a run with `--strict` applied (`strict_result`)."""
    by_id = {document.id: document for document in documents}
    return [strict_result(r, by_id[r.document_id]) for r in results if r.document_id in by_id]
