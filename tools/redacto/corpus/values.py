"""Invented values for the templates: Faker for people and places, curated pools for the rest.

Every value pool is split in two halves, one for `train` and one for `test`, so a model
fine-tuned on `train` is never scored on a name, street or diagnosis it has seen. The hard
suite is hand-written and does not use this module. No value belongs to a real person.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import TypeVar

from faker import Faker

from redacto.corpus.schema import Split

T = TypeVar("T")

DATE_STYLES = ("%m/%d/%Y", "%B %d, %Y", "%Y-%m-%d", "%d %b %Y", "%m-%d-%Y")
TOLL_FREE_PREFIXES = ("800", "888", "877", "866", "855", "844", "833")
# Area codes and exchanges picked so no invented number is a toll-free one.
AREA_CODES = ("206", "312", "415", "503", "512", "602", "614", "704", "720", "919", "971", "313")


@dataclass(frozen=True)
class Person:
    """An invented private person."""

    first: str
    last: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@cache
def _shared_faker() -> Faker:
    # Building a Faker costs ~20 ms; reseeding one instance per document is as deterministic.
    return Faker("en_US")


def stable_parity(value: str) -> int:
    """0 or 1, the same on every machine and Python run (unlike `hash`)."""
    return zlib.crc32(value.encode("utf-8")) % 2


class Values:
    """A per-document source of invented values, deterministic from its seed."""

    def __init__(self, seed: int, split: Split) -> None:
        self.rng = random.Random(seed)
        self.fake = _shared_faker()
        self.fake.seed_instance(seed)
        self.split = split
        self.date_style = self.rng.choice(DATE_STYLES)
        self.today = date(2025, 1, 1) + timedelta(days=self.rng.randrange(600))

    # -- choice helpers ------------------------------------------------------------------

    def _own_half(self, value: str) -> bool:
        if self.split == "hard":
            return True
        return stable_parity(value) == (0 if self.split == "train" else 1)

    def pick(self, pool: Sequence[T]) -> T:
        """One item from this split's half of a curated pool (even indices train, odd test)."""
        if self.split == "hard":
            return self.rng.choice(pool)
        offset = 0 if self.split == "train" else 1
        return self.rng.choice(pool[offset::2])

    def sample(self, pool: Sequence[T], count: int) -> list[T]:
        """Distinct items from this split's half of a pool."""
        offset = 0 if self.split == "train" else 1
        half = pool if self.split == "hard" else pool[offset::2]
        return self.rng.sample(list(half), min(count, len(half)))

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def _faker_value(self, make: Callable[[], str]) -> str:
        for _ in range(200):
            value = make()
            if self._own_half(value):
                return value
        raise RuntimeError("value pool exhausted for this split")

    def digits(self, count: int) -> str:
        return "".join(str(self.rng.randrange(10)) for _ in range(count))

    # -- people and places ---------------------------------------------------------------

    def first_name(self) -> str:
        return self._faker_value(self.fake.first_name)

    def last_name(self) -> str:
        return self._faker_value(self.fake.last_name)

    def person(self) -> Person:
        return Person(self.first_name(), self.last_name())

    def street(self) -> str:
        return self._faker_value(self.fake.street_address)

    def city(self) -> str:
        return self._faker_value(self.fake.city)

    def city_line(self) -> str:
        return f"{self.city()}, {self.fake.state_abbr()} {self.fake.zipcode()}"

    def company(self) -> str:
        return self._faker_value(self.fake.company)

    def email(self, person: Person | None = None) -> str:
        domain = self.rng.choice(("gmail.com", "yahoo.com", "outlook.com", "icloud.com"))
        if person is None:
            return f"{self.fake.user_name()}@{domain}"
        style = self.rng.randrange(3)
        local = (
            f"{person.first}.{person.last}",
            f"{person.first[0]}{person.last}{self.digits(2)}",
            f"{person.last}_{person.first}",
        )[style]
        cleaned = local.lower().replace(" ", "").replace("'", "")
        return f"{cleaned}@{domain}"

    def phone(self) -> str:
        area = self.rng.choice(AREA_CODES)
        exchange = f"{self.rng.randrange(2, 10)}{self.digits(2)}"
        line = self.digits(4)
        return self.rng.choice(
            (
                f"({area}) {exchange}-{line}",
                f"{area}-{exchange}-{line}",
                f"{area}.{exchange}.{line}",
            )
        )

    def toll_free(self) -> str:
        prefix = self.rng.choice(TOLL_FREE_PREFIXES)
        return f"1-{prefix}-{self.rng.randrange(200, 999)}-{self.digits(4)}"

    # -- dates ---------------------------------------------------------------------------

    def fmt(self, day: date) -> str:
        return day.strftime(self.date_style).replace(" 0", " ")

    def birth_date(self, min_age: int = 18, max_age: int = 90) -> date:
        return self.today - timedelta(days=self.rng.randrange(min_age * 365, max_age * 365))

    def recent_date(self, max_days_ago: int = 60) -> date:
        return self.today - timedelta(days=self.rng.randrange(0, max_days_ago))

    # -- identifiers ---------------------------------------------------------------------

    def mrn(self) -> str:
        return self.rng.choice(
            (self.digits(7), f"MRN-{self.digits(6)}", f"{self.digits(3)}-{self.digits(4)}")
        )

    def account_number(self) -> str:
        return self.rng.choice(
            (self.digits(10), f"{self.digits(4)}-{self.digits(6)}", self.digits(12))
        )

    def routing_number(self) -> str:
        """A routing number with a valid ABA check digit, as every real one has.

        The last random digit is drawn and then replaced by the check digit, so the random
        stream (and every other value of the corpus) is the same as before the fix.
        """
        drawn = self.rng.choice(("0", "1", "2")) + self.digits(8)
        weights = (3, 7, 1) * 3
        weighted = sum(int(digit) * weight for digit, weight in zip(drawn, weights, strict=True))
        check = (10 - (weighted - int(drawn[-1])) % 10) % 10
        return drawn[:-1] + str(check)

    def card_number(self) -> str:
        groups = [self.rng.choice(("4", "5")) + self.digits(3)] + [self.digits(4) for _ in range(3)]
        return " ".join(groups)

    def ssn(self) -> str:
        return f"{self.rng.randrange(100, 899)}-{self.digits(2)}-{self.digits(4)}"

    def ein(self) -> str:
        return f"{self.digits(2)}-{self.digits(7)}"

    def plate(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
        return self.rng.choice(
            (f"{letters}-{self.digits(4)}", f"{self.digits(1)}{letters}{self.digits(3)}")
        )

    def licence(self) -> str:
        return f"{self.rng.choice('ABDFGHKMSTW')}{self.digits(7)}"

    def member_id(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
        return f"{letters}{self.digits(9)}"

    def code(self, length: int = 4) -> str:
        return self.digits(length)

    def case_number(self, prefix: str) -> str:
        return f"{prefix}-{self.today.year % 100:02d}-{self.digits(5)}"

    def serial(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2))
        return f"{letters}{self.digits(8)}"

    def amount(self, low: float, high: float) -> str:
        cents = self.rng.randrange(int(low * 100), int(high * 100))
        return f"${cents / 100:,.2f}"
