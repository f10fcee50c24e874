"""ONNX Runtime writes nothing of its own: its telemetry stays off under PP-OCR and the NER tier."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

_READ_A_PAGE = """
from PIL import Image
from redacto.ocr import open_ocr
open_ocr("ppocr").read(Image.new("RGB", (200, 50), "white"))
"""

_READ_A_TEXT = """
from redacto.ner import ner_session
ner_session().read("Joana Ferreira, 12 rue des Lilas, 69003 Lyon")
"""


@pytest.mark.slow
@pytest.mark.parametrize("script", [_READ_A_PAGE, _READ_A_TEXT], ids=["ppocr", "ner"])
def test_onnx_runtime_writes_no_file_in_home_or_the_temporary_folder(
    script: str, tmp_path: Path
) -> None:
    # A fresh process: onnxruntime decides about telemetry when it is first imported.
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    scratch.mkdir()
    environment = dict(os.environ)
    # A 0 left in a shell must not switch the collector on.
    environment |= {"HOME": str(home), "TMPDIR": str(scratch), "ORT_DISABLE_TELEMETRY": "0"}
    subprocess.run([sys.executable, "-c", script], env=environment, check=True, timeout=300)
    # Without the opt-out: tmp/.ses and home/.cache/Microsoft/DeveloperTools/.onnxruntime/.
    assert [path for path in tmp_path.rglob("*") if path.is_file()] == []
