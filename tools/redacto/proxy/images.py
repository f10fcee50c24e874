"""Images in chat messages go through the photo pipeline and are forwarded burned.

An inline image (`data:image/png;base64,…`) is decoded into a private temporary folder,
redacted by `redact_file` (OCR, classify, detect, redact, validate — the app's own path),
and replaced by the burned PNG. A run that ends NEEDS_REVIEW is refused by default: the
pipeline could not vouch for the image, and a privacy proxy fails closed. `forward_review`
forwards such an image anyway, redacted as far as the pipeline got.
"""

from __future__ import annotations

import base64
import binascii
import tempfile
from dataclasses import dataclass
from pathlib import Path

from redacto.document import Status
from redacto.engines import Engine
from redacto.prompts import PromptLibrary
from redacto.proxy.payload import Refused
from redacto.redact_file import REDACTED_IMAGE, BadInputError, redact_file

_SUFFIXES = {"image/png": ".png", "image/jpeg": ".jpg", "image/jpg": ".jpg", "image/webp": ".webp"}


@dataclass
class ImageRedactor:
    """The image tier: a data URL in, the redacted image's data URL out (blocking)."""

    engine: Engine
    prompts: PromptLibrary
    ocr: str = "ppocr"
    forward_review: bool = False

    def __call__(self, url: str) -> str:
        suffix, image = _decode(url)
        with tempfile.TemporaryDirectory(prefix="redacto-proxy-") as scratch:
            source = Path(scratch) / f"image{suffix}"
            source.write_bytes(image)
            out = Path(scratch) / "out"
            try:
                outcome = redact_file(source, self.engine, self.prompts, out, ocr=self.ocr)
            except BadInputError as error:
                raise Refused(422, f"an image could not be read: {error}") from None
            status = outcome.report.status
            if status is Status.ERROR:
                raise Refused(503, "the photo pipeline failed on an image; nothing was forwarded")
            if status is Status.NEEDS_REVIEW and not self.forward_review:
                raise Refused(
                    422,
                    "an image could not be verified (NEEDS_REVIEW) and was not forwarded; "
                    "start the proxy with --images forward-review to send it redacted anyway",
                    "image_needs_review",
                )
            burned = (out / REDACTED_IMAGE).read_bytes()
        return "data:image/png;base64," + base64.b64encode(burned).decode("ascii")


def _decode(url: str) -> tuple[str, bytes]:
    header, _, data = url.partition(",")
    media = header.removeprefix("data:").split(";")[0].lower()
    if media not in _SUFFIXES or ";base64" not in header:
        raise Refused(422, "images must be base64 data URLs of PNG, JPEG or WebP")
    try:
        return _SUFFIXES[media], base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise Refused(422, "an image's base64 data is invalid") from None
