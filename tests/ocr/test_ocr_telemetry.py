"""PP-OCR's runtime writes nothing of its own: ONNX Runtime's telemetry stays off."""

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


@pytest.mark.slow
def test_reading_a_page_writes_no_file_in_home_or_the_temporary_folder(tmp_path: Path) -> None:
    # A fresh process: onnxruntime decides about telemetry when it is first imported.
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    scratch.mkdir()
    environment = {
        key: value for key, value in os.environ.items() if key != "ORT_DISABLE_TELEMETRY"
    }
    environment |= {"HOME": str(home), "TMPDIR": str(scratch)}
    subprocess.run([sys.executable, "-c", _READ_A_PAGE], env=environment, check=True, timeout=300)
    # Without the opt-out: tmp/.ses and home/.cache/Microsoft/DeveloperTools/.onnxruntime/.
    assert [path for path in tmp_path.rglob("*") if path.is_file()] == []
