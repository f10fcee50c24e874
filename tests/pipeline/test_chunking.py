"""150-element chunks keep global indices; 150-word text chunks cover the text exactly;
the classifier sees at most one chunk's worth."""

import itertools
import json
import random
from pathlib import Path

import pytest

from redacto.document import Document, Element
from redacto.pipeline.chunking import (
    CHUNK_SIZE,
    chunk_elements,
    chunk_text,
    classify_text,
    format_elements,
)

TEXT_VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "chunking" / "text_chunks.json"
TEXT_CASES = json.loads(TEXT_VECTORS.read_text(encoding="utf-8"))["cases"]


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


def assert_covers(text: str, size: int) -> list[str]:
    """Chunk `text` and check what every chunking keeps; returns the chunks' texts."""
    chunks = chunk_text(text, size)
    parts = [chunk.of(text) for chunk in chunks]
    assert "".join(parts) == text
    assert [chunk.number for chunk in chunks] == list(range(len(chunks)))
    assert all(left.end == right.start for left, right in itertools.pairwise(chunks))
    assert all(len(part.split()) <= size for part in parts)
    if len(text.split()) > size:
        assert all(part.split() for part in parts), "a chunk without a word wastes a call"
    return parts


@pytest.mark.parametrize("case", TEXT_CASES, ids=[case["name"] for case in TEXT_CASES])
def test_text_chunk_vectors(case):
    chunks = chunk_text(case["text"], case["size"])
    assert [[chunk.start, chunk.end] for chunk in chunks] == case["chunks"]
    assert_covers(case["text"], case["size"])


def lines_of(words: int, per_line: int = 10) -> str:
    tokens = [f"w{i}" for i in range(words)]
    return "".join(" ".join(tokens[i : i + per_line]) + "\n" for i in range(0, words, per_line))


@pytest.mark.parametrize(
    ("words", "sizes"),
    [
        (149, [149]),
        (150, [150]),
        (151, [150, 1]),
        (301, [150, 150, 1]),
    ],
)
def test_text_chunks_at_the_word_limit(words, sizes):
    text = " ".join(f"w{i}" for i in range(words))
    parts = assert_covers(text, CHUNK_SIZE)
    assert [len(part.split()) for part in parts] == sizes


@pytest.mark.parametrize(
    ("words", "sizes"), [(149, [149]), (150, [150]), (151, [150, 1]), (301, [150, 150, 1])]
)
def test_text_chunks_end_at_line_breaks(words, sizes):
    text = lines_of(words, per_line=10)
    parts = assert_covers(text, CHUNK_SIZE)
    assert [len(part.split()) for part in parts] == sizes
    assert all(part.endswith("\n") for part in parts)


def test_a_line_that_does_not_fill_the_chunk_moves_to_the_next():
    text = lines_of(140, per_line=14) + " ".join(f"x{i}" for i in range(20)) + "\n"
    parts = assert_covers(text, CHUNK_SIZE)
    assert [len(part.split()) for part in parts] == [140, 20]


def test_a_line_longer_than_a_chunk_is_cut_after_its_last_word_that_fits():
    long_line = " ".join(f"x{i}" for i in range(320))
    text = f"first line\n{long_line}\nlast line\n"
    parts = assert_covers(text, CHUNK_SIZE)
    assert parts[0] == "first line\n"
    assert parts[1].split() == [f"x{i}" for i in range(150)]
    assert parts[2].startswith(" x150 ")
    assert parts[3].split() == [f"x{i}" for i in range(300, 320)] + ["last", "line"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n  ",
        "\n\n" + lines_of(200) + "\n\n",
        "  " + lines_of(200).replace("\n", "\r\n") + "  ",
        lines_of(200).replace("\n", "\n\n"),
    ],
    ids=["empty", "blank", "blank-lines-around", "crlf-and-edges", "blank-line-between"],
)
def test_whitespace_stays_where_it_was(text):
    parts = assert_covers(text, CHUNK_SIZE)
    if len(text.split()) <= CHUNK_SIZE:
        assert parts == [text]


def test_any_text_is_covered_exactly():
    pieces = ["w", "word", "\n", "\n\n", " ", "\t", "\r\n", "\u00a0", "\U0001f600", "é"]
    generator = random.Random(7)
    for _ in range(300):
        text = "".join(generator.choice(pieces) for _ in range(generator.randint(0, 120)))
        assert_covers(text, generator.randint(1, 12))


def test_text_chunk_size_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        chunk_text("a b", size=0)
