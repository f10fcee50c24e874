"""Training examples: the exact prompts each pipeline step sends, with the gold answer.

For every corpus document the generator renders the real prompts from `prompts/` the way
the pipeline renders them (same chunking, same element list, same placeholder numbering:
the pipeline's own functions are called, not copied) and writes the answer a perfect model
would give:

- classify (image and text input): `DOCUMENT_TYPE: …` / `CATEGORY: …`;
- detect, image mode: one `INDEX:LABEL` line per word whose characters overlap a gold PII
  span, per 150-element chunk of the rendered page's gold words; text mode: one
  `LABEL: value` line per distinct gold value, per 150-word chunk of the text;
- redact (text): per chunk that holds a gold value, the chunk with `[LABEL_N]` placeholders,
  numbered by the pipeline's redact step over the whole text;
- image mode read as text (`ImageReading.TEXT`, the embedded default's reading): detect
  and validate get the page's lines (`PageText`) through the text-mode prompts and answer
  `LABEL: value` per distinct gold value; the redaction the validator reads is the one
  the pipeline builds from those values (located on the words, `redacted_page`);
- validate, text mode and the page read as text: two PASS and two FAIL redactions per
  document, per chunk (`redacto.tuning.redactions`: complete, over-redacted; one value
  left, one word of a value left), and PASS on a text with nothing to find; the indexed
  reading keeps `PASS` on the complete redaction and `FAIL` on every third value left and
  on one value left.

A text of one chunk (every corpus text) gives one example per step, named without a chunk.

Everything is deterministic: the same documents give the same examples in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from redacto.corpus import RENDER_CACHE_DIR, CorpusDocument, GoldWord, render_page
from redacto.document import (
    Category,
    Detection,
    Document,
    Element,
    Frozen,
    Mode,
    Source,
    Span,
    Step,
)
from redacto.engines.no_model import NoModelEngine
from redacto.pipeline.chunking import (
    TextChunk,
    chunk_elements,
    chunk_text,
    classify_text,
    format_elements,
)
from redacto.pipeline.detections import item_detections, union_detections
from redacto.pipeline.locator import Locator
from redacto.pipeline.page_text import PageText, redacted_page
from redacto.pipeline.parsing import TextItem
from redacto.pipeline.placeholders import value_key
from redacto.pipeline.redact import (
    apply_replacements,
    chunk_listings,
    locate_detections,
    redact_elements,
    redact_listing,
    redact_text,
)
from redacto.pipeline.state import ImageReading, PipelineOptions, StepContext
from redacto.prompts import PromptLibrary
from redacto.rules import recognizers_for
from redacto.tuning.redactions import (
    ValueKey,
    Variant,
    distinct_values,
    leave_one,
    leave_some,
    validate_variants,
)

NONE_ANSWER = "NONE"


class TrainingExample(Frozen):
    """One model call of the pipeline and the answer it should get."""

    id: str
    """`<document id>/<step>-<mode>[-chunk N][-pass|-fail|-fail-one]`: unique and stable."""
    document_id: str
    step: Step
    mode: Mode
    category: Category
    system: str
    user: str
    answer: str
    read_as_text: bool = False
    """An image-mode call of the page read as text (`ImageReading.TEXT`)."""


@dataclass(frozen=True)
class PageRedaction:
    """One validate variant of a page read as text, as the pipeline redacts it."""

    variant: Variant
    hidden: tuple[Detection, ...]
    """Its values located on the page's gold words (each with its word's index)."""
    shown: frozenset[int]
    """The word indices the redaction shows as placeholders."""


def page_redactions(
    document: CorpusDocument,
    words: tuple[GoldWord, ...],
    prompts: PromptLibrary | None = None,
) -> list[PageRedaction]:
    """The validate variants of `document`'s page (its gold `words`) read as text, each with
    the words it hides: what another reading of the same page (an OCR's) redacts."""
    context = StepContext(
        engine=NoModelEngine("building validate redactions"),
        prompts=prompts or PromptLibrary.load(),
        options=PipelineOptions(),
    )
    return list(_DocumentExamples(document, context).page_redactions(words))


def build_examples(
    documents: Iterable[CorpusDocument],
    prompts: PromptLibrary | None = None,
    render_dir: Path = RENDER_CACHE_DIR,
    modes: tuple[Mode, ...] = (Mode.IMAGE, Mode.TEXT),
    image_readings: tuple[ImageReading, ...] = (ImageReading.INDEXED, ImageReading.TEXT),
) -> list[TrainingExample]:
    """Every step's examples for every document, in document order.

    Image-mode examples read the gold words of the document's rendered page (rendered
    into `render_dir` on first use, as the eval does), in each of `image_readings`.
    """
    library = prompts or PromptLibrary.load()
    context = StepContext(
        engine=NoModelEngine("building training examples"),
        prompts=library,
        options=PipelineOptions(),
    )
    examples: list[TrainingExample] = []
    for document in documents:
        builder = _DocumentExamples(document, context)
        if Mode.TEXT in modes:
            examples.extend(builder.text_examples())
        if Mode.IMAGE in modes:
            page = render_page(document, render_dir)
            if ImageReading.INDEXED in image_readings:
                examples.extend(builder.image_examples(page.words))
            if ImageReading.TEXT in image_readings:
                examples.extend(builder.page_text_examples(page.words))
    return examples


def write_examples(examples: Iterable[TrainingExample], path: Path) -> int:
    """Write examples as JSON lines; returns how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as stream:
        for example in examples:
            stream.write(example.model_dump_json() + "\n")
            count += 1
    return count


def read_examples(path: Path) -> list[TrainingExample]:
    """Read examples written by `write_examples`."""
    with path.open(encoding="utf-8") as stream:
        return [TrainingExample.model_validate_json(line) for line in stream if line.strip()]


def word_labels(document: CorpusDocument, words: tuple[GoldWord, ...]) -> dict[int, str]:
    """Gold label per word index: the label of the PII span its characters overlap."""
    labels: dict[int, str] = {}
    for word in words:
        for span in document.pii:
            if word.start < span.end and span.start < word.end:
                labels[word.index] = span.label
                break
    return labels


class _DocumentExamples:
    """The examples of one document; the pipeline's own functions shape every prompt."""

    def __init__(self, document: CorpusDocument, context: StepContext) -> None:
        self.document = document
        self.context = context
        self.prompts = context.prompts
        self.chunk_size = context.options.chunk_size
        self.rule_labels = {r.label for r in recognizers_for(document.category)}
        """Labels a rule of the category finds: a FAIL's single leftover avoids them."""

    def _example(
        self,
        name: str,
        step: Step,
        mode: Mode,
        prompt: tuple[str, str],
        answer: str,
        read_as_text: bool = False,
    ) -> TrainingExample:
        system, user = prompt
        return TrainingExample(
            id=f"{self.document.id}/{name}",
            document_id=self.document.id,
            step=step,
            mode=mode,
            category=self.document.category,
            system=system,
            user=user,
            answer=answer,
            read_as_text=read_as_text,
        )

    def _classify(self, shown: Document, name: str | None = None) -> TrainingExample:
        """The classify call on `shown` (a page read as text is shown as a text, and its
        example is named apart: `name`, mode image)."""
        template = self.prompts.prompt(Step.CLASSIFY, shown.mode)
        prompt = template.render(document=classify_text(shown, self.chunk_size))
        answer = (
            f"DOCUMENT_TYPE: {self.document.document_type}\n"
            f"CATEGORY: {self.document.category.value}"
        )
        if name is None:
            return self._example(
                f"classify-{shown.mode}", Step.CLASSIFY, shown.mode, prompt, answer
            )
        return self._example(name, Step.CLASSIFY, Mode.IMAGE, prompt, answer, read_as_text=True)

    # Text mode ---------------------------------------------------------------------------

    def text_examples(self) -> Iterator[TrainingExample]:
        document = Document.from_text(self.document.text)
        text = document.text
        yield self._classify(document)
        chunks = chunk_text(text, self.chunk_size)
        named = _chunk_namer(len(chunks))
        category = self.document.category
        detect = self.prompts.prompt(Step.DETECT, Mode.TEXT, category)
        for chunk in chunks:
            found = self._text_detections(chunk)
            listing = "\n".join(f"{d.label}: {d.value}" for d in found) or NONE_ANSWER
            yield self._example(
                named("detect-text", chunk),
                Step.DETECT,
                Mode.TEXT,
                detect.render(document=chunk.of(text)),
                listing,
            )
        detections = self._text_detections()
        if detections:
            yield from self._text_redact_examples(document, detections)
        validate = self.prompts.prompt(Step.VALIDATE, Mode.TEXT, category)
        for variant in self._variants(detections, tuple(validate.labels)):
            redaction = redact_text(document, variant.hidden, self.context, 1, ask_model=False)
            yield from self._validate_text(
                redaction.text, variant, "validate-text", Mode.TEXT, read_as_text=False
            )

    def _text_redact_examples(
        self, document: Document, detections: list[Detection]
    ) -> Iterator[TrainingExample]:
        text = document.text
        complete = redact_text(document, detections, self.context, 1, ask_model=False)
        redact = self.prompts.prompt(Step.REDACT, Mode.TEXT)
        placed = locate_detections(text, detections)
        chunks = chunk_listings(text, detections, placed, self.chunk_size)
        named = _chunk_namer(len(chunk_text(text, self.chunk_size)))
        for chunk, listed in chunks:
            yield self._example(
                named("redact-text", chunk),
                Step.REDACT,
                Mode.TEXT,
                redact.render(document=chunk.of(text), detections=redact_listing(listed)),
                apply_replacements(text, complete.replacements, chunk.start, chunk.end),
            )

    def _variants(self, detections: list[Detection], labels: tuple[str, ...]) -> list[Variant]:
        return list(
            validate_variants(self.document, detections, _value_of, self.rule_labels, labels)
        )

    def _validate_text(
        self, redacted: str, variant: Variant, name: str, mode: Mode, read_as_text: bool
    ) -> Iterator[TrainingExample]:
        """The validator's calls on a redacted text: PASS where nothing of `variant.left` is
        readable in a chunk, FAIL naming what is (a FAIL variant skips chunks with nothing
        left: the PASS variants cover them)."""
        validate = self.prompts.prompt(Step.VALIDATE, Mode.TEXT, self.document.category)
        chunks = chunk_text(redacted, self.chunk_size)
        named = _chunk_namer(len(chunks))
        for chunk in chunks:
            readable = Locator(chunk.of(redacted))
            in_chunk = [d for d in variant.left if readable.locate(d.value or "") is not None]
            if variant.left and not in_chunk:
                continue
            values = distinct_values(in_chunk, _value_of)
            shown = {_value_of(d): d.value for d in in_chunk}
            answer = "\n".join(["FAIL", *(f"{label}: {shown[k]}" for k, label in values.items())])
            yield self._example(
                named(name, chunk, f"-{variant.outcome}"),
                Step.VALIDATE,
                mode,
                validate.render(document=chunk.of(redacted)),
                answer if in_chunk else "PASS",
                read_as_text=read_as_text,
            )

    def _incomplete(
        self, detections: list[Detection], key: ValueKey
    ) -> Iterator[tuple[str, tuple[list[Detection], list[Detection]]]]:
        """The indexed reading's FAIL redactions: `fail` leaves every third distinct value
        readable, `fail-one` a single value (skipped when that is the same split)."""
        some = leave_some(detections, key)
        yield "fail", some
        one = leave_one(detections, key, self.rule_labels, self.document.id)
        if one[1] != some[1]:
            yield "fail-one", one

    def _text_detections(self, chunk: TextChunk | None = None) -> list[Detection]:
        """One detection per distinct gold value (in `chunk`, if given), in reading order,
        with its first gold span."""
        detections: list[Detection] = []
        seen: set[str] = set()
        for span in sorted(self.document.pii, key=lambda s: s.start):
            if chunk is not None and not chunk.overlaps(span.start, span.end):
                continue
            value = self.document.span_text(span)
            key = value_key(value)
            if key in seen:
                continue
            seen.add(key)
            detections.append(
                Detection(
                    label=span.label,
                    source=Source.DETECT,
                    round=1,
                    value=value,
                    span=Span(start=span.start, end=span.end),
                )
            )
        return detections

    # Image mode --------------------------------------------------------------------------

    def image_examples(self, words: tuple[GoldWord, ...]) -> Iterator[TrainingExample]:
        elements = [Element(index=w.index, text=w.text, box=w.box) for w in words]
        document = Document.from_elements(elements)
        yield self._classify(document)
        labels = word_labels(self.document, words)
        category = self.document.category
        detect = self.prompts.prompt(Step.DETECT, Mode.IMAGE, category)
        for chunk in chunk_elements(document.elements, self.chunk_size):
            lines = [f"{e.index}:{labels[e.index]}" for e in chunk.elements if e.index in labels]
            yield self._example(
                f"detect-image-chunk{chunk.number}",
                Step.DETECT,
                Mode.IMAGE,
                detect.render(elements=format_elements(chunk.elements, {})),
                "\n".join(lines) or NONE_ANSWER,
            )
        detections = [
            Detection(label=label, source=Source.DETECT, round=1, index=index)
            for index, label in sorted(labels.items())
        ]
        if not detections:
            return
        complete = redact_elements(document, detections, self.context, 1)
        yield from self._image_validate(complete.elements, [], "pass")

        def word_key(detection: Detection) -> str:
            assert detection.index is not None  # built from `labels`, one per element index
            return value_key(elements[detection.index].text)

        for outcome, (kept, left) in self._incomplete(detections, word_key):
            partial = redact_elements(document, kept, self.context, 1)
            yield from self._image_validate(partial.elements, left, outcome)

    def _image_validate(
        self, redacted: tuple[Element, ...], missed: list[Detection], outcome: str
    ) -> Iterator[TrainingExample]:
        """PASS per chunk of a complete redaction; FAIL for the chunks that miss something."""
        validate = self.prompts.prompt(Step.VALIDATE, Mode.IMAGE, self.document.category)
        for chunk in chunk_elements(redacted, self.chunk_size):
            in_chunk = [d for d in missed if d.index in chunk.index_range]
            if outcome != "pass" and not in_chunk:
                continue  # nothing left readable here: the complete redaction's PASS covers it
            answer = "\n".join(["FAIL", *(f"{d.index}:{d.label}" for d in in_chunk)])
            yield self._example(
                f"validate-image-chunk{chunk.number}-{outcome}",
                Step.VALIDATE,
                Mode.IMAGE,
                validate.render(elements=format_elements(chunk.elements, {})),
                answer if in_chunk else "PASS",
            )

    # Image mode, the page read as text ---------------------------------------------------

    def page_text_examples(self, words: tuple[GoldWord, ...]) -> Iterator[TrainingExample]:
        """Classify, detect and validate of a page read as text: each sees the page's lines
        through the text-mode prompt."""
        elements = [Element(index=w.index, text=w.text, box=w.box) for w in words]
        document = Document.from_elements(elements)
        page = PageText.of(document.elements)
        yield self._classify(Document.from_text(page.text), name="classify-page-text")
        values = self._page_values(words, page)
        detect = self.prompts.prompt(Step.DETECT, Mode.TEXT, self.document.category)
        chunks = chunk_text(page.text, self.chunk_size)
        named = _chunk_namer(len(chunks))
        for chunk in chunks:
            listed = [
                item for item, starts in values if any(chunk.start <= s < chunk.end for s in starts)
            ]
            listing = "\n".join(f"{item.label}: {item.value}" for item in listed)
            yield self._example(
                named("detect-page-text", chunk),
                Step.DETECT,
                Mode.IMAGE,
                detect.render(document=chunk.of(page.text)),
                listing or NONE_ANSWER,
                read_as_text=True,
            )
        for redaction in self.page_redactions(words):
            text = redacted_page(document.elements, redaction.hidden, redaction.shown)
            yield from self._validate_text(
                text, redaction.variant, "validate-page-text", Mode.IMAGE, read_as_text=True
            )

    def page_redactions(self, words: tuple[GoldWord, ...]) -> Iterator[PageRedaction]:
        """The validate variants of the page read as text, each as the pipeline redacts it:
        its values located on the gold words, the words it shows as placeholders."""
        elements = [Element(index=w.index, text=w.text, box=w.box) for w in words]
        document = Document.from_elements(elements)
        page = PageText.of(document.elements)
        by_value = [
            Detection(label=item.label, source=Source.DETECT, round=1, value=item.value)
            for item, _starts in self._page_values(words, page)
        ]
        validate = self.prompts.prompt(Step.VALIDATE, Mode.TEXT, self.document.category)
        for variant in self._variants(by_value, tuple(validate.labels)):
            hidden: list[Detection] = []
            for detection in variant.hidden:
                item = TextItem(detection.label, detection.value or "")
                hidden, _added = union_detections(
                    hidden, item_detections(item, Source.DETECT, 1, page)
                )
            redaction = redact_elements(document, hidden, self.context, 1)
            yield PageRedaction(variant, tuple(hidden), frozenset(redaction.shown))

    def _page_values(
        self, words: tuple[GoldWord, ...], page: PageText
    ) -> list[tuple[TextItem, list[int]]]:
        """Each distinct gold value as the detector should name it (its words joined by
        single spaces) and where its words start in the page text, in page order."""
        found: dict[str, tuple[TextItem, list[int]]] = {}
        for span in self.document.pii:
            overlapping = [w for w in words if w.start < span.end and span.start < w.end]
            if not overlapping:
                continue
            value = " ".join(self.document.span_text(span).split())
            _item, starts = found.setdefault(value_key(value), (TextItem(span.label, value), []))
            starts.extend(page.joined.starts[w.index] for w in overlapping)
        return sorted(found.values(), key=lambda entry: min(entry[1]))


def _chunk_namer(chunks: int):
    """Example names: `detect-text` for a text of one chunk, `detect-text-chunk1` otherwise."""

    def named(step: str, chunk: TextChunk, outcome: str = "") -> str:
        return f"{step}{outcome}" if chunks == 1 else f"{step}-chunk{chunk.number}{outcome}"

    return named


def _value_of(detection: Detection) -> str:
    return value_key(detection.value or "")


def examples_summary(examples: Iterable[TrainingExample]) -> dict[str, int]:
    """How many examples per `step-mode`, for the data card."""
    counts: dict[str, int] = {}
    for example in examples:
        name = f"{example.step}-{example.mode}" + ("-read-as-text" if example.read_as_text else "")
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))
