"""Rampart's entity types as the pipeline's labels, per category, and what is preserved."""

from __future__ import annotations

import pytest

from redacto.document import Category
from redacto.ner.labels import (
    ENTITY_TYPES,
    entity_mappings,
    has_role,
    is_amount,
    label_for,
    names_an_organisation,
    names_equipment,
    preserved,
    titled,
)
from redacto.prompts import PromptLibrary


@pytest.fixture(scope="module")
def prompts() -> PromptLibrary:
    return PromptLibrary.load()


@pytest.mark.parametrize(
    ("entity", "category", "label"),
    [
        ("GIVEN_NAME", Category.GENERAL, "NAME"),
        ("SURNAME", Category.MEDICAL, "NAME"),
        ("EMAIL", Category.JOURNALISM, "EMAIL"),
        ("PHONE", Category.FINANCIAL, "PHONE"),
        ("URL", Category.GENERAL, "ID"),
        ("TAX_ID", Category.FINANCIAL, "SSN"),
        ("TAX_ID", Category.FIELD_SERVICE, "ID"),
        ("GOVERNMENT_ID", Category.JOURNALISM, "ID"),
        ("BANK_ACCOUNT", Category.FINANCIAL, "ACCOUNT"),
        ("BANK_ACCOUNT", Category.TACTICAL, "ID"),
        ("ROUTING_NUMBER", Category.LEGAL, "ACCOUNT"),
        ("PASSPORT", Category.TACTICAL, "ID"),
        ("DRIVERS_LICENSE", Category.LEGAL, "ID"),
        ("STREET_NAME", Category.FIELD_SERVICE, "ADDRESS"),
        ("ZIP_CODE", Category.MEDICAL, "ADDRESS"),
        ("CITY", Category.GENERAL, "ADDRESS"),
        ("NOT_A_TYPE", Category.GENERAL, None),
    ],
)
def test_each_entity_takes_the_first_label_its_category_allows(prompts, entity, category, label):
    assert label_for(entity, prompts.category_labels(category)) == label


def test_every_entity_type_maps_onto_known_labels(prompts):
    assert tuple(entity_mappings()) == ENTITY_TYPES
    for mapping in entity_mappings().values():
        assert set(mapping.labels) <= set(prompts.labels.names)


def test_every_entity_type_has_a_label_in_the_general_category(prompts):
    allowed = prompts.category_labels(Category.GENERAL)
    assert all(label_for(entity, allowed) for entity in ENTITY_TYPES)


@pytest.mark.parametrize(
    ("entity", "value", "category", "kept"),
    [
        ("PHONE", "1-800-555-0199", Category.FINANCIAL, True),
        ("PHONE", "(888) 555 0100", Category.FINANCIAL, True),
        ("PHONE", "408-555-1234", Category.FINANCIAL, False),
        ("PHONE", "1-800-555-0199", Category.MEDICAL, False),
        ("GIVEN_NAME", "1-800-555-0199", Category.FINANCIAL, False),
    ],
)
def test_a_category_preserve_rule_keeps_the_value_as_for_a_rule_hit(entity, value, category, kept):
    assert preserved(entity, value, category) is kept


@pytest.mark.parametrize(
    ("text", "value", "amount"),
    [
        ("under 1687 EUR in total", "1687", True),
        ("it costs $196 now", "196", True),
        ("€ 318 each", "318", True),
        ("about 2,500 euros.", "2,500", True),
        ("lives at 1687 Main Street", "1687", False),
        ("PSC 2322, Box 7750", "2322", False),
        ("Account 1687 EUR", "Account", False),
    ],
)
def test_a_bare_number_beside_a_currency_is_an_amount(text, value, amount):
    start = text.index(value)
    assert is_amount(text, start, start + len(value)) is amount


@pytest.mark.parametrize(
    ("text", "value", "category", "kept"),
    [
        ("Units assigned: Sgt. Ann Cobb, badge 4097", "Ann Cobb", Category.TACTICAL, True),
        ("Police case opened by Det. Tammy Young", "Tammy Young", Category.TACTICAL, True),
        ("Assigned to: Hon. Belinda Orozco", "Hon. Belinda Orozco", Category.LEGAL, True),
        ("the quote from Council Member Anna Parker", "Anna Parker", Category.JOURNALISM, True),
        ("Inspector: Krista Castillo", "Krista Castillo", Category.FIELD_SERVICE, True),
        ("Lennox furnace, serial SN33630363", "SN33630363", Category.FIELD_SERVICE, True),
        # The role must be the category's, and on the same line, within three words.
        ("Units assigned: Sgt. Ann Cobb", "Ann Cobb", Category.MEDICAL, False),
        ("Inspector:\nKrista Castillo", "Krista Castillo", Category.FIELD_SERVICE, False),
        ("Officer on duty said that the victim Jane Roe", "Jane Roe", Category.TACTICAL, False),
        ("Witness Omar Haddad", "Omar Haddad", Category.TACTICAL, False),
        # A role in an apposition after the span: a comma, then the role within three words.
        ("From: Mary Cochran, Managing Editor", "Mary Cochran", Category.JOURNALISM, True),
        ("From: Mary Cochran, Managing Editor", "Mary Cochran,", Category.JOURNALISM, True),
        ("Signed, Jane Roe , reporter", "Jane Roe", Category.JOURNALISM, True),
        ("From: Mary Cochran Managing Editor", "Mary Cochran", Category.JOURNALISM, False),
        (
            "Mary Cochran, the neighbour who met the managing editor",
            "Mary Cochran",
            Category.JOURNALISM,
            False,
        ),
        ("Mary Cochran,\nManaging Editor", "Mary Cochran", Category.JOURNALISM, False),
    ],
)
def test_a_role_the_category_preserves_keeps_the_span_readable(text, value, category, kept):
    start = text.index(value)
    assert has_role(text, start, start + len(value), category, "NAME") is kept


@pytest.mark.parametrize(
    ("text", "value", "category", "kept"),
    [
        # A capitalised title the category preserves, right before the name or over its other
        # capitalised words (at most two), or opening it.
        ("Assigned to: Hon. Belinda Orozco", "Belinda Orozco", Category.LEGAL, True),
        ("Assigned to: Hon. Belinda Orozco", "Orozco", Category.LEGAL, True),
        ("Assigned to: Hon. Belinda Orozco", "Hon. Belinda Orozco", Category.LEGAL, True),
        ("the quote from Council Member Anna Parker", "Parker", Category.JOURNALISM, True),
        ("Police case opened by Det. Tammy Young", "Young", Category.TACTICAL, True),
        ("Tech Robert Vasquez returned on Monday", "Robert Vasquez", Category.FIELD_SERVICE, True),
        # A lower-case role is a description; a comma ends the name; a title keeps only its line,
        # its category, and reaches over at most two words.
        ("Le juge Ana Ruiz a statué", "Ana Ruiz", Category.LEGAL, False),
        ("our new member Gilbert Torres", "Gilbert Torres", Category.JOURNALISM, False),
        ("Officer Smith, John Doe", "John Doe", Category.TACTICAL, False),
        ("Visitor Amy Wood, badge 425689", "Amy Wood", Category.TACTICAL, False),
        ("Hon.\nBelinda Orozco", "Belinda Orozco", Category.LEGAL, False),
        ("Det. Tammy Young", "Tammy Young", Category.MEDICAL, False),
        ("Judge Marie Claire Anne Dupont", "Dupont", Category.LEGAL, False),
    ],
)
def test_a_title_the_category_preserves_keeps_the_model_s_name_readable(
    text, value, category, kept
):
    start = text.index(value)
    assert titled(text, start, start + len(value), category) is kept


@pytest.mark.parametrize(
    ("text", "value", "label", "category", "kept"),
    [
        # An identifier role keeps the number beside it, never a name.
        ("Officer Brandi Schwartz, badge 3837", "3837", "ID", Category.TACTICAL, True),
        # A badge is a person's: kept only where a preserved role names whose it is.
        ("Opened by Det. Juan Cannon, badge 2868 on", "2868", "ID", Category.TACTICAL, True),
        ("11:58\tVisitor Christine Hill badge 425689", "425689", "ID", Category.TACTICAL, False),
        # A page read in image mode is one line: a guard named earlier holds no later badge.
        ("Guard Jo Lee 11:58 Visitor Ann Hill badge 4256", "4256", "ID", Category.TACTICAL, False),
        ("INCIDENT REPORT    Case PD-25-60764", "PD-25-60764", "SSN", Category.TACTICAL, True),
        ("badge 9134, victim Leonard Moody", "Leonard Moody", "NAME", Category.TACTICAL, False),
        ("Parcel no.: APN 556-162-687", "556-162-687", "ACCOUNT", Category.LEGAL, True),
        ("Case worker Jane Roe", "Jane Roe", "NAME", Category.TACTICAL, False),
        ("Officer Ann Cobb, badge 3837", "3837", "ID", Category.MEDICAL, False),
        # A byline: the line opens with the word, then the span.
        ("By John Butler, The Ledger", "John Butler,", "NAME", Category.JOURNALISM, True),
        ("Par Jeanne Roux, Le Courrier", "Jeanne Roux,", "NAME", Category.JOURNALISM, True),
        ("Approved by John Butler", "John Butler", "NAME", Category.JOURNALISM, False),
        ("By the river, John Butler", "John Butler", "NAME", Category.JOURNALISM, False),
        ("By John Butler, The Ledger", "John Butler,", "NAME", Category.GENERAL, False),
    ],
)
def test_identifier_roles_and_bylines(text, value, label, category, kept):
    start = text.index(value)
    assert has_role(text, start, start + len(value), category, label) is kept


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Unit\tCarrier 24ACC636 condenser", "24ACC636", True),
        ("Unit\tMitsubishi MXZ-3C mini split", "Mitsubishi", True),
        ("Installed Navien NPE-240A tankless heater", "Navien NPE-240A", True),
        ("Unit inspected: Honeywell Vista-20P alarm panel", "Honeywell Vista-20P", True),
        ("a repeat F0-2 on the Lennox EL296V furnace", "EL296V", True),
        # A make alone, a make before a plain word, or a name before a code stays.
        ("Customer: Bryant Moss", "Bryant", False),
        ("the York unit was replaced", "York", False),
        ("Bryant Moss 24ACC636", "Bryant Moss", False),
        ("Customer Smith AB1234", "Smith", False),
        ("Carrier\n24ACC636", "24ACC636", False),
    ],
)
def test_a_make_before_its_model_code_is_equipment(text, value, kept):
    start = text.index(value)
    assert names_equipment(text, start, start + len(value), Category.FIELD_SERVICE) is kept
    assert names_equipment(text, start, start + len(value), Category.GENERAL) is False


ORGANISATIONS = [
    ("Garcia LLC", "Garcia", True),
    ("Price LLC Field Services", "Price", True),
    ("Lee-Lopez Field Services", "Lee-Lopez", True),
    # The span as the tier reads it, without its comma.
    ("Smith, Lyons and Frederick Field Services", "Smith", True),
    ("Freeman, Watts and Webster Security", "Freeman", True),
    ("Smith, Lyons and Frederick Field Services", "Frederick", True),
    ("Hansen & Pettersson HB", "Hansen", True),
    ("Martín y Ojeda S.A.", "Martín", True),
    ("Sponsor: Friedman Inc. donated $627.78", "Friedman", True),
    ("Nordahl Berg AS, Oslo", "Nordahl Berg", True),
    ("a complaint to Distribuciones Castellana S.L.. My order", "Castellana", True),
    # No company form, or not closing the name: a person.
    ("Please forward the minutes to Joana Ferreira by Friday.", "Joana Ferreira", False),
    ("Tell Maria as soon as possible", "Maria", False),
    ("Tell Maria. Security will open the door.", "Maria", False),
    ("Ask J. Smith Group leader", "J.", False),
    ("Sponsor: Wilson, Wright and Barton donated", "Wilson", False),
    ("Garcia\nLLC", "Garcia", False),
    ("Anna from the bank", "Anna", False),
    ("Ingrid Olsen, Bergen, Norway and her Group", "Ingrid Olsen", False),
]
"""The same table is NerLabelsTest's (Kotlin)."""


@pytest.mark.parametrize(("text", "value", "organisation"), ORGANISATIONS)
def test_a_name_a_company_form_closes_is_an_organisation(text, value, organisation):
    start = text.index(value)
    assert names_an_organisation(text, start, start + len(value)) is organisation
