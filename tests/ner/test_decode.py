"""Decoding the classifier's output: windows, token hits, words, spans (no model here)."""

from __future__ import annotations

import math

import pytest

from redacto.ner.decode import (
    SpanHit,
    Token,
    TokenReading,
    Window,
    WordHit,
    best_window,
    join_hits,
    plan_windows,
    softmax_best,
    word_hits,
    words_of,
)


@pytest.mark.parametrize(
    ("word_ids", "window", "overlap", "expected"),
    [
        ([], 4, 1, []),
        ([0, 1, 2], 4, 1, [(0, 3)]),
        ([0, 1, 2, 3], 4, 1, [(0, 4)]),
        ([0, 1, 2, 3, 4, 5], 4, 1, [(0, 4), (3, 6)]),
        ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4, 2, [(0, 4), (2, 6), (4, 8), (6, 10)]),
        # The second window would open on a `##` continuation of word 2: it backs up to it.
        ([0, 1, 2, 2, 2, 3, 4], 4, 1, [(0, 4), (2, 6), (5, 7)]),
        # One word longer than the window: each window still starts after the last.
        ([0, 0, 0, 0, 0, 0], 3, 1, [(0, 3), (1, 4), (2, 5), (3, 6)]),
        ([0, 1, 2, 3, 4], 3, 0, [(0, 3), (3, 5)]),
    ],
)
def test_windows_cover_every_token_with_overlap(word_ids, window, overlap, expected):
    windows = plan_windows(word_ids, window, overlap)
    assert [(w.start, w.end) for w in windows] == expected


@pytest.mark.parametrize(("window", "overlap"), [(4, 4), (4, -1), (4, 5)])
def test_an_overlap_as_large_as_the_window_is_refused(window, overlap):
    with pytest.raises(ValueError, match="overlap"):
        plan_windows([0, 1, 2], window, overlap)


@pytest.mark.parametrize(
    ("position", "expected"),
    # Position 3 has one token of context on its shorter side in both: the first wins.
    [(0, 0), (2, 0), (3, 0), (4, 1), (5, 1)],
)
def test_a_shared_token_is_read_where_it_has_more_context(position, expected):
    windows = [Window(0, 5), Window(2, 6)]
    assert best_window(position, windows) == expected


def test_softmax_best_is_the_probability_of_the_top_label():
    label, score = softmax_best([0.0, math.log(3.0)])
    assert label == 1 and score == pytest.approx(0.75)
    assert softmax_best([1.0, 1.0]) == (0, 0.5)


@pytest.mark.parametrize(
    ("reading", "entity"),
    [
        (TokenReading("O", 0.99), None),
        (TokenReading("B-GIVEN_NAME", 0.5), "GIVEN_NAME"),
        (TokenReading("I-SURNAME", 0.97), "SURNAME"),
        (TokenReading("B-CITY", 0.4999), None),
    ],
)
def test_a_token_is_a_hit_at_the_threshold(reading, entity):
    assert reading.entity() == entity


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("", []),
        ("Morel, 12", ["Morel", "12"]),
        ("(555) 123-4567.", ["555", "123-4567"]),
        ("« Élodie »\u00a0Brun", ["Élodie", "Brun"]),
        ("— ... !", []),
        ("jane@example.com.", ["jane@example.com"]),
        ("Peter's", ["Peter's"]),
        ("東京都 山田太郎", ["東京都", "山田太郎"]),
    ],
)
def test_a_word_is_a_run_of_non_space_with_its_punctuation_trimmed(text, cores):
    assert [text[w.start : w.end] for w in words_of(text)] == cores


def names(entity: str) -> str | None:
    return {"GIVEN_NAME": "NAME", "SURNAME": "NAME", "CITY": "ADDRESS"}.get(entity)


def test_a_subword_hit_covers_its_whole_word():
    text = "Dr Morel, merci"
    tokens = [Token(1, 0, 2), Token(2, 3, 7), Token(3, 7, 8), Token(4, 8, 9), Token(5, 10, 15)]
    readings = [
        TokenReading("O", 0.9),
        TokenReading("O", 0.6),
        TokenReading("B-SURNAME", 0.8),  # `##l` alone
        TokenReading("O", 1.0),
        TokenReading("O", 1.0),
    ]
    hits = word_hits(text, tokens, readings, names)
    assert hits == [WordHit(3, 8, "NAME", "SURNAME", 0.8)]


def test_a_hit_on_trimmed_punctuation_names_no_word():
    text = "Lyon, ok"
    tokens = [Token(1, 0, 4), Token(2, 4, 5), Token(3, 6, 8)]
    readings = [TokenReading("O", 1.0), TokenReading("I-CITY", 0.9), TokenReading("O", 1.0)]
    assert word_hits(text, tokens, readings, names) == []


def test_an_entity_the_category_cannot_name_is_dropped():
    text = "Ella"
    hits = word_hits(text, [Token(1, 0, 4)], [TokenReading("B-PASSPORT", 0.9)], names)
    assert hits == []


def test_a_word_takes_the_label_of_its_most_probable_hit():
    text = "Jean-Lyon"
    tokens = [Token(1, 0, 4), Token(2, 4, 5), Token(3, 5, 9)]
    readings = [
        TokenReading("B-GIVEN_NAME", 0.7),
        TokenReading("O", 0.9),
        TokenReading("B-CITY", 0.95),
    ]
    assert word_hits(text, tokens, readings, names) == [WordHit(0, 9, "ADDRESS", "CITY", 0.95)]


@pytest.mark.parametrize(
    ("text", "hits", "comma_joins", "expected"),
    [
        (
            "Jean Morel",
            [WordHit(0, 4, "NAME", "GIVEN_NAME", 0.9), WordHit(5, 10, "NAME", "SURNAME", 0.9)],
            frozenset(),
            [SpanHit(0, 10, "NAME", ("GIVEN_NAME", "SURNAME"))],
        ),
        (
            "Jean, Paul",
            [WordHit(0, 4, "NAME", "GIVEN_NAME", 0.9), WordHit(6, 10, "NAME", "GIVEN_NAME", 0.9)],
            frozenset({"ADDRESS"}),
            [SpanHit(0, 4, "NAME", ("GIVEN_NAME",)), SpanHit(6, 10, "NAME", ("GIVEN_NAME",))],
        ),
        (
            "Lilas, 69003",
            [
                WordHit(0, 5, "ADDRESS", "STREET_NAME", 0.9),
                WordHit(7, 12, "ADDRESS", "ZIP_CODE", 0.9),
            ],
            frozenset({"ADDRESS"}),
            [SpanHit(0, 12, "ADDRESS", ("STREET_NAME", "ZIP_CODE"))],
        ),
        (
            "Morel 12",
            [WordHit(0, 5, "NAME", "SURNAME", 0.9), WordHit(6, 8, "ADDRESS", "BUILDING_NUMBER", 1)],
            frozenset({"ADDRESS"}),
            [SpanHit(0, 5, "NAME", ("SURNAME",)), SpanHit(6, 8, "ADDRESS", ("BUILDING_NUMBER",))],
        ),
    ],
)
def test_neighbouring_words_of_one_label_join(text, hits, comma_joins, expected):
    assert join_hits(text, hits, comma_joins) == expected
