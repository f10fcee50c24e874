"""The detections' own vocabulary, shared by the steps: what makes two the same (`detection_key`),
adding without removing (`union_detections`), what a parsed item stands for, and the one
"said twice in one answer" check (`SaidInAnswer`) that detect and validate both ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from redacto.document import Detection, Source
from redacto.pipeline.kept_readable import KeptReadable
from redacto.pipeline.page_text import PageText
from redacto.pipeline.parsing import IndexItem, RejectReason, TextItem
from redacto.pipeline.placeholders import value_key
from redacto.text.not_identifiers import identifies_no_one, without_openers
from redacto.text.not_names import is_not_a_name


def detection_key(detection: Detection) -> int | str:
    """What makes two detections the same thing: the element (image) or the value (text)."""
    if detection.index is not None:
        return detection.index
    return value_key(detection.value or "")


def union_detections(
    existing: list[Detection], new: list[Detection]
) -> tuple[list[Detection], list[Detection]]:
    """Add `new` detections not already present; returns (all, the ones added).

    The first finder of an element or value keeps it (rules run first, then detect, then
    each validate round), so nothing already detected is ever removed or relabelled.
    """
    seen = {detection_key(detection) for detection in existing}
    added: list[Detection] = []
    for detection in new:
        key = detection_key(detection)
        if key not in seen:
            seen.add(key)
            added.append(detection)
    return [*existing, *added], added


def item_detections(
    item: IndexItem | TextItem, source: Source, round_number: int, page: PageText | None = None
) -> list[Detection]:
    """The detections one named item stands for.

    An index is its element; a text-mode value is itself. On a page read as text (`page`), a
    value is every element the locator places it on, each carrying the value; a value it
    cannot place stays a value-only detection (reported as not located, never dropped).
    """
    if isinstance(item, IndexItem):
        return [Detection(label=item.label, source=source, round=round_number, index=item.index)]
    indices = page.locate(item.value) if page is not None else ()
    if not indices:
        return [Detection(label=item.label, source=source, round=round_number, value=item.value)]
    return [
        Detection(label=item.label, source=source, round=round_number, index=i, value=item.value)
        for i in indices
    ]


def rejected_as(
    item: IndexItem | TextItem, words: Sequence[str] = (), kept: KeptReadable | None = None
) -> RejectReason | None:
    """Why a named item stands for nothing, or None: a lone pronoun or function word named a
    NAME (`My`, `Je`: FINDINGS 3), a value that is only a time or an amount under any
    label (`redacto.text.not_identifiers`), or one the category keeps readable wherever it
    stands (`kept`: `redacto.pipeline.kept_readable`). `words` are the elements' texts,
    for an `INDEX:LABEL` item."""
    if isinstance(item, TextItem):
        value: str | None = item.value
    else:
        value = words[item.index] if 0 <= item.index < len(words) else None
    if is_not_a_name(item.label, value):
        return RejectReason.NOT_A_NAME
    if identifies_no_one(value):
        return RejectReason.NOT_AN_IDENTIFIER
    if kept is not None and kept.keeps(item):
        return RejectReason.KEPT_READABLE
    return None


def trimmed_item(item: IndexItem | TextItem) -> IndexItem | TextItem:
    """The item with a NAME value's opening greeting cut (`Coucou Thérèse` →
    `Thérèse`, `redacto.text.not_identifiers.without_openers`)."""
    if isinstance(item, IndexItem):
        return item
    value = without_openers(item.label, item.value)
    return item if value == item.value else TextItem(item.label, value)


def item_key(item: IndexItem | TextItem) -> int | str:
    """The `detection_key` the item's detection will have."""
    if isinstance(item, IndexItem):
        return item.index
    return value_key(item.value)


def item_line(item: IndexItem | TextItem) -> str:
    """The canonical line for an item (`1:NAME`, `NAME: value`)."""
    if isinstance(item, IndexItem):
        return f"{item.index}:{item.label}"
    return f"{item.label}: {item.value}"


@dataclass
class SaidInAnswer:
    """The keys one model answer has named so far.

    Naming a thing twice in one answer is a duplicate, the model's fault; a thing found
    before this answer (by a rule, an earlier chunk, an earlier round) is not. `start` at
    the beginning of every call, `add` each key the answer gave, then ask `said`.
    """

    keys: set[int | str] = field(default_factory=set)

    def start(self) -> None:
        self.keys.clear()

    def add(self, key: int | str) -> None:
        self.keys.add(key)

    def said(self, key: int | str) -> bool:
        return key in self.keys
