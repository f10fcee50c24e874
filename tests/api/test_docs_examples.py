"""The README's "Use from Python" example and docs/api.md's examples run, as written.

The examples name no model (`Redactor()`: the embedded default, `redacto-270m`, which
takes minutes to build). Here each is run with one substitution, made explicitly and
nothing else changed: a scripted model (`scripted:FILE`, trusting its validator) is passed
as `Redactor`'s first argument. OCR (PP-OCR), the rules and the NER tier are the real ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from cli_runs import render_short_page
from redacto.host.resources import SOURCE_ROOT
from redacto.inputs.image import photo_pdf_bytes
from scripted_models import TRUSTING_TABLE

FENCE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def python_blocks(markdown: str) -> list[str]:
    return FENCE.findall(markdown)


def readme_example() -> str:
    readme = (SOURCE_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Use from Python\n", 1)[1].split("\n## ", 1)[0]
    (block,) = python_blocks(section)
    return block


def with_model(code: str, uri: str) -> str:
    """The example with `uri` as the model: `Redactor()` → `Redactor(uri)`, and
    `Redactor(detectors=…` → `Redactor(uri, detectors=…`."""
    substituted = code.replace("Redactor()", f"Redactor({uri!r})")
    substituted = substituted.replace("Redactor(detectors", f"Redactor({uri!r}, detectors")
    assert substituted.count(uri) == code.count("Redactor(") >= 1
    return substituted


def script(tmp_path: Path, replies: dict[str, list[str]]) -> str:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps({**replies, **TRUSTING_TABLE}), encoding="utf-8")
    return f"scripted:{path}"


@pytest.mark.slow
def test_the_readme_example_redacts_a_string_a_photo_and_a_pdf(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    page = render_short_page(tmp_path / "page.png")
    with Image.open(page) as image:
        image.convert("RGB").save("scan.jpg", quality=95)
        Path("contract.pdf").write_bytes(photo_pdf_bytes(image))
    uri = script(
        tmp_path,
        {
            "classify": ["CATEGORY: Medical"] * 3,
            "detect": ["NAME: Jane Smith", "1:NAME\n2:NAME", "1:NAME\n2:NAME"],
            "redact": ["Patient [NAME_1], call [PHONE_1]."],
            "validate": ["PASS"] * 3,
        },
    )
    exec(compile(with_model(readme_example(), uri), "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "PASS Patient [NAME_1], call [PHONE_1]."
    photo_done = Path("scan-redacted.png").is_file() or printed[1].startswith("NEEDS_REVIEW")
    assert photo_done, printed
    written = sorted(path.name for path in Path("out/contract").iterdir())
    assert written == ["redacted.pdf", "redacted.txt", "report.json"]
    report = json.loads(Path("out/contract/report.json").read_text(encoding="utf-8"))
    assert report["status"] in ("PASS", "NEEDS_REVIEW") and report["pdf"]["verified"]


@pytest.mark.slow
def test_the_api_page_s_examples_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    page = (SOURCE_ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = python_blocks(page)
    assert blocks, "docs/api.md shows no python example"
    uri = script(
        tmp_path,
        {"detect": ["NAME: Jane Smith"], "redact": ["[unused]"], "validate": ["PASS"]},
    )
    for number, block in enumerate(blocks):
        exec(compile(with_model(block, uri), f"docs/api.md#{number}", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert {line.split()[0] for line in printed} >= {"NAME", "PHONE"}
