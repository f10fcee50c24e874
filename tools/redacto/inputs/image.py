"""A photo: its pixels, its words (OCR, or an `--elements` file), and `redacted.png`."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError

from redacto.document import Box, Document, Element, Mode, Status
from redacto.inputs.base import (
    REDACTED_IMAGE,
    BadInputError,
    InputFile,
    OutputFile,
    ReadOptions,
    bytes_info,
    input_info,
    redacted,
)

if TYPE_CHECKING:
    from PIL import Image

    from redacto.imaging.raster import LoadedImage
    from redacto.pipeline import PipelineResult
    from redacto.report import InputInfo


PHOTO_PAGE_LONG_SIDE_PT = 842.0
"""A photo's PDF page is as long as A4 on its longer side, whatever the photo's pixels."""


class _ElementInput(BaseModel):
    """One entry of an `--elements` file: a word and its box in image pixels."""

    model_config = ConfigDict(extra="forbid")

    text: str
    box: tuple[FiniteFloat, FiniteFloat, FiniteFloat, FiniteFloat]
    page: int = Field(default=0, ge=0)


class ImageInput(InputFile):
    """A photo (PNG, JPEG, WebP): decoded upright, its words with boxes in its pixels.

    Its redaction is `redacted.png`: the pixels with every box burned black, no metadata.
    Its one page is the upright photo; as a PDF, a page of A4's length on its long side.
    """

    suffixes: ClassVar[frozenset[str]] = frozenset({".png", ".jpg", ".jpeg", ".webp"})
    mode: ClassVar[Mode] = Mode.IMAGE
    noun: ClassVar[str] = "a photo"
    takes_elements: ClassVar[bool] = True

    def __init__(
        self,
        path: Path,
        document: Document,
        image: LoadedImage,
        ocr_name: str | None,
        info: InputInfo | None = None,
    ) -> None:
        super().__init__(path, document, info or input_info(path), ocr_name)
        self.image = image

    @classmethod
    def read(cls, path: Path, options: ReadOptions) -> ImageInput:
        """Decode the photo, then read its words: the `--elements` file, or OCR."""
        return cls._words(path, _load(path, options.max_pixels), options, None)

    @classmethod
    def from_bytes(cls, data: bytes, name: Path, options: ReadOptions) -> ImageInput:
        """The photo decoded from memory (the same formats and limits as a file), then its
        words read as `read` reads them."""
        from redacto.imaging.raster import MAX_PIXELS, BadImageError, load_image_bytes

        try:
            image = load_image_bytes(data, name, options.max_pixels or MAX_PIXELS)
        except BadImageError as error:
            raise BadInputError(f"{name}: {error}") from error
        return cls._words(name, image, options, bytes_info(name, data))

    @classmethod
    def _words(
        cls, path: Path, image: LoadedImage, options: ReadOptions, info: InputInfo | None
    ) -> ImageInput:
        """The decoded photo's words: the `--elements` file, or OCR."""
        if options.elements_path is not None:
            elements = read_elements_file(options.elements_path, image.size)
            return cls(path, Document.from_elements(elements, image.size), image, None, info)
        from redacto.ocr import open_ocr

        engine = open_ocr(options.ocr) if isinstance(options.ocr, str) else options.ocr
        elements = engine.read(image.image)
        document = Document.from_elements(elements, image.size)
        return cls(path, document, image, engine.name, info)

    @classmethod
    def with_words(cls, path: Path, elements: Sequence[Element]) -> ImageInput:
        """The photo with words already read (the eval's gold or OCR words), checked as an
        `--elements` file is: every box inside the image."""
        image = _load(path, None)
        words: list[Element] = []
        for index, element in enumerate(elements):
            if element.box is None or not _inside(element.box, image.size):
                raise BadInputError(f"{path}: element {index}: box lies outside the image")
            words.append(
                Element(index=index, text=element.text, box=element.box, page=element.page)
            )
        return cls(path, Document.from_elements(words, image.size), image, None)

    def redacted_files(self, result: PipelineResult) -> tuple[OutputFile, ...]:
        if not redacted(result):
            return ()
        from redacto.imaging.ink_cover import cover_ink
        from redacto.imaging.raster import burn_boxes, clean_png_bytes

        covered = cover_ink(self.image.image, list(result.boxes))
        if covered.unresolved:
            result.report.status = Status.ERROR
            result.report.error = (
                f"{len(covered.unresolved)} box(es) cut ink that runs on past where a word "
                "could end, so a part of a value could stay readable; no image was written"
            )
            return ()
        burned = burn_boxes(self.image.image, list(covered.boxes))
        return (OutputFile(REDACTED_IMAGE, clean_png_bytes(burned)),)

    def page_pictures(self) -> list[Image.Image]:
        return [self.image.image]

    def page_pdf(self) -> bytes:
        return photo_pdf_bytes(self.image.image)

    def points_per_pixel(self) -> list[float]:
        return [photo_scale(self.image.size)]


def photo_scale(size: tuple[int, int]) -> float:
    """Points per pixel of a photo's PDF page."""
    return PHOTO_PAGE_LONG_SIDE_PT / max(size)


def photo_pdf_bytes(image: Image.Image) -> bytes:
    """A one-page PDF of the photo, sized by `photo_scale`; Pillow copies no metadata."""
    buffer = io.BytesIO()
    scale = photo_scale(image.size)
    image.convert("RGB").save(buffer, format="PDF", resolution=72 / scale)
    return buffer.getvalue()


def _load(path: Path, max_pixels: int | None) -> LoadedImage:
    from redacto.imaging.raster import MAX_PIXELS, BadImageError, load_input_image

    try:
        return load_input_image(path, max_pixels or MAX_PIXELS)
    except BadImageError as error:
        raise BadInputError(f"{path}: {error}") from error


def _inside(box: Box, size: tuple[int, int]) -> bool:
    width, height = size
    return not (box.x0 < 0 or box.y0 < 0 or box.x1 > width or box.y1 > height)


def read_elements_file(path: Path, image_size: tuple[int, int]) -> list[Element]:
    """Parse `[{"text", "box": [x0, y0, x1, y1]}, …]` in reading order; boxes must fit."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInputError(f"{path}: not a JSON file ({error})") from error
    if not isinstance(raw, list):
        raise BadInputError(f"{path}: expected a JSON list of {{text, box}} objects")
    elements: list[Element] = []
    for index, item in enumerate(raw):
        try:
            entry = _ElementInput.model_validate(item)
            box = Box(x0=entry.box[0], y0=entry.box[1], x1=entry.box[2], y1=entry.box[3])
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"])
            raise BadInputError(f"{path}: element {index}: {where}: {problem['msg']}") from error
        if not _inside(box, image_size):
            raise BadInputError(f"{path}: element {index}: box lies outside the image")
        elements.append(Element(index=index, text=entry.text, box=box, page=entry.page))
    return elements
