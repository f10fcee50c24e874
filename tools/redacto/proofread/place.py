"""Place each mistake on the document's words, with the redaction's own locator.

The proofreader read the text as lines; the page is words with boxes, tokenised apart
(typographic apostrophes, `d'` and `une` as two words, a second column read between the
lines of the first). Each page's words are joined into its text exactly as detect reads a
page (`PageText`), `locate_mistake` finds the mistake there with its four strategies, and
the words its span overlaps give the boxes: consecutive words on one line are one box.
A mistake none of the strategies finds in exactly one place is kept with `located: false`
and no boxes, never drawn somewhere wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redacto.document import Box, Document, Element, Mode, Span
from redacto.pipeline.locator import Locator, locate_mistake
from redacto.pipeline.page_text import PageText
from redacto.proofread.mistakes import Mistake, PlacedMistake, PlaceStrategy
from redacto.text.joined_elements import starts_line

BoxPoints = tuple[float, float, float, float]


@dataclass(frozen=True)
class PageWords:
    """One page's words and how its pixels become points of the output page."""

    number: int
    """1-based."""
    elements: tuple[Element, ...]
    points_per_pixel: float
    text: PageText


class Placer:
    """Places mistakes on one document: its pages' words (images, PDFs) or its text."""

    def __init__(self, pages: Sequence[PageWords], text: str | None = None) -> None:
        self.pages = tuple(pages)
        self._locators = (
            [Locator(text)] if text is not None else [page.text.locator for page in self.pages]
        )

    @classmethod
    def of(cls, document: Document, points_per_pixel: Sequence[float]) -> Placer:
        """A placer for `document`; `points_per_pixel[i]` converts page i's pixels (0-based
        `Element.page`) to points of the output page."""
        if document.mode is Mode.TEXT:
            return cls((), document.text)
        by_page: dict[int, list[Element]] = {}
        for element in document.elements:
            by_page.setdefault(element.page, []).append(element)
        pages = [
            PageWords(page + 1, tuple(words), points_per_pixel[page], PageText.of(words))
            for page, words in sorted(by_page.items())
        ]
        return cls(pages)

    def place(self, mistake: Mistake) -> PlacedMistake:
        """Where `mistake` is, or `located: false`."""
        found = locate_mistake(self._locators, mistake.error_text, mistake.context_before)
        unplaced = PlacedMistake(
            error_text=mistake.error_text,
            correction=mistake.correction,
            description=mistake.description,
            located=False,
        )
        if found is None:
            return unplaced
        position, located = found
        strategy = PlaceStrategy(located.method.value)
        if not self.pages:  # a text file: the place is known, there is no page to box
            return unplaced.model_copy(update={"located": True, "strategy": strategy, "page": 1})
        page = self.pages[position]
        boxes = _line_boxes(page, _word_boxes(page, located.spans))
        if not boxes:
            return unplaced
        return unplaced.model_copy(
            update={"located": True, "strategy": strategy, "page": page.number, "boxes": boxes}
        )


def _word_boxes(page: PageWords, spans: Sequence[Span]) -> list[tuple[Element, Box]]:
    """Each word a span overlaps, with the part of its box the span covers: a mistake
    inside a longer word (`basicGermna.`) gets the share of the box its characters take
    (proportional widths: approximate, but on the mistake rather than the whole word)."""
    joined = page.text.joined
    by_index = {
        element.index: (element, start)
        for element, start in zip(joined.elements, joined.starts, strict=True)
    }
    covered: list[tuple[Element, Box]] = []
    for span in spans:
        for index in joined.indices_between(span.start, span.end):
            element, start = by_index[index]
            if element.box is None or not element.text:
                continue
            first = max(span.start - start, 0)
            last = min(span.end - start, len(element.text))
            if (first, last) == (0, len(element.text)):
                covered.append((element, element.box))
                continue
            width = element.box.width / len(element.text)
            covered.append(
                (
                    element,
                    element.box.model_copy(
                        update={
                            "x0": element.box.x0 + first * width,
                            "x1": element.box.x0 + last * width,
                        }
                    ),
                )
            )
    return covered


def _line_boxes(page: PageWords, words: Sequence[tuple[Element, Box]]) -> list[BoxPoints]:
    """One box in points per run of consecutive words on one line."""
    boxes: list[list[float]] = []
    previous: Element | None = None
    for element, word_box in words:
        index = element.index
        box = [word_box.x0, word_box.y0, word_box.x1, word_box.y1]
        joined = (
            previous is not None
            and previous.index == index - 1
            and not starts_line(previous, element)
        )
        if joined and boxes:
            last = boxes[-1]
            boxes[-1] = [
                min(last[0], box[0]),
                min(last[1], box[1]),
                max(last[2], box[2]),
                max(last[3], box[3]),
            ]
        else:
            boxes.append(box)
        previous = element
    scale = page.points_per_pixel
    return [
        (round(x0 * scale, 2), round(y0 * scale, 2), round(x1 * scale, 2), round(y1 * scale, 2))
        for x0, y0, x1, y1 in boxes
    ]
