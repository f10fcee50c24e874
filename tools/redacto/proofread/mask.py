"""Hide every identifier before the document leaves: placeholders in, a vault to come back.

The detector is the pipeline's own (`run_pipeline`: the checksum rules and the model tier,
with validate rounds), run on the document exactly as `redacto redact` runs it. Its
detections are then written into the text the proofreader reads: each run of detected
words of one value on one line becomes one placeholder (as `page_text.redacted_lines`
shows a page to the validator), numbered in a `Vault` (`redacto.vault`, the proxy's too),
so the same value is the same placeholder everywhere in the document and the answer can be
restored with the same restorer. Every other occurrence of a value the vault knows is
hidden too (the proxy's third tier), and before anything is sent the text is checked once
more: a known value still readable stops the run. Running the detector
(`pipeline.find_detections`, its `DetectionFailed`) and writing the placeholders
(`vault.replace_spans`) are the proxy's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redacto.document import Detection, Document, Element, Mode
from redacto.pipeline import DetectionFailed
from redacto.pipeline.page_text import element_runs
from redacto.vault import Span, Vault, merge_spans, replace_spans

__all__ = [
    "PAGE_BREAK",
    "DetectionFailed",
    "MaskedDocument",
    "ValueWouldLeak",
    "check_nothing_leaks",
    "mask_document",
]

PAGE_BREAK = "\n\n"
"""Between two pages of the text the proofreader reads."""


class ValueWouldLeak(RuntimeError):
    """A detected value is still readable in the text about to be sent (never expected:
    the text is checked once more before it leaves)."""


@dataclass(frozen=True)
class MaskedDocument:
    """The text the proofreader sees, and the vault that maps its placeholders back."""

    text: str
    vault: Vault
    occurrences: int
    """How many runs of text were replaced (a value named twice counts twice)."""

    @property
    def values(self) -> int:
        """How many distinct values were replaced."""
        return len(self.vault)


def mask_document(document: Document, detections: Sequence[Detection]) -> MaskedDocument:
    """The document's text with every detection replaced by its placeholder, then every
    other occurrence of a known value too; checked before it is returned."""
    vault = Vault()
    if document.mode is Mode.TEXT:
        text = document.text
        spans: list[Span] = [
            (d.span.start, d.span.end, d.label, document.text[d.span.start : d.span.end])
            for d in detections
            if d.span is not None
        ]
    else:
        text, spans = _element_text(document.elements, detections)
    runs = merge_spans(text, spans)
    for _start, _end, label, value in runs:  # numbered in reading order
        vault.placeholder_for(label, value)
    # A detected value as the model wrote it ("Jean Dupont" for the words "Jean Dupont,"),
    # or one the locator could not place, is one more spelling the vault knows: hidden
    # wherever else the text holds it.
    for detection in detections:
        if detection.value and detection.value.strip():
            vault.placeholder_for(detection.label, detection.value.strip())
    masked_text, occurrences = replace_spans(text, runs, vault)
    masked = MaskedDocument(masked_text, vault, occurrences)
    check_nothing_leaks(masked)
    return masked


def check_nothing_leaks(masked: MaskedDocument) -> None:
    """Raise `ValueWouldLeak` if any value of the vault is still readable in the text."""
    if masked.vault.hide_known(masked.text):
        raise ValueWouldLeak("a detected value is still readable in the text to send")


def _element_text(
    elements: Sequence[Element], detections: Sequence[Detection]
) -> tuple[str, list[Span]]:
    """The elements' text as the validator reads a page, and each run of detected words of
    one value on one line as a span."""
    hidden = {d.index: d for d in detections if d.index is not None}
    pieces: list[str] = []
    spans: list[Span] = []
    position = 0
    for gap, text, label in element_runs(elements, hidden, PAGE_BREAK):
        position += len(gap)
        if label is not None:
            spans.append((position, position + len(text), label, text))
        pieces += (gap, text)
        position += len(text)
    return "".join(pieces), spans
