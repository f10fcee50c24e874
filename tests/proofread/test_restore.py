"""Mistakes about a placeholder are dropped; values the others quote come back restored."""

from __future__ import annotations

import pytest

from redacto.proofread.mistakes import Mistake
from redacto.proofread.restore import restore_mistake, touches_placeholder
from redacto.vault import Vault


def mistake(error: str, correction: str, context: str = "") -> Mistake:
    return Mistake(error_text=error, correction=correction, context_before=context)


@pytest.mark.parametrize(
    ("error", "correction", "touches"),
    [
        ("recieved", "received", False),
        ("[NAME_1]", "Jean Dupont", True),  # the placeholder itself changed
        ("[NAME_1]s", "[NAME_1]'s", True),  # the change is right beside it
        ("[NAME_1] a recu", "[NAME_1] a reçu", False),  # quoted, the change is away from it
        ("chez [ORG_1]", "chez [ORG_2]", True),
        ("NAME_1]", "NAME_1", True),  # half a placeholder
        ("écrit à [EMAIL_1]", "écrit à", True),  # the placeholder dropped
    ],
)
def test_what_touches_a_placeholder(error, correction, touches):
    assert touches_placeholder(mistake(error, correction)) is touches


def test_values_come_back_in_every_field():
    vault = Vault()
    name = vault.placeholder_for("NAME", 'Anne "Nan" Ødegård')
    restored = restore_mistake(
        Mistake(
            error_text=f"{name} a recu",
            correction=f"{name} a reçu",
            context_before=f"En 2020, {name},",
            description=f"Accord : {name} a reçu.",
        ),
        vault,
    )
    assert restored.error_text == 'Anne "Nan" Ødegård a recu'
    assert restored.correction == 'Anne "Nan" Ødegård a reçu'
    assert restored.context_before == 'En 2020, Anne "Nan" Ødegård,'
    assert "[NAME_1]" not in restored.description
