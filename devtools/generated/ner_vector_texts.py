"""The inputs of the NER golden vectors (`ner_vectors.py`): English and French
texts, long pages over one window, and Unicode edge cases. Each is (name, description,
category, text); what the tier makes of each is asked of the real model."""

from __future__ import annotations

NerText = tuple[str, str, str, str]

_FILLER_EN = (
    "The committee met again on Tuesday and went through the budget for the coming year, "
    "line by line, before the chair asked for comments from the floor. "
)
_FILLER_FR = (
    "Le conseil s'est réuni mardi pour examiner le budget de l'année prochaine, ligne par "
    "ligne, avant que la présidente ne donne la parole à la salle. "
)

SHORT_EN: list[NerText] = [
    (
        "en_full_contact",
        "a name, a street address, a phone and an e-mail",
        "General",
        "Jean-Baptiste Morel, 12 rue des Lilas, 69003 Lyon, 06 12 34 56 78, jb.morel@example.fr",
    ),
    (
        "en_lone_given_name",
        "a lone given name in a question",
        "General",
        "Why is Malthe so impulsive?",
    ),
    (
        "en_lone_surname",
        "a surname after a hyphenated prefix",
        "General",
        "Say hello to ex-Zombie Wiik for me.",
    ),
    (
        "en_nothing_bus",
        "a sentence with nothing to find",
        "General",
        "The bus station is open from 6 am to 11 pm every day.",
    ),
    (
        "en_nothing_recipe",
        "a request with nothing to find",
        "General",
        "Can you give me a recipe for a lemon tart with a crisp base?",
    ),
    (
        "en_sentence_start_words",
        "sentence-start capitals that are no names",
        "General",
        "My train was late. I called the office. The manager said You can come tomorrow.",
    ),
    (
        "en_italian_address",
        "a street address with the city after a comma",
        "General",
        "The bus station is on Via Pasquale Scura 127, Napoli.",
    ),
    (
        "en_portuguese_address",
        "a Portuguese address with its postcode",
        "General",
        "Send it to Bairro St António 69, 4700-123 Braga, attention Joana Ferreira.",
    ),
    (
        "en_dutch_name",
        "a name with a lower-case particle",
        "Medical",
        "Patient: Thandiwe van Gameren, seen in clinic for a sprained ankle.",
    ),
    (
        "en_city_alone",
        "a city on its own is no address",
        "General",
        "I flew to Paris last week and loved it.",
    ),
    (
        "en_us_address",
        "a US street address with unit, state and ZIP",
        "Legal",
        "The tenant, Mary O'Connor, lives at 4410 Maple Avenue, Apt 3B, Springfield, IL 62704.",
    ),
    (
        "en_phone_parentheses",
        "a phone number in parentheses and dashes",
        "General",
        "Call me at (415) 555-0132 after five.",
    ),
    (
        "en_toll_free_financial",
        "a toll-free number a Financial page preserves",
        "Financial",
        "Questions? Call First Bank at 1-800-555-0199 or your adviser Priya Natarajan.",
    ),
    (
        "en_toll_free_general",
        "the same toll-free number redacted in General",
        "General",
        "Questions? Call First Bank at 1-800-555-0199 or your adviser Priya Natarajan.",
    ),
    (
        "en_ssn",
        "a US social security number",
        "Financial",
        "Taxpayer: Robert King, SSN 078-05-1120, filing jointly.",
    ),
    (
        "en_bank",
        "an account and routing number",
        "Financial",
        "Wire to account 000123456789, routing 021000021, beneficiary Lena Fischer.",
    ),
    (
        "en_passport",
        "a passport number",
        "Tactical",
        "Witness Omar Haddad showed passport X12345678 at the desk.",
    ),
    (
        "en_driver_licence",
        "a driver's licence number",
        "Tactical",
        "Driver licence D1234-56789-01234 was issued to Kevin Walsh.",
    ),
    (
        "en_url",
        "a personal web page",
        "Journalism",
        "Her blog at https://annasmithwrites.example.com has the draft.",
    ),
    (
        "en_email_trailing_dot",
        "an e-mail followed by a full stop",
        "General",
        "Reply to tom.baker@example.org.",
    ),
    ("en_possessive", "a possessive name", "General", "We stayed at Peter's flat near the river."),
    (
        "en_initials",
        "initials and a surname",
        "Medical",
        "Referred by Dr J. R. Whitfield for follow-up.",
    ),
    ("en_all_caps", "a name in capitals on a form", "Legal", "SIGNED: MARGARET ELIZABETH THORNTON"),
    (
        "en_lowercase_chat",
        "a chat message in lower case",
        "General",
        "hey its sam, my number is 07700 900123 if you need me",
    ),
    (
        "en_newlines",
        "a form across lines",
        "Field Service",
        "Customer: Ahmed Karim\nAddress: 22 Baker Street\nLondon NW1 6XE\nGate code: 4471",
    ),
    (
        "en_military_address",
        "a military address",
        "General",
        "Mail it to PSC 2322, Box 7750, APO AA 88307 for Sgt Lee.",
    ),
    (
        "en_company_forms",
        "people's names that a company form closes stay readable, the person's does not",
        "Financial",
        "Invoice from Garcia LLC and Hansen & Pettersson HB, paid by Joana Ferreira.",
    ),
    (
        "en_role_apposition",
        "an editor named in an apposition stays readable in Journalism, the source does not",
        "Journalism",
        "From: Mary Cochran, Managing Editor\nThe source, Paul Ndiaye, asked not to be named.",
    ),
    (
        "en_firm_names",
        "firms named for people stay readable past a comma; the customer does not",
        "Field Service",
        "Smith, Lyons and Frederick Field Services\nDispatch callback note\n\n"
        "Freeman, Watts and Webster Security\nDaily Incident Log\n\n"
        "Help me write a complaint to Distribuciones Castellana S.L.. Joana Ferreira",
    ),
    (
        "en_identifier_roles",
        "an officer's badge and a case number stay readable in Tactical; the victim beside them, "
        "and a visitor's badge, do not",
        "Tactical",
        "INCIDENT REPORT    Case PD-25-60764\n"
        "Reporting officer: Officer Carrie Thomas, badge 9134, victim Leonard Moody\n"
        "Victim address: 42 Elm Street, Springfield\n"
        "11:58\tVisitor Christine Hill badge 425689 refused exit search",
    ),
    (
        "en_byline",
        "a byline keeps its reporter readable in Journalism, the source stays redacted",
        "Journalism",
        "By John Butler, The Ledger\nThe source, Paul Ndiaye, was approached by Anna Weiss.",
    ),
    (
        "en_equipment",
        "a make before its model code is equipment; a make alone, and the customer, are not",
        "Field Service",
        "Unit\tCarrier 24ACC636 condenser\nInstalled Navien NPE-240A tankless heater\n"
        "Customer: Bryant Moss, 22 Baker Street, York",
    ),
    (
        "en_amount_as_tax_number",
        "amounts the model reads as a tax number and an ID identify no one (not_identifiers)",
        "Financial",
        "Tax number £1568 for Joana Ferreira, passport $1568.",
    ),
]

SHORT_FR: list[NerText] = [
    (
        "fr_byline",
        "une signature d'article garde le journaliste lisible, la source reste masquée",
        "Journalism",
        "Par Marie Lefebvre, Le Courrier\nLa source, Paul Ndiaye, habite 12 rue des Lilas à Lyon.",
    ),
    (
        "fr_contact",
        "une fiche de contact",
        "General",
        "Élodie Brun, 8 avenue Victor Hugo, 75016 Paris, tél. 01 45 67 89 10",
    ),
    (
        "fr_nothing",
        "une phrase sans rien à trouver",
        "General",
        "Je voudrais réserver une table pour deux personnes ce soir.",
    ),
    (
        "fr_sentence_start",
        "des débuts de phrase qui ne sont pas des noms",
        "General",
        "Je suis en retard. Vous pouvez commencer. Elle arrive bientôt. Le train attend.",
    ),
    (
        "fr_letter",
        "une lettre avec un nom et une adresse",
        "Legal",
        "Madame Sophie Lefèvre, demeurant 3 place Bellecour, 69002 Lyon, déclare ce qui suit.",
    ),
    (
        "fr_nir",
        "un numéro de sécurité sociale",
        "Medical",
        "Patient : Luc Moreau, NIR 1 84 12 75 108 123 45, allergique à la pénicilline.",
    ),
    (
        "fr_email",
        "une adresse électronique",
        "General",
        "Écrivez-moi à claire.dubois@exemple.fr avant vendredi.",
    ),
    (
        "fr_elision",
        "des élisions devant un nom",
        "General",
        "J'ai parlé à l'avocat d'Hélène Martin hier.",
    ),
    (
        "fr_iban",
        "un IBAN et un titulaire",
        "Financial",
        "Virement sur FR76 3000 6000 0112 3456 7890 189 au nom de Paul Girard.",
    ),
    (
        "fr_phone_intl",
        "un numéro au format international",
        "General",
        "Appelez le +33 (0)2 38 64 96 20 et demandez Nadia.",
    ),
    (
        "fr_lowercase_street",
        "une rue en minuscules",
        "Field Service",
        "Intervention chez M. Bernard, 14 rue de la Paix, 44000 Nantes, code portail 2580.",
    ),
    (
        "fr_nothing_meeting",
        "un avis de réunion sans identifiant",
        "General",
        "La réunion de service est déplacée à jeudi, salle B, à 14 heures.",
    ),
    (
        "fr_canadian",
        "une adresse québécoise",
        "General",
        "Marc Tremblay habite au 455 boulevard René-Lévesque Ouest, Montréal (Québec) H2Z 1Z3.",
    ),
]

UNICODE: list[NerText] = [
    (
        "uni_accents_decomposed",
        "accents as combining marks (NFD)",
        "General",
        "Rendez-vous avec Ame\u0301lie Dupre\u0301 a\u0300 Lyon.",
    ),
    (
        "uni_nbsp",
        "no-break spaces between words and in a number",
        "General",
        "Contact\u00a0: Chloé\u00a0Roux, 06\u00a012\u00a034\u00a056\u00a078",
    ),
    (
        "uni_narrow_nbsp",
        "narrow no-break spaces (French typography)",
        "General",
        "Nom\u202f: Hugo\u202fBlanc\u202f; ville\u202f: Nice",
    ),
    (
        "uni_cjk_name",
        "a Japanese name and address",
        "General",
        "山田太郎さんは東京都新宿区西新宿2-8-1に住んでいます。",
    ),
    (
        "uni_cjk_mixed",
        "CJK beside Latin words",
        "General",
        "Contact 王小明 at wang.xm@example.cn or +86 138 0013 8000.",
    ),
    (
        "uni_emoji",
        "emoji around a name",
        "General",
        "🎉 Happy birthday Olivia Bennett! 🎂🥳 See you at 5 Elm Road 🏡",
    ),
    (
        "uni_emoji_zwj",
        "a family emoji (zero-width joiners) next to a name",
        "General",
        "👨\u200d👩\u200d👧 The Nakamura family: Kenji and Yui.",
    ),
    (
        "uni_long_word",
        "a very long word",
        "General",
        "Ask " + "x" * 300 + " and Noah Price about it.",
    ),
    (
        "uni_long_token_run",
        "a long run of digits",
        "General",
        "Reference " + "1234567890" * 30 + " for Grace Hall.",
    ),
    (
        "uni_greek_cyrillic",
        "Greek and Cyrillic names",
        "General",
        "Guests: Νίκος Παπαδόπουλος and Анна Иванова arrived on Friday.",
    ),
    (
        "uni_arabic",
        "a right-to-left name",
        "General",
        "The visitor محمد العلي left a number: 050 123 4567.",
    ),
    (
        "uni_tabs_controls",
        "tabs and a carriage return",
        "General",
        "Name:\tIsabel Cruz\r\nPhone:\t+34 612 345 678",
    ),
    (
        "uni_zero_width",
        "a zero-width space inside a word",
        "General",
        "Signed by Fran\u200bcesca Rossi.",
    ),
    (
        "uni_fullwidth",
        "full-width Latin letters and digits",
        "General",
        "Ｊｏｈｎ Ｓｍｉｔｈ ０９０ １２３４ ５６７８",
    ),
    ("uni_only_punctuation", "punctuation and symbols only", "General", "— … !!! ??? *** ### ©®™"),
    ("uni_empty", "an empty text", "General", ""),
    ("uni_whitespace", "whitespace only", "General", " \n\t\u00a0 "),
]

LONG: list[NerText] = [
    (
        "long_en_name_at_end",
        "a long English page: the name is in the second window",
        "General",
        _FILLER_EN * 22 + "Minutes taken by Rebecca Lindqvist, 19 Harbour Lane, Bristol BS1 4DJ.",
    ),
    (
        "long_en_names_throughout",
        "a long page with names in every window",
        "Legal",
        "Present: Daniel Osei. "
        + _FILLER_EN * 12
        + "Objection raised by Fiona Gallagher. "
        + _FILLER_EN * 12
        + "Closed by Hiroshi Tanaka, phone 020 7946 0958.",
    ),
    (
        "long_fr_page",
        "une longue page française au-delà d'une fenêtre",
        "General",
        _FILLER_FR * 20 + "Compte rendu rédigé par Mathilde Garnier, 5 rue Nationale, 37000 Tours.",
    ),
    (
        "long_boundary_name",
        "a name placed near a window edge",
        "General",
        _FILLER_EN * 14 + "Spoke with Siobhan McAllister-Byrne about it. " + _FILLER_EN * 8,
    ),
    ("long_nothing", "a long page with nothing to find", "General", _FILLER_EN * 30),
]

NER_TEXTS: list[NerText] = [*SHORT_EN, *SHORT_FR, *UNICODE, *LONG]
