"""Hide every identifier before the document leaves: placeholders in, a vault to come back.

The detector is the pipeline's own (`run_pipeline`: the checksum rules and the model tier,
with validate rounds), run on the document exactly as `redacto redact` runs it. Its
detections are then written into the text the proofreader reads: each run of detected
words of one value on one line becomes one placeholder (as `page_text.redacted_lines`
shows a page to the validator), numbered in a `Vault` (`redacto.vault`, the proxy's too),
so the same value is the same placeholder everywhere in the document and the answer can be
restored with the same restorer. Every other occurrence of a value the vault knows is
hidden too (the proxy's third tier), and before anything is sent the text is checked once
more: a known value still readable stops the run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redacto.document import Detection, Document, Element, Mode, Status
from redacto.engines import Engine
from redacto.pipeline import OnEvent, PipelineOptions, run_pipeline
from redacto.pipeline.page_text import element_runs
from redacto.prompts import PromptLibrary
from redacto.vault import Vault

PAGE_BREAK = "\n\n"
"""Between two pages of the text the proofreader reads."""


class DetectionFailed(RuntimeError):
    """The detector could not read the document: nothing may be sent."""


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


def find_identifiers(
    document: Document,
    engine: Engine,
    prompts: PromptLibrary,
    *,
    options: PipelineOptions | None = None,
    on_event: OnEvent | None = None,
) -> list[Detection]:
    """Every identifier the pipeline finds (rules and model, every round), in its report's
    order. Raises `DetectionFailed` when the run ended in ERROR."""
    result = run_pipeline(document, engine, prompts, options=options, on_event=on_event)
    report = result.report
    if report.status is Status.ERROR:
        raise DetectionFailed(f"the detector could not read the document: {report.error}")
    return list(report.detections)


def mask_document(document: Document, detections: Sequence[Detection]) -> MaskedDocument:
    """The document's text with every detection replaced by its placeholder, then every
    other occurrence of a known value too; checked before it is returned."""
    vault = Vault()
    if document.mode is Mode.TEXT:
        segments, occurrences = _text_segments(document.text, detections, vault)
    else:
        segments, occurrences = _element_segments(document.elements, detections, vault)
    pieces: list[str] = []
    for plain, token in segments:
        if token is not None:
            pieces.append(token)
            continue
        at = 0
        for start, end, known in vault.hide_known(plain):
            pieces.append(plain[at:start] + known)
            at = end
            occurrences += 1
        pieces.append(plain[at:])
    masked = MaskedDocument("".join(pieces), vault, occurrences)
    check_nothing_leaks(masked)
    return masked


def check_nothing_leaks(masked: MaskedDocument) -> None:
    """Raise `ValueWouldLeak` if any value of the vault is still readable in the text."""
    if masked.vault.hide_known(masked.text):
        raise ValueWouldLeak("a detected value is still readable in the text to send")


Segment = tuple[str, str | None]
"""Plain text (token None), or the text a placeholder replaces and the placeholder."""


def _text_segments(
    text: str, detections: Sequence[Detection], vault: Vault
) -> tuple[list[Segment], int]:
    spans = sorted((d.span.start, d.span.end, d.label) for d in detections if d.span is not None)
    merged: list[tuple[int, int, str]] = []
    for start, end, label in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end), merged[-1][2])
        else:
            merged.append((start, end, label))
    segments: list[Segment] = []
    at = 0
    for start, end, label in merged:
        segments.append((text[at:start], None))
        segments.append((text[start:end], vault.placeholder_for(label, text[start:end])))
        at = end
    segments.append((text[at:], None))
    # Value-only detections (the locator could not place them) are still taught to the
    # vault, so any occurrence the text does hold is hidden by `hide_known`.
    for detection in detections:
        if detection.value and detection.value.strip():
            vault.placeholder_for(detection.label, detection.value.strip())
    return segments, len(merged)


def _element_segments(
    elements: Sequence[Element], detections: Sequence[Detection], vault: Vault
) -> tuple[list[Segment], int]:
    hidden = {d.index: d for d in detections if d.index is not None}
    segments: list[Segment] = []
    plain: list[str] = []
    occurrences = 0
    for gap, text, label in element_runs(elements, hidden, PAGE_BREAK):
        plain.append(gap)
        if label is None:
            plain.append(text)
            continue
        segments.append(("".join(plain), None))
        plain.clear()
        segments.append((text, vault.placeholder_for(label, text)))
        occurrences += 1
    segments.append(("".join(plain), None))
    # The detected value as the model wrote it ("Jean Dupont" for the words "Jean Dupont,")
    # is one more spelling of the same placeholder, hidden wherever else it occurs.
    for detection in detections:
        if detection.value and detection.value.strip():
            vault.placeholder_for(detection.label, detection.value.strip())
    return segments, occurrences
