"""Render a corpus document as a phone photo with gold word boxes, cached on disk.

A render is a pure function of (document id, text, renderer version): the same inputs give
byte-identical JPEGs on the same Pillow/libjpeg build. Fonts differ between splits so a model
trained on `train` pages is tested on typefaces it has not seen.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
from pathlib import Path

from PIL import Image

from redacto.corpus.layout import FontPair, PageLayout, PlacedWord
from redacto.corpus.photo import photograph
from redacto.corpus.schema import CorpusDocument, GoldWord, RenderedPage
from redacto.document import Box

RENDERER_VERSION = 1

FONTS_BY_SPLIT: dict[str, tuple[FontPair, ...]] = {
    "train": (
        FontPair("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
        FontPair("LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf"),
        FontPair("LiberationMono-Regular.ttf", "LiberationMono-Bold.ttf"),
    ),
    "test": (
        FontPair("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
        FontPair("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
        FontPair("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"),
    ),
}
FONTS_BY_SPLIT["hard"] = FONTS_BY_SPLIT["train"] + FONTS_BY_SPLIT["test"]


def text_sha256(text: str) -> str:
    """The checksum that names a document's text in caches and manifests."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _render_seed(doc: CorpusDocument) -> int:
    key = f"{doc.id}|{text_sha256(doc.text)}|{RENDERER_VERSION}"
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def _draw_clean(doc: CorpusDocument, rng: random.Random) -> tuple[Image.Image, list[PlacedWord]]:
    fonts = rng.choice(FONTS_BY_SPLIT[doc.split])
    size = rng.randrange(24, 32)
    return PageLayout(doc.text, doc.layout, fonts, size, rng).draw()


def render_clean(doc: CorpusDocument) -> tuple[Image.Image, list[PlacedWord]]:
    """The flat page a document's photo is taken of, and its words as drawn (no cache).

    Same fonts, size and layout as `render_photo`'s page, before the photo's rotation,
    lighting and noise: what a word processor would have exported.
    """
    return _draw_clean(doc, random.Random(_render_seed(doc)))


def render_photo(doc: CorpusDocument) -> tuple[bytes, int, int, tuple[GoldWord, ...]]:
    """JPEG bytes, width, height and gold words of a document's photo (no cache)."""
    rng = random.Random(_render_seed(doc))
    page, placed = _draw_clean(doc, rng)
    jpeg, photo_map, (width, height) = photograph(page, rng)
    words = []
    for index, word in enumerate(placed):
        x0, y0, x1, y1 = photo_map.box(word.box)
        box = Box(x0=max(x0, 0.0), y0=max(y0, 0.0), x1=min(x1, width), y1=min(y1, height))
        words.append(GoldWord(index=index, text=word.text, box=box, start=word.start, end=word.end))
    return jpeg, width, height, tuple(words)


def page_stem(doc: CorpusDocument) -> str:
    """The file-name stem of a document's renders in the cache: id, text checksum, version."""
    return f"{doc.id}-{text_sha256(doc.text)[:16]}-r{RENDERER_VERSION}"


def render_page(doc: CorpusDocument, cache_dir: Path) -> RenderedPage:
    """The document's photo under `cache_dir`, rendered on first use and reused after."""
    stem = page_stem(doc)
    image_path, words_path = cache_dir / f"{stem}.jpg", cache_dir / f"{stem}.words.json"
    if image_path.exists() and words_path.exists():
        return RenderedPage.model_validate_json(words_path.read_text(encoding="utf-8"))
    jpeg, width, height, words = render_photo(doc)
    cache_dir.mkdir(parents=True, exist_ok=True)
    page = RenderedPage(image_path=image_path.resolve(), width=width, height=height, words=words)
    write_atomically(image_path, jpeg)
    write_atomically(words_path, page.model_dump_json().encode("utf-8"))
    return page


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file, so no reader sees half a file."""
    # Parallel eval workers may render the same page; a reader never sees half a file.
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def elements_json(words: tuple[GoldWord, ...]) -> str:
    """Words as `redacto redact --elements FILE` reads them: `{"text", "box"}` in reading order."""
    elements = [{"text": w.text, "box": [round(v, 1) for v in w.box.as_list()]} for w in words]
    return json.dumps(elements, indent=1) + "\n"
