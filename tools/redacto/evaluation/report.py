"""`report.md` and a self-contained `report.html` (inline SVG plots, base64 crops).

The HTML needs no network and no files beside it: plots are inline SVG from matplotlib,
before/after crops of image-mode misses are embedded PNGs. Reports show the synthetic
corpus's values (that is what a reviewer needs to see a miss); logs never do.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from jinja2 import Environment, StrictUndefined
from markupsafe import Markup
from PIL import Image, ImageDraw

from redacto.corpus.schema import CorpusDocument, PageInput
from redacto.document import Mode
from redacto.evaluation.results import DocumentResult, RunSummary, read_results
from redacto.evaluation.tables import (
    Table,
    answers_table,
    category_table,
    confusion_table,
    cost_table,
    headline_table,
    label_table,
    ratio_table,
    validator_table,
)

MAX_CROPS = 12
CROP_WIDTH = 420
WORST_DOCUMENTS = 15
_TEMPLATE = "report.html.j2"

_CSS = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.85rem}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}
th{background:#f2f2f2}
.note{color:#555;font-size:.85rem}
.plots{display:flex;flex-wrap:wrap;gap:1rem}
.plots figure{margin:0}
.crop{display:inline-block;margin:.5rem;border:1px solid #ddd;padding:.3rem;font-size:.8rem}
.pair{display:flex;gap:.4rem}
.pair figure{margin:0}
.pair img{display:block;max-width:420px}
"""


@dataclass(frozen=True)
class ReportFiles:
    markdown: Path
    html: Path


def write_reports(
    run_dir: Path,
    summary: RunSummary,
    documents: Sequence[CorpusDocument],
    cache_dir: Path,
    peer: RunSummary | None = None,
) -> ReportFiles:
    """Write `report.md` and `report.html` for the run in `run_dir`.

    `peer` (another finished run, e.g. Presidio on the same suite) adds its headline rows
    beside this run's.
    """
    wanted = {d.id for d in documents}
    results = [r for r in read_results(run_dir) if r.document_id in wanted]
    tables = _tables(summary, peer)
    worst = _worst_table(results, {d.id: d for d in documents})
    markdown = _markdown(summary, [*tables, worst])
    page = _html(summary, [*tables, worst], results, documents, cache_dir)
    files = ReportFiles(run_dir / "report.md", run_dir / "report.html")
    files.markdown.write_text(markdown, encoding="utf-8")
    files.html.write_text(page, encoding="utf-8")
    return files


def _tables(summary: RunSummary, peer: RunSummary | None) -> list[Table]:
    tables = [headline_table(summary, peer)]
    if any(mode.validator.verdicts for mode in summary.modes.values()):
        tables.append(validator_table(summary))
    answers = answers_table(summary)
    if answers is not None:
        tables.append(answers)
    tables.append(cost_table(summary))
    ratio = ratio_table(summary)
    if ratio is not None:
        tables.append(ratio)
    for mode_summary in summary.modes.values():
        tables += [category_table(mode_summary), label_table(mode_summary)]
        if mode_summary.classification.scored:
            tables.append(confusion_table(mode_summary))
    return tables


def _worst_table(results: Sequence[DocumentResult], documents: dict[str, CorpusDocument]) -> Table:
    ranked = sorted(
        results,
        key=lambda r: (
            -(r.score.tally.pii_words - r.score.tally.protected_words),
            -r.score.tally.preserve_violations,
            r.document_id,
        ),
    )[:WORST_DOCUMENTS]
    rows = []
    for result in ranked:
        text = documents[result.document_id].text
        leaks = [m for m in result.score.misses if m.kind == "leak"]
        shown = ", ".join(f"{m.label}: {text[m.start : m.end]}" for m in leaks[:4])
        tally = result.score.tally
        rows.append(
            [
                result.document_id,
                result.mode.value,
                f"{tally.pii_words - tally.protected_words}/{tally.pii_words}",
                str(tally.over_redacted_words),
                str(tally.preserve_violations),
                result.prediction.status.value if result.prediction.status else "—",
                shown + (" …" if len(leaks) > 4 else ""),
            ]
        )
    return Table(
        "Documents with the most leaks",
        [
            "document",
            "mode",
            "leaked words",
            "over-redacted",
            "preserve viol.",
            "status",
            "leaked (first 4)",
        ],
        rows,
    )


def _title(summary: RunSummary) -> str:
    config = summary.info.config
    return f"Redacto evaluation — {config.suite} — {summary.info.system_identity or config.system}"


def _config_line(summary: RunSummary) -> str:
    config = summary.info.config
    modes = ", ".join(m.value for m in config.modes)
    pages = "" if config.page_input is PageInput.IMAGE else f"pages as `{config.page_input}`, "
    return (
        f"suite `{config.suite}`, system `{config.system}`, modes {modes}, {pages}"
        f"OCR `{config.ocr}`, "
        f"rules {'on' if config.rules else 'off'}, detectors {config.detectors}, "
        f"{'gold category given (classify skipped), ' if config.gold_category else ''}"
        f"{summary.documents} documents, "
        f"{summary.wall_s:,.1f} s of system time, started {summary.info.started}"
    )


def _markdown(summary: RunSummary, tables: list[Table]) -> str:
    parts = [f"# {_title(summary)}", "", _config_line(summary), ""]
    parts += [table.markdown() for table in tables]
    return "\n".join(parts)


def _html(
    summary: RunSummary,
    tables: list[Table],
    results: Sequence[DocumentResult],
    documents: Sequence[CorpusDocument],
    cache_dir: Path,
) -> str:
    """The page, from `report.html.j2`: every value escaped, the plots' own SVG kept."""
    from redacto.evaluation.plots import summary_plots

    source = files("redacto.evaluation").joinpath(_TEMPLATE).read_text(encoding="utf-8")
    environment = Environment(
        autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True
    )
    return environment.from_string(source).render(
        title=_title(summary),
        config_line=_config_line(summary).replace("`", ""),
        css=Markup(_CSS),
        plots=[Markup(svg) for svg in summary_plots(summary)],
        tables=tables,
        crops=_crops(results, documents, cache_dir, summary.info.config.page_input),
    )


@dataclass(frozen=True)
class _Crop:
    """One image-mode miss: the page around it before and after redaction, inline JPEGs."""

    before: str
    after: str
    caption: str


def _crops(
    results: Sequence[DocumentResult],
    documents: Sequence[CorpusDocument],
    cache_dir: Path,
    page_input: PageInput,
) -> list[_Crop]:
    """Before/after crops around leaked words and preserve violations (image mode only)."""
    by_id = {d.id: d for d in documents}
    crops: list[_Crop] = []
    image_results = [r for r in results if r.mode is Mode.IMAGE and r.score.misses]
    image_results.sort(key=lambda r: r.score.tally.protected_words - r.score.tally.pii_words)
    for result in image_results:
        if len(crops) >= MAX_CROPS:
            break
        leaks = [m for m in result.score.misses if m.kind == "leak" and m.word_index is not None]
        if not leaks:
            continue
        from redacto.corpus.pdf_pages import render_input

        page = render_input(by_id[result.document_id], page_input, cache_dir)
        miss = leaks[0]
        word = next(w for w in page.words if w.index == miss.word_index)
        with Image.open(page.image_path) as image:
            before, after = _before_after(image.convert("RGB"), result, word.box.as_list())
        caption = (
            f"{result.document_id}: {miss.label} “{word.text}” left readable "
            f"({100 * (miss.coverage or 0):.0f} % covered)"
        )
        crops.append(_Crop(_jpeg(before), _jpeg(after), caption))
    return crops


def _before_after(
    image: Image.Image, result: DocumentResult, word: list[float]
) -> tuple[Image.Image, Image.Image]:
    x0, y0, x1, y1 = word
    line = max(y1 - y0, 10)
    region = (
        max(int(x0 - 12 * line), 0),
        max(int(y0 - 3 * line), 0),
        min(int(x1 + 12 * line), image.width),
        min(int(y1 + 3 * line), image.height),
    )
    before = image.crop(region)
    redacted = image.copy()
    draw = ImageDraw.Draw(redacted)
    for predicted in result.prediction.boxes:
        draw.rectangle(predicted.box.as_list(), fill="black")
    draw.rectangle([x0 - 2, y0 - 2, x1 + 2, y1 + 2], outline="red", width=3)
    return before, redacted.crop(region)


def _jpeg(image: Image.Image) -> str:
    """A crop as an inline JPEG, at most `CROP_WIDTH` wide (photos compress badly as PNG)."""
    if image.width > CROP_WIDTH:
        image = image.resize((CROP_WIDTH, round(image.height * CROP_WIDTH / image.width)))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
