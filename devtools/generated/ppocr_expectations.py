"""RapidOCR's and redacto's own answers for the inputs stored in `ppocr_golden.json`.

Shared by the generator that writes the file (`ppocr_golden.py`) and the test that checks it
is current (`tests/android/test_ppocr_golden.py`): every expected value in the file is what
the Python code (RapidOCR 3.10 post-processing, redacto's reading order and padding) makes
of the stored inputs.
"""

from __future__ import annotations

import base64
import math
from types import SimpleNamespace
from typing import Any

import numpy as np
from rapidocr.cal_rec_boxes import CalRecBoxes
from rapidocr.ch_ppocr_det.main import TextDetector
from rapidocr.ch_ppocr_det.utils import DBPostProcess
from rapidocr.ch_ppocr_rec.utils import CTCLabelDecode

from redacto.ocr.base import OcrLine, order_lines
from redacto.ocr.ppocr import _apportioned_words, _padded_box


def probability_map(case: dict[str, Any]) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(case["prob_u8_base64"]), dtype=np.uint8)
    return (raw.astype(np.float32) / 255.0).reshape(case["height"], case["width"])


def expected_det(case: dict[str, Any]) -> dict[str, Any]:
    """DB post-processing with RapidOCR's settings for PP-OCRv6 (config.yaml `Det`)."""
    post = DBPostProcess(
        thresh=0.3,
        box_thresh=0.5,
        max_candidates=1000,
        unclip_ratio=1.6,
        score_mode="fast",
        use_dilation=True,
    )
    prob = probability_map(case)
    boxes, scores = post(prob[np.newaxis, np.newaxis], (case["height"], case["width"]))
    found = [
        {"quad": [[float(x), float(y)] for x, y in box], "score": round(float(score), 4)}
        for box, score in zip(boxes, scores, strict=True)
    ]
    ordered: Any = TextDetector.sorted_boxes(np.array(boxes)) if len(boxes) else []
    return {"found": found, "boxes": [[[float(x), float(y)] for x, y in q] for q in ordered]}


def expected_rec(case: dict[str, Any]) -> dict[str, Any]:
    """CTC decoding, word grouping and word boxes exactly as RapidOCR computes them."""
    table = ["?"] * (case["classes"] - 2)
    for index, char in case["characters"].items():
        if 0 < int(index) < case["classes"] - 1:
            table[int(index) - 1] = char
    decoder: Any = CTCLabelDecode(character=table)  # RapidOCR's hints are narrower than its use
    indices = np.array([case["indices"]])
    probs = np.array([case["probs"]], dtype=np.float32)
    lines, infos = decoder.decode(
        indices, probs, True, [case["wh_ratio"]], case["max_wh_ratio"], remove_duplicate=True
    )
    (text, score), info = lines[0], infos[0]
    crop = np.zeros((case["crop_height"], case["crop_width"], 3), dtype=np.uint8)
    result = SimpleNamespace(txts=[text], word_results=[info])
    word_boxes: Any = CalRecBoxes()  # takes any object with txts and word_results
    boxes = word_boxes([crop], np.array([case["quad"]], dtype=np.float32), result)
    words = [
        {"text": word, "quad": [[float(x), float(y)] for x, y in quad]}
        for word, _, quad in boxes.word_results[0]
    ]
    return {
        "text": text,
        "score": score,
        "word_cols": [list(map(int, cols)) for cols in (info.word_cols or [])],
        "line_txt_len": float(info.line_txt_len),
        "words": words,
    }


def _rotated(cx: float, cy: float, w: float, h: float, degrees: float) -> list[list[float]]:
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return [[cx + x * cos - y * sin, cy + x * sin + y * cos] for x, y in corners]


LAYOUT_CASES: dict[str, list[list[list[float]]]] = {
    # A form: label and value side by side, rows top to bottom, given shuffled.
    "form": [
        _rotated(300, 40, 180, 20, 0),
        _rotated(80, 42, 120, 22, 0),
        _rotated(80, 90, 120, 20, 0),
        _rotated(320, 88, 200, 24, 0),
        _rotated(150, 140, 260, 20, 0),
    ],
    # The same page photographed 6 degrees off: the right end of a line sits lower.
    "tilted": [
        _rotated(x, y + 0.105 * x, w, 20, 6)
        for x, y, w in [
            (
                300,
                40,
                240,
            ),
            (90, 40, 140),
            (100, 80, 160),
            (320, 82, 220),
            (200, 120, 360),
        ]
    ],
    # Too steep to be a tilted photo: ordering falls back to the axis-aligned centres.
    "steep": [
        _rotated(100, 50, 200, 20, 30),
        _rotated(300, 30, 200, 20, 30),
        _rotated(150, 200, 200, 20, 30),
    ],
}


def expected_layout() -> dict[str, Any]:
    """Reading order of synthetic lines, and padded / apportioned word boxes."""
    orders = {}
    for name, quads in LAYOUT_CASES.items():
        lines = [OcrLine(words=(), corners=tuple((x, y) for x, y in q)) for q in quads]
        ordered = order_lines(lines)
        orders[name] = {"quads": quads, "order": [lines.index(line) for line in ordered]}
    line = OcrLine(words=(), corners=((10.0, 20.0), (210.0, 20.0), (210.0, 44.0), (10.0, 44.0)))
    pad = 0.3 * line.height
    apportioned = _apportioned_words("Jane  Q. Doe", 0.9, line, pad, (200, 100))
    padded = _padded_box([[3.0, 5.0], [40.0, 4.0], [41.0, 30.0], [2.0, 31.0]], 5.0, (38, 100))
    return {
        "orders": orders,
        "apportioned": {
            "text": "Jane  Q. Doe",
            "corners": [list(p) for p in line.corners],
            "pad": pad,
            "image": [200, 100],
            "words": [{"text": w.text, "box": w.box.as_list()} for w in apportioned],
        },
        "padded": {
            "quad": [[3.0, 5.0], [40.0, 4.0], [41.0, 30.0], [2.0, 31.0]],
            "pad": 5.0,
            "image": [38, 100],
            "box": padded.as_list(),
        },
    }
