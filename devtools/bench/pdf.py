"""Time and peak memory per page of PDF reading and redacted-PDF writing, on a generated PDF.

    python -m devtools.bench.pdf [--pages 50] [--scanned]

Builds a PDF of `--pages` born-digital pages (20 lines of text each) or, with `--scanned`,
of page images read by OCR (PP-OCR), then measures `read_pdf` and `write_redacted_pdf` +
`verify_redacted_pdf` with one box per line, twice: page images only (`--no-text-layer`),
and with the invisible text layer of every word not boxed (the default output). The model's
time is not included (it depends on the model, not on the PDF). Prints seconds per page,
the outputs' sizes and the process's peak RSS. Figures: docs/pdf.md.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from devtools.bench.harness import bench_parser, main_or_compare
from devtools.fixtures.pdf_builder import PAGE_H, PAGE_W, Doc, Page, draw_image, text
from redacto.document import Box, Element
from redacto.pdf import read_pdf, verify_redacted_pdf, write_redacted_pdf
from redacto.pdf.geometry import PageGeometry
from redacto.pdf.text_layer import LayerWord, layer_words


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def scan(number: int) -> Image.Image:
    image = Image.new("RGB", (1700, 1100), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=40)
    for line in range(8):
        draw.text(
            (120, 80 + 120 * line),
            f"Page {number} line {line} Jane Smith 555-0100",
            fill=0,
            font=font,
        )
    return image


def build(path: Path, pages: int, scanned: bool) -> Path:
    built = []
    for number in range(pages):
        if scanned:
            built.append(
                Page(draw_image("Scan", 0, 0, PAGE_W, PAGE_H), images={"Scan": scan(number)})
            )
        else:
            lines = "".join(
                text(
                    54,
                    370 - 17 * line,
                    f"Page {number} line {line}: Jane Smith, 12 Harbour Road",
                    size=12,
                )
                for line in range(20)
            )
            built.append(Page(lines))
    return Doc(built).write(path)


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--scanned", action="store_true")
    args = parser.parse_args(argv)
    return main_or_compare(__spec__.name, args, argv, run, packages=("pypdfium2", "pillow"))


def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = build(Path(folder) / "bench.pdf", args.pages, args.scanned)
        baseline = peak_rss_mb()
        start = time.perf_counter()
        read = read_pdf(source)
        read_s = time.perf_counter() - start
        after_read = peak_rss_mb()
        per_page: list[list[Box]] = [[] for _ in read.pages]
        kept: list[list[Element]] = [[] for _ in read.pages]
        for element in read.document.elements:
            assert element.box is not None
            if element.text == "Smith," or element.text == "Smith":
                per_page[element.page].append(element.box)
            else:
                kept[element.page].append(element)
        words = [layer_words(kept[n], per_page[n]) for n in range(len(read.pages))]
        pages = [page.geometry for page in read.pages]
        kind = "scanned (OCR)" if args.scanned else "born-digital"
        print(
            f"{args.pages} {kind} pages, {len(read.document.elements)} words, "
            f"{sum(map(len, per_page))} boxes; read: {read_s:.1f} s, "
            f"{read_s / args.pages * 1000:.0f} ms/page"
        )
        for name, layer in (("page images only", None), ("with the text layer", words)):
            target = Path(folder) / "redacted.pdf"
            write_s, verify_s = measure(source, per_page, target, pages, layer)
            size = target.stat().st_size
            print(
                f"{name:>20}: write {write_s / args.pages * 1000:4.0f} ms/page, verify "
                f"{verify_s / args.pages * 1000:4.0f} ms/page, output {size / 1e6:.2f} MB "
                f"({size / args.pages / 1e3:.1f} kB/page)"
            )
        print(
            f"peak RSS: {baseline:.0f} MB before, {after_read:.0f} MB after reading, "
            f"{peak_rss_mb():.0f} MB at the end"
        )


def measure(
    source: Path,
    per_page: list[list[Box]],
    target: Path,
    pages: list[PageGeometry],
    words: list[list[LayerWord]] | None,
) -> tuple[float, float]:
    """Seconds to write the redacted PDF, and to verify it."""
    start = time.perf_counter()
    write_redacted_pdf(source, per_page, target, pages=pages, words_by_page=words)
    written = time.perf_counter()
    verify_redacted_pdf(target, per_page, pages=pages, values=["Smith"], words_by_page=words)
    return written - start, time.perf_counter() - written


if __name__ == "__main__":
    sys.exit(main())
