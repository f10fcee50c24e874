"""The text layer of `redacted.pdf` on the corpus's own pages, with their gold PII redacted.

    python -m devtools.bench.text_layer_corpus [--suite main] [--split test] [--limit N] [--scanned]

Each document becomes the one-page PDF the PDF eval reads (`corpus/pdf_pages.py`: the flat
page as real text, or with `--scanned` the phone photo), is read by `read_pdf` — born-digital
pages from their text layer alone (no OCR: the eval found OCR adds nothing there), scanned
pages by their gold words, as a perfect OCR would read them — and every word a gold PII
span touches is boxed, as a model that found everything would. The redacted PDF is then
built and checked exactly as a run does (`verified_pdf_bytes`), and poppler's `pdftotext`
reads it independently: no gold PII word may be found in it (unless the page keeps the same
word in the clear elsewhere), every kept word must be. Prints pages checked, failures (by
document id; never text), the words written and the time per page. Figures: docs/pdf.md.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from redacto.corpus.pdf_pages import render_input
from redacto.corpus.schema import CorpusDocument, PageInput, RenderedPage
from redacto.corpus.suites import load_suite
from redacto.document import Box, Detection, Element, Source
from redacto.ocr.base import OcrEngine
from redacto.pdf import PdfVerificationError, read_pdf
from redacto.pdf.output import boxes_by_page, kept_words, redacted_values, verified_pdf_bytes
from redacto.pdf.text_layer import layer_text


class _Words(OcrEngine):
    """A stand-in OCR that reads what it is given (nothing, for a born-digital page)."""

    name = "gold"

    def __init__(self, words: list[Element]) -> None:
        self.words = words

    def read(self, image: object) -> list[Element]:
        return list(self.words)


def _is_pii(doc: CorpusDocument, start: int, end: int) -> bool:
    return any(span.start < end and start < span.end for span in doc.pii)


def check(doc: CorpusDocument, page: RenderedPage, scanned: bool) -> tuple[str | None, int]:
    """Redact one page's gold PII through the product's writer and check; a problem or
    None, and the words its text layer holds."""
    assert page.pdf_path is not None
    gold = [Element(index=w.index, text=w.text, box=w.box) for w in page.words]
    read = read_pdf(page.pdf_path, ocr=_Words(gold if scanned else []))
    pii_boxes = [w.box for w in page.words if _is_pii(doc, w.start, w.end)]
    detections = [
        Detection(label="PII", source=Source.DETECT, round=1, index=e.index)
        for e in read.document.elements
        if e.box is not None and any(_overlap(e.box, box) > 0.5 for box in pii_boxes)
    ]
    boxes = [read.document.elements[d.index].box for d in detections]  # type: ignore[index]
    per_page = boxes_by_page(read, detections, boxes)  # type: ignore[arg-type]
    words = kept_words(read, detections, per_page)
    try:
        data = verified_pdf_bytes(read, per_page, redacted_values(read, detections), words)
    except PdfVerificationError as error:
        return f"check after writing: {error}", 0
    found = Counter(_poppler_words(data))
    kept = Counter(word.text for word in words[0])
    if found != kept:
        return "pdftotext reads other words than the kept ones", len(words[0])
    redacted = {layer_text(read.document.elements[d.index].text) for d in detections}  # type: ignore[index]
    if any(found[word] > kept[word] for word in redacted):
        return "pdftotext reads a redacted word", len(words[0])
    return None, len(words[0])


def _overlap(box: Box, other: Box) -> float:
    """How much of `box` lies under `other`."""
    width = min(box.x1, other.x1) - max(box.x0, other.x0)
    height = min(box.y1, other.y1) - max(box.y0, other.y0)
    if width <= 0 or height <= 0 or box.area <= 0:
        return 0.0
    return width * height / box.area


def _poppler_words(data: bytes) -> list[str]:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        out = subprocess.run(
            ["pdftotext", handle.name, "-"], check=True, capture_output=True, text=True
        ).stdout
    return out.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="main")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--scanned", action="store_true")
    args = parser.parse_args()
    documents = [d for d in load_suite(args.suite) if not args.split or d.split == args.split]
    documents = documents[: args.limit]
    kind = PageInput.PDF_SCAN if args.scanned else PageInput.PDF_TEXT
    cache = Path(".cache") / "corpus"
    failures: list[tuple[str, str]] = []
    written = 0
    seconds = 0.0
    for doc in documents:
        page = render_input(doc, kind, cache)
        start = time.perf_counter()
        problem, count = check(doc, page, args.scanned)
        seconds += time.perf_counter() - start
        written += count
        if problem is not None:
            failures.append((doc.id, problem))
    print(
        f"{len(documents)} {kind.value} pages ({args.suite}/{args.split or 'all'}): "
        f"{len(failures)} failed; {written} words in the text layers; "
        f"read + write + check {seconds / max(len(documents), 1) * 1000:.0f} ms/page"
    )
    for doc_id, problem in failures:
        print(f"  {doc_id}: {problem}")


if __name__ == "__main__":
    main()
