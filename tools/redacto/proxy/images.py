"""Images in chat messages go through the photo pipeline and are forwarded burned.

An inline image (`data:image/png;base64,…`) takes the path every input takes
(`redacto.inputs`, docs/inputs.md): its bytes are read as an `ImageInput` (decoded upright
with the same formats and limits as a file, then read by OCR), `redact`ed by the pipeline
(classify, detect, redact, validate — the app's own steps), and its `redacted.png` — the
burned pixels, encoded with no metadata — replaces it. All of it happens in memory: not
the original, not OCR's input, not the burned image, not a report is written. That holds
with PP-OCR (the default), which reads the pixels through ONNX Runtime, and with Tesseract,
which gets the page through a pipe (`redacto.ocr.tesseract`); an engine that worked on
files would be refused at start (`InMemoryOcrError`).

A run that ends NEEDS_REVIEW is refused by default: the pipeline could not vouch for the
image, and a privacy proxy fails closed. `forward_review` forwards such an image anyway,
redacted as far as the pipeline got. The residual check runs at validate as everywhere
(docs/lexicon.md): a page whose output leaves a word no reader could explain ends
NEEDS_REVIEW, so it is refused too; `strict` (`--images-strict`, the pipeline's `--strict`)
burns those words instead, and the page can then end PASS and be forwarded.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from pathlib import Path

from redacto.document import Status
from redacto.engines import Engine, EngineError
from redacto.inputs import REDACTED_IMAGE, BadInputError, ImageInput, ReadOptions, redact
from redacto.ocr import OcrEngine, open_ocr
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptLibrary
from redacto.proxy.errors import Refused

_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/jpg", "image/webp"})
_INLINE = Path("(inline)")
"""The name an inline image goes by in messages: it has no file."""
IN_MEMORY_OCR = frozenset({"ppocr", "tesseract"})
"""OCR engines that read an image without writing it anywhere."""


class InMemoryOcrError(ValueError):
    """The proxy's OCR engine would write the image to disk."""


@dataclass
class ImageRedactor:
    """The image tier: a data URL in, the redacted image's data URL out (blocking; it runs
    on the model worker, one image at a time)."""

    engine: Engine
    prompts: PromptLibrary
    ocr: str = "ppocr"
    forward_review: bool = False
    strict: bool = False
    """Burn every word no reader could explain (`PipelineOptions.strict`)."""
    _reader: OcrEngine | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.ocr not in IN_MEMORY_OCR:
            raise InMemoryOcrError(
                f"the proxy reads images in memory, and OCR engine {self.ocr!r} works on "
                f"files; use --ocr {' or '.join(sorted(IN_MEMORY_OCR))}"
            )

    def __call__(self, url: str) -> str:
        data = _decode(url)
        try:
            reader = self._reader = self._reader or open_ocr(self.ocr)
            source = ImageInput.from_bytes(data, _INLINE, ReadOptions(ocr=reader))
        except BadInputError as error:
            why = error.__cause__ or error  # the decoder's own words name no file
            raise Refused(422, f"an image could not be read: {why}") from None
        except EngineError:
            raise Refused(
                503, "OCR failed on an image; nothing was forwarded", "detection_failed"
            ) from None
        options = PipelineOptions(strict=self.strict)
        redaction = redact(source, self.engine, self.prompts, options=options)
        status = redaction.report.status
        burned = [file.data for file in redaction.files if file.name == REDACTED_IMAGE]
        if status is Status.ERROR or not burned:
            raise Refused(503, "the photo pipeline failed on an image; nothing was forwarded")
        if status is Status.NEEDS_REVIEW and not self.forward_review:
            raise Refused(
                422,
                "an image could not be verified (NEEDS_REVIEW) and was not forwarded; "
                "start the proxy with --images forward-review to send it redacted anyway",
                "image_needs_review",
            )
        return "data:image/png;base64," + base64.b64encode(burned[0]).decode("ascii")


def _decode(url: str) -> bytes:
    header, _, data = url.partition(",")
    media = header.removeprefix("data:").split(";")[0].lower()
    if media not in _MEDIA_TYPES or ";base64" not in header:
        raise Refused(422, "images must be base64 data URLs of PNG, JPEG or WebP")
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise Refused(422, "an image's base64 data is invalid") from None
