"""One placeholder per value, known values found everywhere, a bounded number of them."""

from __future__ import annotations

import pytest

from redacto.vault import Vault, VaultFull


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
