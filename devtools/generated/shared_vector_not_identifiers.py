"""Inputs for `tests/vectors/not_identifiers/` (`shared_vectors.py` asks
`redacto.text.not_identifiers` and `redacto.pipeline.detections` for their answers): values a
model or the NER tier may name, in English and French, that are or are not only a time of
day or an amount, and NAME values a greeting opens. Unicode spaces inside amounts, digits of
other scripts (Python's `\\d` takes every decimal digit) and the letters `re.IGNORECASE`
folds onto ASCII (long s, Kelvin sign, dotless and dotted i) make Python's semantics visible
where another language's could differ. Digits are chosen from Unicode 13 or older (Java 17's
version)."""

from __future__ import annotations

from typing import NamedTuple


class NotIdentifierCase(NamedTuple):
    """One value named `label`, and why it is here."""

    description: str
    label: str
    value: str


def _cases(label: str, *rows: tuple[str, str]) -> list[NotIdentifierCase]:
    return [NotIdentifierCase(description, label, value) for value, description in rows]


NOT_IDENTIFIER_CASES: tuple[NotIdentifierCase, ...] = (
    *_cases(
        "ADDRESS",
        ("11:15.", "a time with a full stop, named an ADDRESS"),
        ("(11:15)", "brackets are edges"),
        ("«\u00a014h30\u00a0»", "French quotes with no-break spaces are edges"),
    ),
    *_cases(
        "DATE",
        ("7:45 pm", "English time, pm"),
        ("9 am.", "an hour and am"),
        ("9 A.M.", "A.M. in capitals"),
        ("12 p.m", "p.m without its last stop"),
        ("14h30", "French time"),
        ("14 h 30", "French time, spaced"),
        ("19 h", "French hour"),
        ("1H", "an hour, H in capitals"),
        ("23h59", "the last minute"),
        ("07:30\u202fPM", "a narrow no-break space before PM is \\s"),
        ("11:15\u00a0", "a trailing no-break space is stripped"),
        ("11:15\r", "a trailing carriage return is stripped"),
        ("10:61", "no minute 61"),
        ("25:00", "no hour 25"),
        ("24h00", "no hour 24"),
        ("13 pm", "no thirteen pm"),
        ("2025", "a year is no time"),
        ("à 14h30", "a time with a word before it"),
        ("10:30-11:00", "a range of times"),
        ("3 May 2024", "a calendar date"),
        ("\uff11\uff11:\uff11\uff15", "full-width digits fail the ASCII [01] and [0-5]"),
        ("\u0663 pm", "an Arabic-Indic digit is \\d"),
    ),
    *_cases(
        "ID",
        ("3", "a lone digit"),
        ("€1339", "the euro sign glued before"),
        ("EUR", "a currency alone"),
    ),
    *_cases(
        "SSN",
        ("£1568", "the pound sign glued before, named a tax number"),
    ),
    *_cases(
        "ACCOUNT",
        ("671 EUR", "a currency code after"),
        ("870,00 €", "French decimals and the euro sign after"),
        ("$80.84", "dollars and cents"),
        ("USD 25", "a currency code before"),
        ("USD25", "a currency code glued before"),
        ("250 Euros.", "a currency word, capitalised"),
        ("1.234,56 EUR", "thousands with a stop"),
        ("1\u202f250,00\u00a0€", "French: narrow no-break space in the number, no-break before €"),
        ("1\u00a0250 euros", "a no-break space between thousands"),
        ("€\u00a01339", "a no-break space after the sign"),
        ("€ 1 339", "spaces between thousands"),
        ("CHF 1'250.50", "Swiss thousands"),
        ("EUR\t25", "a tab is \\s"),
        ("EUR  25", "two spaces are one too many"),
        ("€5,", "a trailing comma is an edge"),
        ("\u201c€20\u201d", "curly quotes are edges"),
        ("EUR 123456789", "nine digits are still an amount"),
        ("EUR 1234567890", "ten digits may be an account"),
        ("€\uff11\uff13\uff13\uff19", "full-width digits are \\d and count"),
        ("€\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19\uff10", "ten full-width digits"),
        ("15 DK\u212a", "the Kelvin sign folds to k"),
        ("u\u017fd 5", "a long s folds to s"),
        ("5 \u0131nr", "a dotless i folds to i"),
        ("\u0130NR 5", "a dotted capital I folds to i"),
        ("1065 EUR from X", "an amount with more words"),
        ("25 € 30", "two numbers"),
        ("132,00", "a number and no currency"),
        ("FR76 3000 6000 0112 3456 7890 189", "an IBAN"),
    ),
    *_cases(
        "NAME",
        ("Coucou Thérèse,", "a French greeting opens the name"),
        ("Hi Gina", "an English greeting"),
        ("Dear John Smith", "Dear before a full name"),
        ("Bonjour, Madame Dupont", "a greeting with a comma; Madame stays"),
        ("Chère Hélène", "a French greeting with an accent"),
        ("CHÈRES Anne", "a greeting in capitals"),
        ("Hello dear Anna", "two greetings"),
        ("Dearest Jo", "Dearest"),
        ("Hey, Tom", "Hey with a comma"),
        ("Bonsoir Mme Martin", "a title after the greeting stays"),
        ("  Salut   Marc ", "spaces before and between"),
        ("Mrs. Chen", "a title is no greeting"),
        ("De Sousa", "a particle is no greeting"),
        ("BRITTANY LE", "a surname in capitals"),
        ("Hi", "a lone greeting is kept, and is not a name"),
        ("Hi Hi", "a greeting before a greeting: the last is not a name"),
        ("Dear My", "a greeting before a pronoun"),
        ("Hi 11:15", "a greeting before a time"),
        ("11:15", "a time named a NAME"),
        ("€5", "an amount named a NAME"),
        ("Coucou\u00a0Thérèse", "a no-break space parts the greeting too"),
        ("Hi\tGina", "and a tab"),
        ("Che\u0300re Anne", "a greeting with a combining accent, compared in NFC"),
        ("My", "a lone pronoun"),
    ),
    *_cases(
        "ADDRESS",
        ("Dear Street 5", "only a NAME loses its greeting"),
    ),
)
