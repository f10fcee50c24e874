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

Given a `ResidualCheck` (`readable`), the words the masked text would leave readable that no
reader could explain are found on the text with every hidden run masked; under `strict`
they are hidden too, each a value of the vault like a detected one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redacto.document import Detection, Document, Element, Mode
from redacto.pipeline import DetectionFailed
from redacto.pipeline.page_text import element_runs
from redacto.proofread.readable import FoundWord, ResidualCheck
from redacto.vault import Span, Vault, label_of, merge_spans, replace_spans

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
    unexplained: tuple[FoundWord, ...] = ()
    """The words no reader could explain, found by the residual check (none without one)."""
    check: ResidualCheck | None = None
    """The residual check that found them (its category and language), and whether it hid
    them (`strict`)."""

    @property
    def values(self) -> int:
        """How many distinct values were replaced (the words `strict` hid included)."""
        return len(self.vault)


def mask_document(
    document: Document, detections: Sequence[Detection], check: ResidualCheck | None = None
) -> MaskedDocument:
    """The document's text with every detection replaced by its placeholder, then every
    other occurrence of a known value too; checked before it is returned. With `check`,
    the words left readable that no reader could explain are found (and hidden, under
    `check.strict`)."""
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
    found: list[FoundWord] = []
    if check is not None:
        hidden = merge_spans(text, [*runs, *_known(text, vault)])
        found = check.unexplained(text, [(start, end) for start, end, _, _ in hidden])
        if check.strict:
            # Numbered after the detected values, so theirs do not change with --strict;
            # known to the vault first, so that every other occurrence is hidden as well.
            for word in found:
                vault.placeholder_for(word.label, word.value)
            runs = [*runs, *((word.start, word.end, word.label, word.value) for word in found)]
    masked_text, occurrences = replace_spans(text, runs, vault)
    masked = MaskedDocument(masked_text, vault, occurrences, tuple(found), check)
    check_nothing_leaks(masked)
    return masked


def _known(text: str, vault: Vault) -> list[Span]:
    """Where `text` holds a value the vault knows, as spans (`replace_spans` hides them)."""
    return [
        (start, end, label_of(token), text[start:end])
        for start, end, token in vault.hide_known(text)
    ]


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
