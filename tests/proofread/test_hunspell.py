"""The offline proofreader: Debian's Hunspell, a real spelling check with the same outputs.
It needs `hunspell`, `hunspell-en-us` and `hunspell-fr` (scripts/setup.sh installs them)."""

from __future__ import annotations

import json

import pytest

from cv_cases import DETECTOR_OPTIONS, ENGLISH, FRENCH
from cv_pages import write_born_digital
from redacto.proofread import MISTAKES_JSON, ProofreadOptions, proofread_file
from redacto.proofread.hunspell import SpellCheck


@pytest.mark.parametrize(
    ("language", "text", "found"),
    [
        ("en", "I recieved teh letter from [NAME_1] at MIT in 2019.", ["recieved", "teh"]),
        ("fr", "Dotée d’ une expériance, j’ai recu le prix.", ["expériance", "recu"]),
        # a real word in the wrong place is not a spelling mistake: only an LLM finds it
        ("fr", "j’ai travailler six ans.", []),
    ],
)
def test_hunspell_finds_words_its_dictionary_does_not_know(language, text, found):
    mistakes = list(SpellCheck.for_language(language, text).mistakes(text))
    assert [m.error_text for m in mistakes] == found


def test_suggestions_context_and_the_language_chosen_by_the_text():
    text = "Elle a recu une mention du jury pour son travail."
    check = SpellCheck.for_language("auto", text)
    assert check.dictionary == "fr_FR"
    (mistake,) = check.mistakes(text)
    assert (mistake.error_text, mistake.correction, mistake.context_before) == (
        "recu",
        "reçu",
        "Elle a",
    )


@pytest.mark.slow  # the text-layer page is OCR'd too
@pytest.mark.parametrize(
    ("case", "found"),
    [
        # not "Germna": the text layer glued it to "basic", and a capital inside a word is
        # read as a name or an acronym
        (ENGLISH, {"recieved": "received", "quartely": "quarterly"}),
        # not "j’ai travailler": a real word in the wrong place
        (FRENCH, {"expériance": "expérience", "recu": "reçu"}),
    ],
    ids=["english", "french"],
)
def test_without_an_upstream_the_same_outputs_come_from_hunspell(case, found, tmp_path):
    source = write_born_digital(case.lines, tmp_path / "cv.pdf")
    options = ProofreadOptions(upstream=None, ocr="tesseract", pipeline=DETECTOR_OPTIONS)
    outcome = proofread_file(source, tmp_path / "out", options, case.engine())
    result = json.loads((tmp_path / "out" / MISTAKES_JSON).read_text(encoding="utf-8"))
    assert outcome.exit_code == 0 and result["complete"] is True
    assert result["proofreader"] in ("hunspell:en_US", "hunspell:fr_FR")
    assert all(m["located"] for m in result["mistakes"])  # a name beside one places it too
    got = {m["error_text"]: m["correction"] for m in result["mistakes"]}
    assert got == found
    # hidden names are blanked, never reported as misspellings
    assert not {"Whitcombe", "Dubois", "Jonathan"} & set(got)
    assert len(result["mistakes"]) == 3  # "recieved", "recu": twice each
    assert (tmp_path / "out" / "proofread.pdf").is_file()
