"""The validator bench's page read through a real OCR (`page-ppocr`): what a photo run shows.

The page read as text (`page-text`) is built from the rendered page's gold words, so its
readers see every word exactly. A photo run's readers see the OCR's words instead: split,
merged and misread. Here each document's rendered page is read once by the OCR engine
(`evaluation.inputs.PageReader`, as `eval run --ocr` reads it), and each of the page's
validate variants (`tuning.dataset.page_redactions`: the same clean and leaky redactions the
page as text is judged on) is shown as the OCR read it, with every OCR word hidden whose box
overlaps a gold word the variant hides (`MIN_OVERLAP` of the smaller box). A hidden OCR word
takes that gold word's label and value, so adjacent hidden words of one value are one
placeholder (`page_text.element_runs`, as `redacted_lines` joins them); the readers mask
placeholders as `…` as on every case (`validator_tiers`, `validator_lexicon`).

A leaky variant's case is FAIL where an OCR word over a gold word it leaves readable is shown
(the chunk holding it), or where the OCR read no word over it at all (the first chunk: the
photo still shows it, though no reader can). A leaky value whose every OCR word is hidden,
merged into a hidden neighbour, is hidden on the photo too: that variant gives no case.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument, render_page
from redacto.document import Box, Detection, Element, Mode, Step
from redacto.evaluation.inputs import PageReader
from redacto.evaluation.results import OcrChoice
from redacto.evaluation.scorer import TOUCHED_COVERAGE
from redacto.pipeline.chunking import chunk_text
from redacto.pipeline.page_text import PageText, element_runs
from redacto.pipeline.placeholders import PlaceholderBook
from redacto.pipeline.state import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.tuning.dataset import PageRedaction, TrainingExample, page_redactions

MIN_OVERLAP = TOUCHED_COVERAGE
"""An OCR word is hidden with a gold word when their boxes share at least this much of the
smaller box's area: the scorer's own line between redacting a word and grazing it."""


def reading_name(ocr: str) -> str:
    """The bench's reading of the page through `ocr`: `page-ppocr`."""
    return f"page-{ocr}"


def ocr_cases(
    documents: Sequence[CorpusDocument],
    ocr: OcrChoice,
    render_dir: Path = RENDER_CACHE_DIR,
    prompts: PromptLibrary | None = None,
) -> list[TrainingExample]:
    """The validate calls on each document's page read by `ocr`, one OCR read per page."""
    library = prompts or PromptLibrary.load()
    reader = PageReader(ocr)
    cases: list[TrainingExample] = []
    for document in documents:
        page = render_page(document, render_dir)
        read = reader.read(page)
        gold = {word.index: word.box for word in page.words}
        gold_text = PageText.of(
            [Element(index=w.index, text=w.text, box=w.box) for w in page.words]
        )
        for redaction in page_redactions(document, page.words, library):
            cases.extend(_variant_cases(document, ocr, read, gold, gold_text, redaction, library))
    return cases


def _variant_cases(
    document: CorpusDocument,
    ocr: str,
    read: Sequence[Element],
    gold: Mapping[int, Box],
    gold_text: PageText,
    redaction: PageRedaction,
    prompts: PromptLibrary,
) -> Iterator[TrainingExample]:
    by_word = {d.index: d for d in redaction.hidden if d.index in redaction.shown}
    hidden = hidden_words(read, [(gold[index], d) for index, d in by_word.items()])
    left = {
        index
        for detection in redaction.variant.left
        for index in gold_text.locate(detection.value or "")
        if index not in redaction.shown
    }
    text, starts = shown_page(read, hidden)
    shown_over_leak = [
        starts[element.index]
        for element in read
        if element.index not in hidden and any(_overlaps(element, gold[i]) for i in left)
    ]
    unread_leak = any(not any(_overlaps(e, gold[i]) for e in read) for i in left)
    validate = prompts.prompt(Step.VALIDATE, Mode.TEXT, document.category)
    chunks = chunk_text(text, PipelineOptions().chunk_size)
    outcome = redaction.variant.outcome
    answer = "\n".join(["FAIL", *(f"{d.label}: {d.value}" for d in redaction.variant.left)])
    for chunk in chunks:
        leaks = any(chunk.start <= s < chunk.end for s in shown_over_leak) or (
            unread_leak and chunk.number == 0
        )
        if redaction.variant.left and not leaks:
            continue  # nothing left readable here: the variant's PASS cases cover it
        part = "" if len(chunks) == 1 else f"-chunk{chunk.number}"
        system, user = validate.render(document=chunk.of(text))
        yield TrainingExample(
            id=f"{document.id}/validate-{reading_name(ocr)}{part}-{outcome}",
            document_id=document.id,
            step=Step.VALIDATE,
            mode=Mode.IMAGE,
            category=document.category,
            system=system,
            user=user,
            answer=answer if leaks else "PASS",
            read_as_text=True,
        )


def hidden_words(
    read: Sequence[Element], hidden: Sequence[tuple[Box, Detection]]
) -> dict[int, Detection]:
    """The OCR words (index → detection) whose box overlaps a `hidden` gold word's box, each
    with the detection of the gold word it overlaps most."""
    found: dict[int, Detection] = {}
    for element in read:
        overlaps = [
            (_shared(element, box), detection)
            for box, detection in hidden
            if _overlaps(element, box)
        ]
        if overlaps:
            found[element.index] = max(overlaps, key=lambda pair: pair[0])[1]
    return found


def shown_page(
    read: Sequence[Element], hidden: Mapping[int, Detection]
) -> tuple[str, dict[int, int]]:
    """The page text of `read` with the `hidden` words as placeholders (`redacted_lines`),
    and where each shown word starts in it."""
    book = PlaceholderBook()
    shown = iter([element.index for element in read if element.index not in hidden])
    text, starts = "", {}
    for gap, piece, label in element_runs(read, hidden):
        text += gap
        if label is None:
            starts[next(shown)] = len(text)
            text += piece
        else:
            text += book.assign(label, piece)
    return text, starts


def _shared(element: Element, box: Box) -> float:
    assert element.box is not None  # an OCR word of an image has a box
    width = min(element.box.x1, box.x1) - max(element.box.x0, box.x0)
    height = min(element.box.y1, box.y1) - max(element.box.y0, box.y0)
    return max(width, 0.0) * max(height, 0.0)


def _overlaps(element: Element, box: Box) -> bool:
    assert element.box is not None
    smaller = min(element.box.area, box.area)
    return smaller > 0 and _shared(element, box) >= MIN_OVERLAP * smaller
