"""The inputs of the generated locator and policy vectors (`shared_vectors.py` asks
the Python for their answers; the text sets' inputs are in `shared_vector_texts.py`). Every
case of the locator's own tables (tests/pipeline/test_locator.py, test_locator_mistakes.py)
is here, which `tests/pipeline/test_shared_vectors.py` checks, beside texts that make
Python's string semantics visible: ß and ẞ, Turkish dotted and dotless i, ligatures,
full-width digits, no-break and zero-width spaces, combining marks, French accents, Greek
final sigma, Cherokee, characters outside the BMP."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LocateCase:
    """`Locator(text).locate(value)` and `.near(value)`."""

    name: str
    description: str
    text: str
    value: str


@dataclass(frozen=True)
class MistakeCase:
    """`locate_mistake([Locator(page) for page in pages], error, context_before)`."""

    name: str
    description: str
    error: str
    context_before: str
    pages: tuple[str, ...]


@dataclass(frozen=True)
class OptionCase:
    """`apply_model_settings(PipelineOptions(**caller), <manifest>'s phone settings)`."""

    name: str
    description: str
    caller: dict[str, Any]
    manifest: str | None


NOTE = (
    "Mrs. Chen (MRN4471829) wrote to inquire@blucurrent. mail on 3/15/48. "
    "Seen by Dr. Srnith. Her daughter Lisa and ‘Ann O’Neil’ visited. Annual review."
)
CV = (
    "Data analyst who recieved a master degree in 2016.\n"
    "In 2021 Jonathan Whitcombe recieved the analyst award.\n"
    "led a team of five and Fluent in French and\n"
    "managed the quartely reports. Spanish, basicGermna.\n"
    "Titulaire d’une licence, j’ai travailler six ans.\n"
    "Dotée d’ une expériance de la logistique."
)


def _note(name: str, value: str, description: str) -> LocateCase:
    return LocateCase(name, description, NOTE, value)


LOCATE_CASES: tuple[LocateCase, ...] = (
    # test_locator.py: test_levels
    _note("exact_title_and_name", "Mrs. Chen", "The value verbatim on word boundaries."),
    _note("exact_one_word", "Lisa", "One word, verbatim."),
    _note("exact_date", "3/15/48", "Punctuation inside the value, verbatim."),
    _note("normalized_broken_email", "inquire@blucurrent.mail", "OCR split the email."),
    _note("normalized_case", "MRS CHEN", "Case and punctuation ignored."),
    _note("normalized_quotes", "Ann O'Neil", "A straight quote for the page's curly one."),
    _note("normalized_lower", "lisa", "Lower case for the page's capital."),
    _note("unique_rn_for_m", "Dr. Smith", "OCR read m as rn: the one near occurrence."),
    _note("substring_glued_label", "4471829", "Glued to its label: widened to the token."),
    _note("substring_shared_run", "inquire@ucal.com", "The longest shared run of 5+."),
    _note("words_title_and_name", "Mrs. Lisa", "A near miss: its words of 4+ letters."),
    _note("words_name_and_surname", "Lisa Whitfield", "Only the word on the page is placed."),
    # test_locator.py: test_not_located
    _note("not_located_invented", "Robert Paulson", "No trace: the model's invention."),
    _note("not_located_empty", "", "An empty value is never located."),
    _note("not_located_blank", "   ", "Whitespace only."),
    _note("not_located_punctuation", "...", "No letter or digit to compare."),
    _note("not_located_longer_word", "Chenoweth", "A longer word is not a near occurrence."),
    _note("not_located_short", "Lis", "Under 4 letters: no fuzzy, no substring."),
    _note("not_located_short_number", "4471", "Part of a number, under the substring size."),
    # test_locator.py: test_near_tells_a_near_miss_from_an_invention
    LocateCase(
        "near_word_in_text",
        "A word of the value is in the text.",
        "Seen by Dr. Lee.",
        "Lee Kowalski",
    ),
    LocateCase(
        "near_number",
        "One digit off, twice over budget.",
        "Call 408-555-1234 today.",
        "408-555-0134",
    ),
    LocateCase(
        "near_two_candidates", "Two approximate occurrences.", "Dr. Kirby saw Mr. Kerby.", "Korby"
    ),
    LocateCase(
        "no_trace_name", "No trace at all.", "Mrs. Chen (MRN 4471829) called.", "Robert Paulson"
    ),
    LocateCase(
        "no_trace_account",
        "No trace of the number.",
        "Mrs. Chen (MRN 4471829) called.",
        "ACCOUNT 00412-7781",
    ),
    LocateCase(
        "no_trace_short_words", "Words under 3 letters are no trace.", "Seen by Dr. Lee.", "J. Dr"
    ),
    # test_locator.py: single cases
    LocateCase("exact_word_boundaries", "Not inside 'Annual'.", "Annual report by Ann.", "Ann"),
    LocateCase(
        "exact_every_occurrence_any_case",
        "Every normalized occurrence joins the exact one.",
        "Jane Smith paid. JANE SMITH signed. jane  smith left.",
        "Jane Smith",
    ),
    LocateCase(
        "unique_two_candidates_rejected",
        "Two near occurrences are ambiguous.",
        "Seen by Dr. Srnith and Dr. Smyth.",
        "Dr. Smith",
    ),
    LocateCase(
        "fuzzy_not_inside_longer_word",
        "A fuzzy match may not swallow a word.",
        "Chenoweth signed.",
        "Chen",
    ),
    LocateCase(
        "spans_sorted_disjoint", "Spans come sorted and disjoint.", "ab-cd ab cd abcd", "ab cd"
    ),
    LocateCase(
        "o_as_zero_on_the_page",
        "OCR read 0 as O in both copies.",
        "MRN 44O7O29, copy filed under 44O7O29.",
        "4407029",
    ),
    LocateCase(
        "o_as_zero_mixed",
        "The model read the digit, the page has an O.",
        "Account 1O0-2048 closed.",
        "100-2048",
    ),
    LocateCase(
        "o_as_zero_in_the_value",
        "The model read O, the page has digits.",
        "Account 100-2048 closed.",
        "1OO-2O48",
    ),
    LocateCase(
        "o_as_zero_needs_a_digit",
        "A value without digits is no garbled number.",
        "Signed B0b and B0b.",
        "Bob",
    ),
    # The Kotlin core's former hand-written locator checks
    LocateCase(
        "code_point_spans",
        "Spans count code points: the emoji before the name is one.",
        "😀 Jane Smith met JANE SMITH; write inquire@blucurrent. mail",
        "Jane Smith",
    ),
    LocateCase("unique_smyth", "One near occurrence.", "Patient Jane Smyth here", "Jane Smith"),
    LocateCase(
        "words_across_lines",
        "A near miss placed by its name, across a line break.",
        "History: Mrs. Marlowe came with her daughter\nLisa, who saw the fall.",
        "Mrs. Lisa",
    ),
    # Other scripts and Unicode
    LocateCase("sharp_s_casefold", "ß folds to ss.", "Wohnhaft Straße 5, Köln", "STRASSE 5"),
    LocateCase(
        "capital_sharp_s", "ẞ folds to ss, as ß does.", "GROẞE STRAẞE 12", "Große Straße 12"
    ),
    LocateCase(
        "turkish_dotless_i",
        "ı is not i: Python keeps it.",
        "Hasta: IŞIK YILMAZ, İzmir",
        "Işık Yılmaz",
    ),
    LocateCase(
        "turkish_dotless_i_upper", "I folds to i, ı stays ı.", "Hasta: Işık Yılmaz", "IŞIK YILMAZ"
    ),
    LocateCase(
        "turkish_dotted_capital",
        "İ folds to i plus a combining dot.",
        "Doğum yeri İzmir, 1980",
        "izmir",
    ),
    LocateCase(
        "ligature_ffi",
        "ﬃ folds to ffi; the span covers the ligature.",
        "Seen by Dr. Griﬃn today",
        "Griffin",
    ),
    LocateCase(
        "ligature_fi_value",
        "The model's ligature, the page's letters.",
        "Dr. Fitz and Mr. Finn",
        "ﬁtz",
    ),
    LocateCase(
        "fullwidth_digits",
        "Full-width digits are other characters.",
        "電話 ０９０-１２３４-５６７８",
        "090-1234-5678",
    ),
    LocateCase(
        "fullwidth_digits_exact",
        "Verbatim, they are exact.",
        "電話 ０９０-１２３４-５６７８",
        "０９０-１２３４-５６７８",
    ),
    LocateCase(
        "nbsp_between_words",
        "A no-break space is not the value's space.",
        "Patient Jane\u00a0Smith, 52",
        "Jane Smith",
    ),
    LocateCase(
        "narrow_nbsp_number",
        "A narrow no-break space in a number.",
        "IBAN FR76\u202f3000\u202f6000 01",
        "FR76 3000 6000",
    ),
    LocateCase(
        "zero_width_space",
        "A zero-width space glues words to the eye only.",
        "Call Jane\u200bSmith now",
        "Jane Smith",
    ),
    LocateCase(
        "zero_width_joiner_in_value",
        "The model copied a zero-width joiner.",
        "Signed Marie Curie",
        "Ma\u200drie Curie",
    ),
    LocateCase(
        "combining_acute_exact",
        "An exact match may end before a combining mark.",
        "Dear Jose\u0301 Ruiz",
        "Jose",
    ),
    LocateCase(
        "combining_vs_precomposed",
        "Decomposed é on the page, precomposed in the value.",
        "Mme Zoe\u0308 Lefe\u0300vre",
        "Zoë Lefèvre",
    ),
    LocateCase(
        "french_accents_folded",
        "Accents stay; case folds.",
        "Mme Hélène Dupré, née le 3 février",
        "HÉLÈNE DUPRÉ",
    ),
    LocateCase(
        "french_accents_dropped",
        "Accents dropped by the model: near occurrence.",
        "Mme Hélène Dupré, née le 3 février",
        "Helene Dupre",
    ),
    LocateCase(
        "french_elision",
        "A curly apostrophe in an elided name.",
        "Chez M. d’Artagnan, 12 rue Royale",
        "d'Artagnan",
    ),
    LocateCase(
        "greek_final_sigma", "ς and Σ fold to σ.", "ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ", "Νικος Παπαδοπουλος"
    ),
    LocateCase("cherokee_case", "Cherokee small letters fold to capitals.", "ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ", "ꮳꮃꭹ"),
    LocateCase(
        "superscript_digit_numeric", "² is a digit to Python.", "Area 125 m² in lot ²³⁴⁵⁶", "²³⁴⁵⁷"
    ),
    LocateCase(
        "astral_digits",
        "Mathematical digits outside the BMP are decimals.",
        "Ref 𝟘𝟙𝟚𝟛𝟜𝟝 filed",
        "𝟘𝟙𝟚𝟛𝟜𝟝",
    ),
    LocateCase("astral_glued_number", "A shared run after an emoji.", "📞4471829 Chen", "44718290"),
    LocateCase("kelvin_sign", "K (Kelvin) folds to k.", "Agent \u212aOWALSKI", "Kowalski"),
)


MISTAKE_CASES: tuple[MistakeCase, ...] = (
    # test_locator_mistakes.py
    MistakeCase(
        "context_first_occurrence",
        "The name beside it says which.",
        "recieved",
        "In 2021 Jonathan Whitcombe",
        (CV,),
    ),
    MistakeCase(
        "context_second_occurrence", "The other one.", "recieved", "Data analyst who", (CV,)
    ),
    MistakeCase(
        "context_normalized_quote",
        "A straight apostrophe for the page's curly one.",
        "j'ai travailler",
        "licence,",
        (CV,),
    ),
    MistakeCase(
        "context_normalized_split_word",
        "`d’` and `une` read as two words, case ignored.",
        "d'une expériance",
        "DOTÉE",
        (CV,),
    ),
    MistakeCase(
        "error_once",
        "Context from the other column: the error alone, once.",
        "quartely",
        "led a team of five and",
        (CV,),
    ),
    MistakeCase(
        "joined_substring", "A word glued to the one before it.", "Germna", "Spanish, basic", (CV,)
    ),
    MistakeCase(
        "ambiguous_never_guessed",
        "Twice, and no context tells which.",
        "recieved",
        "nowhere near",
        (CV,),
    ),
    MistakeCase("absent", "Not on the page.", "Statistcs", "", (CV,)),
    MistakeCase("empty_error", "An empty error.", "", "anything", (CV,)),
    MistakeCase(
        "short_inside_words", "Under 5 letters inside words: no substring.", "ana", "", (CV,)
    ),
    MistakeCase(
        "every_page_counts",
        "Once on each of two pages is twice.",
        "Norbrige",
        "",
        ("Un stage chez Norbrige.", "Puis un poste chez Norbrige."),
    ),
    MistakeCase(
        "context_picks_the_page",
        "The context picks the second page.",
        "Norbrige",
        "Puis un poste chez",
        ("Un stage chez Norbrige.", "Puis un poste chez Norbrige."),
    ),
    # Unicode
    MistakeCase(
        "context_nbsp",
        "A no-break space before the error.",
        "adresse",
        "Nouvelle",
        ("Nouvelle\u00a0adresse : rue Haute",),
    ),
    MistakeCase(
        "context_normalized_ligature",
        "A ligature in the context.",
        "eficace",
        "l'office",
        ("Dans l’oﬃce eficace du port.",),
    ),
    MistakeCase(
        "joined_substring_sharp_s",
        "ß in a word glued to another.",
        "Strase",
        "",
        ("Wohnt Hauptstraße 5, Alte-Strase7.",),
    ),
    MistakeCase(
        "error_once_combining",
        "A decomposed accent on the page.",
        "expériance",
        "",
        ("Une expe\u0301riance de la logistique.",),
    ),
)


OPTION_CASES: tuple[OptionCase, ...] = (
    OptionCase(
        "defaults_take_the_manifest", "Nothing chosen: the manifest's settings.", {}, "redacto-270m"
    ),
    OptionCase("defaults_default_manifest", "A manifest of defaults.", {}, "gemma-3-270m"),
    OptionCase(
        "no_manifest", "No manifest: the caller's options, unset ones still unset.", {}, None
    ),
    OptionCase(
        "caller_distrusts",
        "A caller may distrust what its manifest trusts.",
        {"trust_validator_pass": False},
        "gemma-3-270m",
    ),
    OptionCase(
        "caller_cannot_trust",
        "Never trust what the manifest distrusts.",
        {"trust_validator_pass": True},
        "redacto-270m",
    ),
    OptionCase(
        "caller_choices_kept",
        "A value the caller set is kept.",
        {"image_reading": "indexed", "model_redact": True, "constrained_decoding": "off"},
        "redacto-270m",
    ),
    OptionCase(
        "caller_choices_over_defaults",
        "Kept over a manifest of defaults too.",
        {"image_reading": "text", "model_redact": False, "constrained_decoding": "detect+validate"},
        "gemma-3-270m",
    ),
    OptionCase(
        "one_choice_kept",
        "One chosen, the rest the manifest's.",
        {"model_redact": True},
        "redacto-270m",
    ),
)
