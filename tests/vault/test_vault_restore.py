"""Text comes back with the values in place, however a stream of it is cut."""

from __future__ import annotations

import json

import pytest

from redacto.vault import StreamRestorer, Vault, restore_text
from restore_sample import ANSWER, RESTORED, vault


def test_a_whole_text_is_restored_and_look_alikes_pass_through() -> None:
    assert restore_text(ANSWER, vault()) == RESTORED


@pytest.mark.parametrize("value", ['Ann "Nan" Lee \\ Jr.', "tab\there", "bell\x07", "Zoë\u2028"])
def test_json_text_gets_the_value_json_escaped(value: str) -> None:
    book = Vault()
    token = book.placeholder_for("NAME", value)
    restored = restore_text(f'{{"name": "{token}"}}', book, json_text=True)
    assert json.loads(restored) == {"name": value}


@pytest.mark.parametrize("cut", range(len(ANSWER) + 1))
def test_a_text_cut_anywhere_is_restored(cut: int) -> None:
    stream = StreamRestorer(vault())
    shown = stream.feed(ANSWER[:cut]) + stream.feed(ANSWER[cut:]) + stream.flush()
    assert shown == RESTORED


def test_a_text_fed_a_character_at_a_time_holds_back_only_a_possible_placeholder() -> None:
    stream = StreamRestorer(vault())
    shown = []
    for char in ANSWER:
        shown.append(stream.feed(char))
    assert "".join(shown) + stream.flush() == RESTORED
    # Nothing is held while the text cannot be a placeholder: "W" shows at once.
    assert shown[0] == "W"
    assert StreamRestorer(vault()).feed("[EMAIL_") == ""
    assert StreamRestorer(vault()).feed("[email") == "[email"
