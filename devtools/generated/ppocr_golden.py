"""Render `tests/android/ppocr_golden.json`: PP-OCR post-processing inputs and RapidOCR's own
answers.

The phone re-implements RapidOCR's post-processing in Kotlin (`android/core`, Ocr*.kt). This
module runs the real PP-OCRv6 ONNX models from the `rapidocr` wheel on a small rendered page
once, stores the raw model outputs (the detector's probability map, quantised to 8 bits, and
the recogniser's per-step best class and probability) and what RapidOCR's own classes make of
them. The Kotlin tests feed the same inputs to the Kotlin code and must get the same answers;
`tests/android/test_ppocr_golden.py` recomputes the answers from the stored inputs so they
cannot drift. ONNX Runtime's kernels round differently from one CPU to another, so a fresh
run does not give the committed bytes: the file is written only when named,

    python -m devtools.generated --write ppocr-golden
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
import rapidocr
from PIL import Image, ImageDraw, ImageFont
from rapidocr.ch_ppocr_rec.utils import CTCLabelDecode
from rapidocr.utils.process_img import get_rotate_crop_image

from devtools.generated.ppocr_expectations import expected_det, expected_layout, expected_rec

GOLDEN = "tests/android/ppocr_golden.json"
MODELS = Path(rapidocr.__file__).parent / "models"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = [
    (12, 10, "Patient: Jane Doe"),
    (12, 52, "MRN 4471-22  DOB 03/14/1980"),
    (200, 92, "Ward 7"),
]
SIZE = (352, 128)  # multiples of 32: the detector runs at native size here


def render() -> np.ndarray:
    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 20)
    for x, y, text in LINES:
        draw.text((x, y), text, fill="black", font=font)
    return np.asarray(image)


def normalise(image: np.ndarray) -> np.ndarray:
    chw = ((image.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)
    return chw[np.newaxis].astype(np.float32)


def outputs() -> dict[str, str]:
    """The golden file (relative to the repository root) and its text, from a fresh run."""
    page = render()
    det = onnxruntime.InferenceSession(str(MODELS / "PP-OCRv6_det_small.onnx"))
    prob = det.run(None, {det.get_inputs()[0].name: normalise(page)})[0][0, 0]
    quantised = np.clip(np.round(prob * 255), 0, 255).astype(np.uint8)
    det_case: dict[str, Any] = {
        "width": SIZE[0],
        "height": SIZE[1],
        "prob_u8_base64": base64.b64encode(quantised.tobytes()).decode("ascii"),
    }
    det_case["expected"] = expected_det(det_case)

    rec = onnxruntime.InferenceSession(str(MODELS / "PP-OCRv6_rec_small.onnx"))
    characters = rec.get_modelmeta().custom_metadata_map["character"].splitlines()
    decoder = CTCLabelDecode(character=list(characters))
    rec_cases = []
    for quad in det_case["expected"]["boxes"]:
        crop = get_rotate_crop_image(page, np.array(quad, dtype=np.float32))
        h, w = crop.shape[:2]
        ratio = w / h
        width = int(48 * max(ratio, 320 / 48))
        resized_w = min(width, int(np.ceil(48 * ratio)))
        resized = np.asarray(
            Image.fromarray(crop).resize((resized_w, 48), Image.Resampling.BILINEAR)
        )
        batch = np.zeros((1, 3, 48, width), dtype=np.float32)
        batch[0, :, :, :resized_w] = normalise(resized)[0]
        preds = rec.run(None, {rec.get_inputs()[0].name: batch})[0][0]
        indices = preds.argmax(axis=1)
        used = sorted({int(i) for i in indices})
        rec_case = {
            "quad": quad,
            "crop_width": w,
            "crop_height": h,
            "wh_ratio": ratio,
            "max_wh_ratio": max(ratio, 320 / 48),
            "indices": [int(i) for i in indices],
            "probs": [round(float(p), 6) for p in preds.max(axis=1)],
            "classes": preds.shape[1],
            "characters": {str(i): decoder.character[i] for i in used},
        }
        rec_case["expected"] = expected_rec(rec_case)
        rec_cases.append(rec_case)

    layout = expected_layout()
    golden = {"det": det_case, "rec": rec_cases, "layout": layout}
    return {GOLDEN: json.dumps(golden, indent=1) + "\n"}
