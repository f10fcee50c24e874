"""`redacto redact` on images: `--elements`, bad images, metadata, and the real end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cli_runs import all_files, digest, redact, render_short_page, script

ELEMENTS = [
    {"text": "Patient", "box": [5, 5, 60, 25]},
    {"text": "Jane", "box": [70, 5, 110, 25]},
    {"text": "Smith", "box": [115, 5, 160, 25]},
    {"text": "fracture", "box": [170, 5, 230, 25]},
]


def photo_with_exif(path: Path) -> Path:
    image = Image.new("RGB", (240, 40), (255, 255, 255))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0131] = "CameraApp 1.0"  # Software
    image.save(path, format="JPEG", exif=exif.tobytes(), quality=95)
    return path


def test_elements_file_skips_ocr_and_burns_the_detected_boxes(tmp_path):
    photo = photo_with_exif(tmp_path / "photo.jpg")
    before = digest(photo)
    elements = tmp_path / "elements.json"
    elements.write_text(json.dumps(ELEMENTS), encoding="utf-8")
    model = script(
        tmp_path,
        classify=["CATEGORY: Medical"],
        detect=["1:NAME\n2:NAME"],
        validate=["PASS"],
    )
    out = tmp_path / "out"
    result = redact(photo, "--elements", elements, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 0, result.output
    assert digest(photo) == before
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["mode"] == "image" and report["ocr"] is None
    assert report["count_shown"] == len(report["boxes"]) == 2
    assert (out / "redacted.txt").read_text(
        encoding="utf-8"
    ) == "Patient [NAME_1] [NAME_2] fracture"
    redacted = Image.open(out / "redacted.png")
    assert redacted.format == "PNG" and redacted.size == (240, 40)
    assert not redacted.getexif() and "exif" not in redacted.info
    rgb = redacted.convert("RGB")
    assert rgb.getpixel((90, 15)) == (0, 0, 0)  # inside Jane's box
    assert rgb.getpixel((137, 15)) == (0, 0, 0)  # inside Smith's box
    assert rgb.getpixel((30, 15)) != (0, 0, 0)  # "Patient" is not redacted
    assert rgb.getpixel((200, 15)) != (0, 0, 0)  # neither is the diagnosis


def bad_image(tmp_path: Path, kind: str) -> Path:
    if kind == "corrupt":
        path = tmp_path / "corrupt.png"
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00garbage" * 64)
    elif kind == "empty":
        path = tmp_path / "empty.png"
        path.write_bytes(b"")
    elif kind == "over 100 megapixels":
        path = tmp_path / "bomb.png"
        Image.new("1", (10_050, 10_050), 1).save(path)  # 101 MP, a small file
    else:  # a text file that claims to be a photo
        path = tmp_path / "fake.jpg"
        path.write_text("not an image", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["corrupt", "empty", "over 100 megapixels", "text named jpg"])
def test_bad_images_exit_2_and_write_nothing(tmp_path, kind):
    path = bad_image(tmp_path, kind)
    model = script(tmp_path, classify=["CATEGORY: General"])
    before = all_files(tmp_path)
    result = redact(path, "--model", model, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "bad input" in result.stderr
    assert all_files(tmp_path) == before


@pytest.mark.slow
def test_a_50_megapixel_photo_is_redacted_at_full_size(tmp_path):
    photo = tmp_path / "phone.png"
    Image.new("L", (8160, 6144), 255).save(photo)  # 50.1 MP, as a phone camera takes them
    before = digest(photo)
    elements = tmp_path / "elements.json"
    box = [8000, 6000, 8100, 6100]
    elements.write_text(json.dumps([{"text": "Jane", "box": box}]), encoding="utf-8")
    model = script(tmp_path, classify=["CATEGORY: General"], detect=["0:NAME"], validate=["PASS"])
    out = tmp_path / "out"
    result = redact(photo, "--elements", elements, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 0, result.output
    assert digest(photo) == before
    with Image.open(out / "redacted.png") as redacted:
        assert redacted.size == (8160, 6144)
        assert redacted.getpixel((8050, 6050)) in (0, (0, 0, 0))
        assert redacted.getpixel((100, 100)) in (255, (255, 255, 255))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{}", "expected a JSON list"),
        ("[{", "not a JSON file"),
        ('[{"box": [0, 0, 1, 1]}]', "element 0: text"),
        ('[{"text": "a", "box": [0, 0, 1]}]', "element 0: box"),
        ('[{"text": "a", "box": [0, 0, 9999, 10]}]', "outside the image"),
        ('[{"text": "a", "box": [10, 0, 5, 10]}]', "element 0"),
        ('[{"text": "a", "box": [0, NaN, 5, 10]}]', "element 0: box.1"),
        ('[{"text": "a", "box": [0, 0, Infinity, 10]}]', "element 0: box.2"),
        ('[{"text": "a", "box": [0, 0, -Infinity, 10]}]', "element 0: box.2"),
    ],
)
def test_bad_elements_files_exit_2_and_write_nothing(tmp_path, content, message):
    photo = photo_with_exif(tmp_path / "photo.jpg")
    elements = tmp_path / "elements.json"
    elements.write_text(content, encoding="utf-8")
    model = script(tmp_path, classify=["CATEGORY: General"])
    before = all_files(tmp_path)
    result = redact(photo, "--elements", elements, "--model", model, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert all_files(tmp_path) == before


@pytest.mark.slow
def test_end_to_end_on_a_rendered_page_with_real_ocr_and_the_tiny_model(tmp_path, tiny_model_path):
    page = render_short_page(tmp_path / "page.png")
    before = digest(page)
    out = tmp_path / "out"
    result = redact(page, "--model", f"litertlm:{tiny_model_path}", "--out", out)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    # A random model: its words are noise, so assert on what the pipeline guarantees.
    assert report["status"] in ("PASS", "NEEDS_REVIEW"), report["error"]
    assert result.exit_code == {"PASS": 0, "NEEDS_REVIEW": 10}[report["status"]], result.output
    assert digest(page) == before
    assert report["ocr"].startswith("ppocr")
    assert report["model"]["sha256"] and report["model"]["uri"].startswith("litertlm:")
    steps = [step["step"] for step in report["steps"]]
    assert steps[:2] == ["classify", "detect"] and "validate" in steps
    assert all(step["prompt_tokens"] for step in report["steps"])
    assert report["count_shown"] == len(report["boxes"])
    rule_labels = {d["label"] for d in report["detections"] if d["source"] == "rule"}
    assert {"EMAIL", "PHONE"} <= rule_labels, "the rules must catch what the random model misses"
    with Image.open(out / "redacted.png") as redacted, Image.open(page) as original:
        assert redacted.size == original.size
        assert not redacted.getexif()
        rgb = redacted.convert("RGB")
        for box in report["boxes"]:
            centre = ((box["x0"] + box["x1"]) / 2, (box["y0"] + box["y1"]) / 2)
            assert rgb.getpixel(centre) == (0, 0, 0)
    assert (out / "redacted.txt").exists()


def test_a_phone_mpo_jpeg_is_redacted_from_its_primary_image(tmp_path):
    photo = tmp_path / "phone.jpg"
    Image.new("RGB", (240, 40), "white").save(
        photo, format="MPO", save_all=True, append_images=[Image.new("RGB", (60, 10), "red")]
    )
    elements = tmp_path / "elements.json"
    elements.write_text(json.dumps([{"text": "Jane", "box": [10, 5, 60, 30]}]), encoding="utf-8")
    model = script(tmp_path, classify=["CATEGORY: General"], detect=["0:NAME"], validate=["PASS"])
    out = tmp_path / "out"
    result = redact(photo, "--elements", elements, "--model", model, "--out", out, "--no-rules")
    assert result.exit_code == 0, result.output
    with Image.open(out / "redacted.png") as redacted:
        assert redacted.format == "PNG" and redacted.size == (240, 40)
        assert redacted.getpixel((30, 15)) == (0, 0, 0)
        assert redacted.getpixel((200, 15)) == (255, 255, 255)


def test_a_redacted_png_hard_linked_to_the_input_is_refused_without_a_traceback(tmp_path):
    photo = tmp_path / "photo.png"
    Image.new("RGB", (240, 40), "white").save(photo)
    before = digest(photo)
    out = tmp_path / "out"
    out.mkdir()
    (out / "redacted.png").hardlink_to(photo)
    model = script(tmp_path, classify=["CATEGORY: General"])
    result = redact(photo, "--model", model, "--out", out, "--elements", write_one_word(tmp_path))
    assert result.exit_code == 2, result.output
    assert "is the input itself" in result.stderr and "Traceback" not in result.output
    assert digest(photo) == before
    assert sorted(p.name for p in out.iterdir()) == ["redacted.png"]  # the user's own link


def write_one_word(tmp_path: Path) -> Path:
    elements = tmp_path / "one.json"
    elements.write_text(json.dumps([{"text": "Jane", "box": [10, 5, 60, 30]}]), encoding="utf-8")
    return elements


def test_ocr_that_cannot_start_leaves_no_earlier_pass_outputs_behind(tmp_path, monkeypatch):
    import redacto.ocr
    from redacto.ocr import OcrError

    photo = photo_with_exif(tmp_path / "photo.jpg")
    out = tmp_path / "out"
    model = script(tmp_path, classify=["CATEGORY: General"], detect=["0:NAME"], validate=["PASS"])
    first = redact(photo, "--elements", write_one_word(tmp_path), "--model", model, "--out", out)
    assert first.exit_code == 0 and (out / "redacted.png").exists()

    def broken(name: str):
        raise OcrError("the PP-OCR models could not be loaded")

    monkeypatch.setattr(redacto.ocr, "open_ocr", broken)
    result = redact(photo, "--model", model, "--out", out)
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "ERROR" and "could not be loaded" in report["error"]
    assert report["input"]["name"] == "photo.jpg"
