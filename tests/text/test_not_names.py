"""Words no tier may name a NAME on their own (FINDINGS 3), English and French."""

from __future__ import annotations

import pytest

from redacto.text.not_names import is_not_a_name, not_names


@pytest.mark.parametrize(
    ("label", "value", "refused"),
    [
        ("NAME", "My", True),
        ("NAME", "I", True),
        ("NAME", "The", True),
        ("NAME", "You", True),
        ("NAME", "She", True),
        ("NAME", "Can", True),
        ("NAME", "So", True),
        ("NAME", "There", True),
        ("NAME", "Dear", True),
        ("NAME", "Je", True),
        ("NAME", "Le", True),
        ("NAME", "Vous", True),
        ("NAME", "Elle", True),
        ("NAME", "L'", True),
        ("NAME", "J'", True),
        ("NAME", "Bonjour,", True),
        ("NAME", "  my. ", True),
        ("NAME", "MONSIEUR", True),
        # Given names that are also words stay names.
        ("NAME", "Will", False),
        ("NAME", "May", False),
        ("NAME", "Jean", False),
        ("NAME", "Ella", False),
        # A value of more than one word is left to the detector.
        ("NAME", "My Lisa", False),
        ("NAME", "Le Pen", False),
        # Only NAME is concerned.
        ("ID", "I", False),
        ("ADDRESS", "The", False),
        ("NAME", "", False),
        ("NAME", None, False),
    ],
)
def test_a_lone_function_word_is_never_a_name(label, value, refused):
    assert is_not_a_name(label, value) is refused


def test_the_list_is_case_folded_and_has_no_comment_lines():
    words = not_names()
    assert all(word == word.casefold() and not word.startswith("#") for word in words)
    assert {"my", "je", "vous", "the"} <= words
