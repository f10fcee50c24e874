"""The PDF eval inputs: boxes mapped back onto gold pixels, and a scripted run scored on them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_cases import DOCUMENT
from PIL import Image

from redacto.corpus.pdf_pages import render_input
from redacto.corpus.schema import PageInput
from redacto.document import Box, Element, Mode
from redacto.evaluation.inputs import PageReader, map_box
from redacto.evaluation.pipeline_system import PipelineSystem
from redacto.evaluation.results import RunConfig, RunError, RunInfo, read_results
from redacto.evaluation.run import run_evaluation
from redacto.ocr import OcrEngine


class FakeOcr(OcrEngine):
    """An OCR engine with canned words; it records the size of each picture it is shown."""

    name = "fake-ocr"

    def __init__(self, words: list[tuple[str, Box]] | None = None) -> None:
        self.words = words or []
        self.sizes: list[tuple[int, int]] = []

    def read(self, image: Image.Image) -> list[Element]:
        self.sizes.append(image.size)
        return [Element(index=i, text=t, box=b) for i, (t, b) in enumerate(self.words)]


def b(x0: float, y0: float, x1: float, y1: float) -> Box:
    return Box(x0=x0, y0=y0, x1=x1, y1=y1)


@pytest.mark.parametrize(
    ("box", "source", "target", "expected"),
    [
        (b(10, 20, 30, 40), (100, 200), (100, 200), b(10, 20, 30, 40)),
        (b(10, 20, 30, 40), (100, 200), (50, 100), b(5, 10, 15, 20)),
        (b(0, 0, 100, 200), (100, 200), (300, 400), b(0, 0, 300, 400)),
        (b(50, 50, 60, 60), (100, 100), (200, 100), b(100, 50, 120, 60)),
    ],
)
def test_map_box_scales_each_axis_onto_the_target_picture(box, source, target, expected) -> None:
    assert map_box(box, source, target) == expected


def test_a_born_digital_page_is_read_from_its_text_layer_onto_the_gold_boxes(tmp_path) -> None:
    page = render_input(DOCUMENT, PageInput.PDF_TEXT, tmp_path)
    reader = PageReader("ppocr")
    ocr = FakeOcr()
    reader._engine = ocr
    elements = reader.read(page)
    assert ocr.sizes == [(page.width, page.height)]  # every page is OCR'd too
    assert [e.text for e in elements] == [w.text for w in page.words]
    for element, gold in zip(elements, page.words, strict=True):
        assert element.box is not None
        assert element.box.x0 <= gold.box.x0 and element.box.x1 >= gold.box.x1
        assert element.box.y0 <= gold.box.y0 and element.box.y1 >= gold.box.y1


def test_a_scanned_page_is_read_by_ocr_with_its_boxes_in_photo_pixels(tmp_path) -> None:
    page = render_input(DOCUMENT, PageInput.PDF_SCAN, tmp_path)
    seen = Box(x0=100, y0=120, x1=180, y1=150)
    reader = PageReader("ppocr")
    reader._engine = FakeOcr([("Smith", seen)])
    assert [(e.text, e.box) for e in reader.read(page)] == [("Smith", seen)]


def test_gold_words_are_refused_for_a_pdf_page(tmp_path) -> None:
    page = render_input(DOCUMENT, PageInput.PDF_TEXT, tmp_path)
    with pytest.raises(ValueError, match="OCR engine"):
        PageReader("gold").read(page)


def test_a_scripted_pipeline_on_the_born_digital_pdf_hides_what_it_detects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "pages"
    page = render_input(DOCUMENT, PageInput.PDF_TEXT, cache)
    # Text-layer order is the gold order here (one paragraph): detect "John Smith", not the
    # phone, so exactly the phone leaks.
    name = [w.index for w in page.words if w.text in ("John", "Smith")]
    replies = {
        "classify": ["DOCUMENT_TYPE: note\nCATEGORY: Medical"],
        "detect": ["\n".join(f"{i}:NAME" for i in name)],
        "validate": ["PASS"],
    }
    script = tmp_path / "script.json"
    script.write_text(json.dumps(replies), encoding="utf-8")
    system = PipelineSystem(f"scripted:{script}", ocr="ppocr", rules=False)
    monkeypatch.setattr(system.reader, "_engine", FakeOcr())
    config = RunConfig(
        suite="hand",
        system="scripted",
        modes=(Mode.IMAGE,),
        ocr="ppocr",
        rules=False,
        page_input=PageInput.PDF_TEXT,
    )
    out = tmp_path / "run"
    summary = run_evaluation(system, [DOCUMENT], config, out, cache_dir=cache)
    (result,) = read_results(out)
    assert result.prediction.error is None
    assert len(result.prediction.boxes) == 2
    counts = summary.modes[Mode.IMAGE].overall.counts
    assert counts.pii_words == 3  # John, Smith, 555-0101
    assert summary.modes[Mode.IMAGE].overall.leak_rate == pytest.approx(1 / 3)
    assert summary.modes[Mode.IMAGE].overall.box_coverage is not None
    assert "pages as `pdf-text`" in (out / "report.md").read_text(encoding="utf-8")

    # A photo run is other work: it may not resume into this folder.
    with pytest.raises(RunError, match="different configuration"):
        run_evaluation(
            system, [DOCUMENT], config.model_copy(update={"page_input": PageInput.IMAGE}), out
        )


def test_a_run_recorded_before_pdf_inputs_reads_as_a_photo_run() -> None:
    old = {"config": {"suite": "s", "system": "x", "modes": ["image"]}, "started": "t"}
    assert RunInfo.model_validate(old).config.page_input is PageInput.IMAGE


def test_the_cli_refuses_gold_words_for_a_pdf_input() -> None:
    from typer.testing import CliRunner

    import redacto.cli.eval  # noqa: F401 - registers `eval`
    from redacto.cli._app import app

    arguments = ["eval", "run", "--suite", "smoke", "--model", "scripted:none.json"]
    result = CliRunner().invoke(app, [*arguments, "--input", "pdf-text", "--ocr", "gold"])
    assert result.exit_code == 2
    assert "OCR engine" in result.output
