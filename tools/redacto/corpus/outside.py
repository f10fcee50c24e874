"""The outside suite: short texts unlike the main corpus, with international values.

The main suite's documents are long US-style forms and letters whose values come from one
Faker locale (en_US) and curated pools; a model tuned on them can score well there and still
answer from memory on anything else. This generator is separate on purpose: its own text
styles (text messages, e-mails, requests to a chat assistant, short forms, letters, in
English and French), values from many Faker locales (British, Indian, German, French,
Italian, Spanish, Portuguese, Brazilian, Dutch, Polish, Swedish, Czech, Japanese and Chinese
numbers…), dates written as people write them ("May-21", "21.05.2024", "3 mars"), and a
share of texts with nothing to find.

Templates and values are split in two halves, as in the main corpus: the `test` split is the
outside *dev set* every model change is reported on; the `train` split feeds training with
other templates and other values, so a model never trains on a dev text. The third-party
texts behind `shared/FINDINGS.md` stay out of the project entirely.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

from faker import Faker

from redacto.corpus.generate import document_seed
from redacto.corpus.markup import parse_markup
from redacto.corpus.schema import CorpusDocument, Split
from redacto.corpus.values import stable_parity
from redacto.document import Category

NAME_LOCALES = (
    "en_GB",
    "en_IN",
    "en_AU",
    "en_IE",
    "de_DE",
    "de_AT",
    "fr_FR",
    "fr_CA",
    "it_IT",
    "es_ES",
    "pt_PT",
    "pt_BR",
    "nl_NL",
    "pl_PL",
    "sv_SE",
    "da_DK",
    "cs_CZ",
    "tr_TR",
)
PHONE_LOCALES = (*NAME_LOCALES, "ja_JP", "zh_CN")
NATIONAL_ID_LOCALES = ("en_GB", "fr_FR", "it_IT", "nl_NL", "pt_BR", "de_AT")
"""Locales whose national ID Faker makes without reading the clock: Swedish and Polish IDs
are drawn relative to today, so a committed suite would change from one day to the next
(the Austrian one is given a seeded birth date)."""
FRENCH_MONTHS = (
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
)
EMAIL_DOMAINS = ("gmx.de", "orange.fr", "libero.it", "web.de", "proton.me", "yahoo.co.uk", "qq.com")


@cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def _city(fake: Faker) -> str:
    """`fake.city()`, except that Faker's Italian city list is built from a set, so its order
    (and the pick) changes with Python's hash seed: pick from it sorted instead."""
    if fake.locales[0] == "it_IT":
        return fake.random_element(_sorted_italian_cities())
    return fake.city()


@cache
def _sorted_italian_cities() -> tuple[str, ...]:
    from faker.providers.address.it_IT import Provider

    return tuple(sorted(Provider.cities))


def _one_line(value: str) -> str:
    return ", ".join(part.strip(" ,") for part in value.splitlines() if part.strip(" ,"))


def _ascii(value: str) -> str:
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]", "", plain.lower())


@dataclass(frozen=True)
class Person:
    """An invented private person and the locale their values come from."""

    first: str
    last: str
    locale: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


class OutsideValues:
    """Invented international values for one document, from its split's half of each pool."""

    def __init__(self, seed: int, split: Split) -> None:
        self.rng = random.Random(seed)
        self.split = split
        self.today = date(2024, 1, 1) + timedelta(days=self.rng.randrange(900))

    def _fake(self, locales: tuple[str, ...], locale: str | None = None) -> Faker:
        fake = _faker(locale or self.rng.choice(locales))
        fake.seed_instance(self.rng.randrange(2**32))
        return fake

    def _own(self, make: Callable[[], str]) -> str:
        """A value from this split's half (by a stable parity), so dev and train never share one."""
        for _ in range(200):
            value = make()
            if stable_parity(value) == (0 if self.split == "train" else 1):
                return value
        raise RuntimeError("value pool exhausted for this split")

    def person(self, locale: str | None = None) -> Person:
        fake = self._fake(NAME_LOCALES, locale)
        first = self._own(fake.first_name)
        return Person(first, self._own(fake.last_name), fake.locales[0])

    def street(self, person: Person | None = None) -> str:
        fake = self._fake(NAME_LOCALES, person.locale if person else None)
        return self._own(lambda: _one_line(fake.street_address()))

    def postcode_city(self, person: Person | None = None) -> str:
        fake = self._fake(NAME_LOCALES, person.locale if person else None)
        return self._own(lambda: f"{fake.postcode()} {_city(fake)}")

    def address(self, person: Person | None = None) -> str:
        return f"{self.street(person)}, {self.postcode_city(person)}"

    def city(self) -> str:
        return _city(self._fake(NAME_LOCALES))

    def company(self) -> str:
        return _one_line(self._fake(NAME_LOCALES).company())

    def phone(self, locale: str | None = None) -> str:
        return self._own(self._fake(PHONE_LOCALES, locale).phone_number)

    def email(self, person: Person | None = None) -> str:
        who = person or self.person()
        local = self.rng.choice(
            (
                f"{_ascii(who.first)}.{_ascii(who.last)}",
                f"{_ascii(who.first)[:1]}{_ascii(who.last)}{self.rng.randrange(10, 99)}",
                f"{_ascii(who.last)}{self.rng.randrange(1960, 2005)}",
            )
        )
        return f"{local}@{self.rng.choice(EMAIL_DOMAINS)}"

    def national_id(self) -> str:
        fake = self._fake(NATIONAL_ID_LOCALES)
        if fake.locales[0] == "de_AT":
            # Its provider takes a birth date (the typing stubs do not say so).
            born = self._day(self.rng.randrange(18, 80))
            return self._own(lambda: str(fake.format("ssn", birthdate=born)))
        return self._own(fake.ssn)

    def iban(self) -> str:
        return self._own(self._fake(NAME_LOCALES).iban)

    def card(self) -> str:
        return self._own(lambda: self._fake(("en_GB",)).credit_card_number())

    def passport(self) -> str:
        return self._own(self._fake(NAME_LOCALES).passport_number)

    def plate(self) -> str:
        return self._own(self._fake(NAME_LOCALES).license_plate)

    def password(self) -> str:
        return self._own(lambda: self._fake(("en_GB",)).password(length=self.rng.randrange(8, 13)))

    def pin(self) -> str:
        return self._own(lambda: f"{self.rng.randrange(10000):04d}")

    def amount(self) -> str:
        value = self.rng.randrange(5, 3000)
        return self.rng.choice((f"€{value}", f"£{value}", f"{value} EUR", f"{value},00 €"))

    def time(self) -> str:
        return f"{self.rng.randrange(7, 21)}:{self.rng.choice(('00', '15', '30', '45'))}"

    def _day(self, past_years: int) -> date:
        if not past_years:
            return self.today + timedelta(days=self.rng.randrange(-60, 30))
        return self.today - timedelta(days=365 * past_years + self.rng.randrange(365))

    def date_en(self, past_years: int = 0) -> str:
        """A date as English text writes it, in one of many shapes ("May-21", "21.05.2024")."""

        def make() -> str:
            d = self._day(past_years)
            return self.rng.choice(
                (
                    f"{d:%b}-{d.day}",
                    f"{d.day} {d:%B}",
                    f"{d.day:02d}.{d.month:02d}.{d.year}",
                    f"{d.day:02d}/{d.month:02d}/{d.year}",
                    f"{d:%Y-%m-%d}",
                    f"{d:%B} {d.day}, {d.year}",
                    f"{d.day} {d:%b} {d.year}",
                )
            )

        return self._own(make)

    def date_fr(self, past_years: int = 0) -> str:
        """A date as French text writes it ("3 mars", "03/03/2024")."""

        def make() -> str:
            d = self._day(past_years)
            month = FRENCH_MONTHS[d.month - 1]
            numeric = f"{d.day:02d}/{d.month:02d}/{d.year}"
            return self.rng.choice((f"{d.day} {month}", f"{d.day} {month} {d.year}", numeric))

        return self._own(make)

    def birth_date(self, french: bool = False) -> str:
        years = self.rng.randrange(18, 80)
        return self.date_fr(years) if french else self.date_en(years)


Writer = Callable[[OutsideValues], str]


@dataclass(frozen=True)
class OutsideTemplate:
    """One text style of the outside suite, used by one split only."""

    name: str
    category: Category
    document_type: str
    split: Split
    write: Writer


_TEMPLATES: list[OutsideTemplate] = []


def outside_template(
    name: str, category: Category, document_type: str, split: Split
) -> Callable[[Writer], Writer]:
    """Register a writer as an outside-suite template."""

    def register(write: Writer) -> Writer:
        if any(existing.name == name for existing in _TEMPLATES):
            raise ValueError(f"outside template {name!r} registered twice")
        _TEMPLATES.append(OutsideTemplate(name, category, document_type, split, write))
        return write

    return register


def outside_templates(split: Split | None = None) -> tuple[OutsideTemplate, ...]:
    """The outside suite's templates (of one split), in registration order."""
    from redacto.corpus.templates import outside  # noqa: F401  (importing registers them)

    return tuple(t for t in _TEMPLATES if split is None or t.split == split)


def generate_outside_suite(name: str, seed: int, train: int, test: int) -> list[CorpusDocument]:
    """`train` and `test` documents, templates taken in turn, values seeded per document."""
    documents: list[CorpusDocument] = []
    sizes: tuple[tuple[Split, int], ...] = (("train", train), ("test", test))
    for split, count in sizes:
        templates = outside_templates(split)
        for number in range(count):
            template = templates[number % len(templates)]
            values = OutsideValues(document_seed(seed, name, split, number), split)
            text, pii, preserve = parse_markup(template.write(values))
            documents.append(
                CorpusDocument(
                    id=f"{name}-{split}-{number:03d}",
                    category=template.category,
                    document_type=template.document_type,
                    split=split,
                    template=template.name,
                    text=text,
                    pii=pii,
                    preserve=preserve,
                )
            )
    return documents
