"""Few-shot examples: kept as data, checked against their text, rendered into prompts."""

from __future__ import annotations

import pytest

from redacto.document import Category, Mode, Step
from redacto.prompts import PromptLibrary, default_prompts_dir
from redacto.prompts.examples import ExampleSet, load_examples

LIBRARY = PromptLibrary.load()
UNIVERSAL = load_examples(default_prompts_dir() / "examples.yaml", LIBRARY.labels)
BY_CATEGORY = {category: LIBRARY.examples(category) for category in Category}


def all_texts() -> list[str]:
    sets: list[ExampleSet] = [UNIVERSAL, *BY_CATEGORY.values()]
    texts = []
    for examples in sets:
        for step in Step:
            texts += [example.text for example in examples.section(step)]
    return texts


@pytest.mark.parametrize(
    "needle",
    [
        "daughter Lisa",  # an identifier only through a relation
        "inquire@blucurrent. mail",  # OCR-damaged value
        "Orange",  # company names that are also words
        "Apple",
        "Mars",
        "DOB",  # dates in different roles: birth dates vs. statement/effective/incident dates
        "Statement date",
        "Effective",
        "Incident",
    ],
)
def test_hard_cases_appear_among_the_examples(needle):
    assert any(needle in text for text in all_texts()), needle


@pytest.mark.parametrize("category", list(Category))
def test_every_category_has_detect_and_validate_examples_in_its_prompts(category):
    examples = BY_CATEGORY[category]
    assert len(examples.detect) >= 3 and len(examples.section(Step.VALIDATE)) >= 2
    assert any(not example.items for example in examples.detect) or any(
        not example.missed for example in examples.section(Step.VALIDATE)
    ), "an example where the right answer is NONE or PASS"
    for step in (Step.DETECT, Step.VALIDATE):
        for mode in Mode:
            rendered = examples.for_prompt(step, mode)
            assert rendered, (step, mode)
            system = LIBRARY.prompt(step, mode, category).system
            for example in rendered:
                assert example.input in system and example.output in system


def test_image_mode_answers_point_at_the_right_words():
    rendered = {e.id: e for e in BY_CATEGORY[Category.MEDICAL].for_prompt(Step.DETECT, Mode.IMAGE)}
    relational = rendered["relational-daughter"]
    assert relational.input.startswith("[0] Seen [1] with [2] the [3] patient's [4] daughter")
    assert relational.output == "5:NAME\n6:PHONE"
    general = {e.id: e for e in BY_CATEGORY[Category.GENERAL].for_prompt(Step.DETECT, Mode.IMAGE)}
    # The OCR-split email is two words: both are labelled.
    assert general["ocr-broken-email"].output == "1:EMAIL\n2:EMAIL\n4:NAME\n5:NAME"


def test_text_mode_answers_copy_values_as_written():
    general = {e.id: e for e in BY_CATEGORY[Category.GENERAL].for_prompt(Step.DETECT, Mode.TEXT)}
    assert general["ocr-broken-email"].output == "EMAIL: inquire@blucurrent. mail\nNAME: Sam Lee"
    validate = BY_CATEGORY[Category.MEDICAL].for_prompt(Step.VALIDATE, Mode.IMAGE)
    assert validate[0].input.startswith("[0] [NAME_1] [1] came")
    assert validate[0].output == "FAIL\n5:NAME"


def test_universal_examples_render_as_plain_text_in_both_modes():
    for mode in Mode:
        (classify,) = UNIVERSAL.for_prompt(Step.CLASSIFY, mode)
        assert "[0]" not in classify.input
        assert classify.output == "DOCUMENT_TYPE: Discharge summary\nCATEGORY: Medical"
    (redact,) = UNIVERSAL.for_prompt(Step.REDACT, Mode.TEXT)
    assert "EMAIL: inquire@blucurrent.mail" in redact.detections
    assert "inquire@blucurrent. mail" in redact.input
    assert redact.output == "Questions? [EMAIL_1] or [NAME_1], [PHONE_1]."
    assert UNIVERSAL.for_prompt(Step.REDACT, Mode.IMAGE) == []
