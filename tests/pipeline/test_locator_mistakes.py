"""The locator's four strategies for a proofreading mistake: each needed by a case, each
accepted only when it finds exactly one place, and an unplaceable mistake left unplaced."""

from __future__ import annotations

import pytest

from redacto.pipeline.locator import LocateMethod, Locator, locate_mistake

CV = (
    "Data analyst who recieved a master degree in 2016.\n"
    "In 2021 Jonathan Whitcombe recieved the analyst award.\n"
    "led a team of five and Fluent in French and\n"
    "managed the quartely reports. Spanish, basicGermna.\n"
    "Titulaire d’une licence, j’ai travailler six ans.\n"
    "Dotée d’ une expériance de la logistique."
)


def placed(error: str, context: str = "", pages: tuple[str, ...] = (CV,)):
    found = locate_mistake([Locator(page) for page in pages], error, context)
    if found is None:
        return None
    position, located = found
    (span,) = located.spans
    return located.method, position, pages[position][span.start : span.end]


PLACED = [
    # twice on the page: the name beside it (restored from [NAME_1]) says which
    ("recieved", "In 2021 Jonathan Whitcombe", LocateMethod.CONTEXT, "recieved"),
    ("recieved", "Data analyst who", LocateMethod.CONTEXT, "recieved"),
    # the model's straight apostrophe for the page's typographic one
    ("j'ai travailler", "licence,", LocateMethod.CONTEXT_NORMALIZED, "j’ai travailler"),
    # `d’` and `une` read as two words; case ignored as well
    ("d'une expériance", "DOTÉE", LocateMethod.CONTEXT_NORMALIZED, "d’ une expériance"),
    # its context taken from the other column: the error alone, once on the page
    ("quartely", "led a team of five and", LocateMethod.ERROR_ONCE, "quartely"),
    # a word the text layer glued to the one before it
    ("Germna", "Spanish, basic", LocateMethod.JOINED_SUBSTRING, "Germna"),
]
UNPLACED = [
    ("recieved", "nowhere near"),  # twice, and no context tells which: never guessed
    ("Statistcs", ""),  # not on the page
    ("", "anything"),
    ("ana", ""),  # under 5 letters inside words ("analyst", "analyst"): no substring
]


@pytest.mark.parametrize(("error", "context", "method", "text"), PLACED)
def test_each_strategy_places_the_case_it_exists_for(error, context, method, text):
    assert placed(error, context) == (method, 0, text)


def test_the_context_picks_the_right_one_of_two_occurrences():
    first = Locator(CV).mistake_candidates(
        LocateMethod.CONTEXT, "recieved", "In 2021 Jonathan Whitcombe"
    )
    assert [CV[s.start - 9 : s.start - 1] for s in first] == ["hitcombe"]


@pytest.mark.parametrize(("error", "context"), UNPLACED)
def test_an_ambiguous_or_absent_mistake_is_not_placed(error, context):
    assert placed(error, context) is None


def test_uniqueness_counts_every_page():
    pages = ("Un stage chez Norbrige.", "Puis un poste chez Norbrige.")
    assert placed("Norbrige", "", pages) is None
    assert placed("Norbrige", "Puis un poste chez", pages) == (
        LocateMethod.CONTEXT,
        1,
        "Norbrige",
    )
