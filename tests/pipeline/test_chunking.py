"""150-element chunks keep global indices; the classifier sees at most one chunk's worth."""

import pytest

from redacto.document import Document, Element
from redacto.pipeline.chunking import chunk_elements, classify_text, format_elements


def elements(count: int) -> tuple[Element, ...]:
    return tuple(Element(index=i, text=f"w{i}") for i in range(count))


@pytest.mark.parametrize(
    ("count", "ranges"),
    [
        (0, []),
        (1, [range(0, 1)]),
        (149, [range(0, 149)]),
        (150, [range(0, 150)]),
        (151, [range(0, 150), range(150, 151)]),
        (300, [range(0, 150), range(150, 300)]),
        (301, [range(0, 150), range(150, 300), range(300, 301)]),
    ],
)
def test_chunk_boundaries(count, ranges):
    chunks = chunk_elements(elements(count))
    assert [chunk.index_range for chunk in chunks] == ranges
    assert [chunk.number for chunk in chunks] == list(range(len(ranges)))
    assert [e.index for chunk in chunks for e in chunk.elements] == list(range(count))


def test_chunk_size_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        chunk_elements(elements(3), size=0)


def test_element_list_format_shows_global_indices_and_placeholders():
    chunk = chunk_elements(elements(152))[1]
    assert format_elements(chunk.elements, {151: "[NAME_1]"}) == "[150] w150\n[151] [NAME_1]"


@pytest.mark.parametrize(("count", "words"), [(3, 3), (150, 150), (151, 150), (301, 150)])
def test_classify_input_is_at_most_the_first_chunk(count, words):
    image = Document.from_elements(list(elements(count)))
    assert classify_text(image).split() == [f"w{i}" for i in range(words)]
    text = Document.from_text("  " + "\n".join(f"w{i}," for i in range(count)) + "\n")
    sent = classify_text(text)
    assert len(sent.split()) == words
    assert text.text.startswith(sent)
