"""What the review server does with an upload outside a job's state: its name made safe to
store, its pages as PNG for the page, and the memory a finished job used handed back to
the system. (A photo over `--max-megapixels` is refused by its reading: `ReadOptions`.)"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import io
import re
from pathlib import Path

from redacto.inputs import InputFile
from redacto.serve.views import PageImage

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


def safe_name(name: str) -> str:
    """The upload's file name, made safe to store: no folders, no odd characters, its
    suffix kept (it says what the file is). The report names the input by it."""
    base = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).strip(" .")
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = base, ""
    stem = stem[:80] or "upload"
    return f"{stem}.{suffix[:8]}" if suffix else stem


def release_memory() -> None:
    """Hand the memory a finished job used back to the system.

    Dropping the references is not enough: glibc keeps freed blocks in its arenas (a 100 MP
    photo left 1.2 GB resident after its job was discarded), so after a collection the
    arenas are trimmed. Elsewhere (no glibc) this is only a collection.
    """
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_LIBC = _load_libc()


def page_images(source: InputFile) -> list[tuple[PageImage, bytes]]:
    """The pages as PNG for the review page (`InputFile.page_pictures`): the photo as the
    pipeline saw it (orientation applied, so word boxes fit), or each PDF page rendered at
    the pipeline's DPI; none for a text."""
    pages = []
    for number, image in enumerate(source.page_pictures()):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        pages.append(
            (PageImage(number=number, width=image.width, height=image.height), buffer.getvalue())
        )
    return pages
