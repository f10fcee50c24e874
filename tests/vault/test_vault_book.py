"""One placeholder per value, known values found everywhere, a bounded number of them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redacto.vault import SHORT_VALUE, Vault, VaultFull


def test_one_value_one_placeholder_numbered_per_label_in_order() -> None:
    book = Vault()
    assert book.placeholder_for("NAME", "Jane Smith") == "[NAME_1]"
    assert book.placeholder_for("EMAIL", "j@x.org") == "[EMAIL_1]"
    assert book.placeholder_for("NAME", "Bob Ray") == "[NAME_2]"
    assert book.placeholder_for("NAME", "JANE SMITH") == "[NAME_1]"  # the same value
    assert book.original("[NAME_2]") == "Bob Ray"
    assert book.original("[NAME_3]") is None


def test_known_values_are_found_everywhere_and_short_ones_only_as_words() -> None:
    book = Vault()
    book.placeholder_for("NAME", "Jane Smith")
    book.placeholder_for("ID", "A12")
    text = "jane smith met Jane Smith; A12 yes, XA12 and A123 no"
    found = [(text[start:end], token) for start, end, token in book.hide_known(text)]
    assert found == [
        ("jane smith", "[NAME_1]"),
        ("Jane Smith", "[NAME_1]"),
        ("A12", "[ID_1]"),
    ]


def test_a_full_vault_refuses_instead_of_forgetting() -> None:
    book = Vault(max_values=2)
    book.placeholder_for("NAME", "a")
    book.placeholder_for("NAME", "b")
    book.placeholder_for("NAME", "A")  # known already: no new value
    with pytest.raises(VaultFull):
        book.placeholder_for("NAME", "c")


def test_a_book_taken_from_a_store_continues_its_numbering_and_reports_what_it_adds() -> None:
    added: list[tuple[str, str, str]] = []
    spelled: list[str] = []

    class Recording(Vault):
        def _added(self, label: str, value: str, token: str) -> None:
            added.append((label, value, token))

        def _spelled(self, value: str, token: str) -> None:
            spelled.append(value)

    book = Recording()
    book.learn("[NAME_2]", "Jane Smith", ("JANE SMITH,",))
    book.continue_numbering("NAME", 2)
    assert book.original("[NAME_2]") == "Jane Smith"
    assert [span[2] for span in book.hide_known("jane smith and JANE SMITH,")] == ["[NAME_2]"] * 2
    assert book.placeholder_for("NAME", "Jane Smith") == "[NAME_2]"  # learnt: nothing added
    assert book.placeholder_for("NAME", "Bob Ray") == "[NAME_3]"  # after the store's last
    assert book.placeholder_for("NAME", "Jane  Smith") == "[NAME_2]"  # a new spelling
    assert added == [("NAME", "Bob Ray", "[NAME_3]")]
    assert spelled == ["Jane  Smith"]


def reference_find(spellings: dict[str, str], text: str) -> list[tuple[int, int, str]]:
    """The vault's matching as it was, one regular expression of every spelling (longest
    first, short ones as whole words): what the incremental index must still answer."""
    if not spellings:
        return []
    parts = []
    for value in sorted(spellings, key=len, reverse=True):
        escaped = re.escape(value)
        if len(value) < SHORT_VALUE:
            escaped = rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])"
        parts.append(escaped)
    folded = {value.casefold(): token for value, token in reversed(spellings.items())}
    pattern = re.compile("|".join(parts), re.IGNORECASE)
    return [(m.start(), m.end(), folded[m.group().casefold()]) for m in pattern.finditer(text)]


ASCII_TEXT = st.text(alphabet="abAB12 .-@x", max_size=60)


@settings(max_examples=400, deadline=None)
@given(
    values=st.lists(st.text(alphabet="abAB12 .-@", min_size=1, max_size=8), max_size=12),
    text=ASCII_TEXT,
)
def test_the_index_finds_what_the_one_regex_found(values: list[str], text: str) -> None:
    book = Vault()
    spellings: dict[str, str] = {}
    for value in values:
        token = book.placeholder_for("ID", value)
        spellings.setdefault(value, token)
    assert book.hide_known(text) == reference_find(spellings, text)


@pytest.mark.parametrize(
    ("value", "text", "found"),
    [
        ("Müller", "herr MÜLLER kam", ["MÜLLER"]),
        ("Straße", "STRASSE und Straße", ["Straße"]),  # per letter: ß is not ss
        ("Ελένη Σωτηρίου", "η ελένη σωτηρίου ήρθε", ["ελένη σωτηρίου"]),
        (
            "jürgen.müller@bücher.de",
            "an JÜRGEN.MÜLLER@BÜCHER.DE schreiben",
            ["JÜRGEN.MÜLLER@BÜCHER.DE"],
        ),
        ("İstanbul Cad. 5", "İstanbul Cad. 5 ve istanbul cad. 5", ["İstanbul Cad. 5"]),
    ],
)
def test_letters_beyond_ascii_fold_one_by_one(value: str, text: str, found: list[str]) -> None:
    book = Vault()
    book.placeholder_for("NAME", value)
    assert [text[start:end] for start, end, _ in book.hide_known(text)] == found


def test_ten_thousand_values_cost_no_more_to_look_up_than_one() -> None:
    """Counted, not timed: the index asks at each position only the values filed under
    the four characters found there."""
    book = Vault(max_values=10_000)
    for number in range(10_000):
        book.placeholder_for("ID", f"value-{number:05d}")
    text = "plain prose with nothing known in it, " * 30 + "value-04242"
    assert [token for _, _, token in book.hide_known(text)] == ["[ID_4243]"]
    index = book._known._long  # the index itself
    assert list(index) == ["valu"] and list(index["valu"]) == [len("value-00000")]
    assert len(index["valu"][len("value-00000")]) == 10_000  # one lookup finds any of them


def test_a_copy_and_its_original_change_apart() -> None:
    original = Vault()
    original.placeholder_for("NAME", "Jane Smith")
    original.placeholder_for("EMAIL", "jane@example.com")
    original.mark_seen(7)
    copy = original.copy()
    # Under the prefix both share ("jane"), and under new ones, on each side.
    copy.placeholder_for("NAME", "Jane Smithson")
    copy.placeholder_for("ID", "Q9")
    copy.mark_seen(8)
    original.placeholder_for("NAME", "Janet Doe")
    original.placeholder_for("NAME", "jane  SMITH")  # a new spelling of a known value
    text = "Jane Smithson, Janet Doe, jane  smith, Q9, jane@example.com"

    def hidden(vault: Vault) -> list[tuple[str, str]]:
        return [(text[start:end], token) for start, end, token in vault.hide_known(text)]

    assert hidden(copy) == [
        ("Jane Smithson", "[NAME_2]"),
        ("Q9", "[ID_1]"),
        ("jane@example.com", "[EMAIL_1]"),
    ]
    assert hidden(original) == [
        ("Jane Smith", "[NAME_1]"),
        ("Janet Doe", "[NAME_2]"),
        ("jane  smith", "[NAME_1]"),
        ("jane@example.com", "[EMAIL_1]"),
    ]
    assert (len(copy), len(original)) == (4, 3)
    assert copy.original("[NAME_2]") == "Jane Smithson"
    assert original.original("[NAME_2]") == "Janet Doe"
    assert copy.seen_texts == {7, 8} and original.seen_texts == {7}
    again = copy.copy()  # a copy of a copy, changed after its source was changed
    again.placeholder_for("NAME", "Jane Smithers")
    assert copy.placeholder_for("NAME", "Jane Smithers") == "[NAME_3]"
    assert [t for _, _, t in again.hide_known("Jane Smithson")] == ["[NAME_2]"]
