"""Measurements the residual check reads as such: a dose, a reading, a length of time.

A number with a unit of measure (`500 mg`, `37.5°C`, `72/min`, `6 hours`) or a vital sign's
reading after its label (`BP 128/82`, `TA 12/8`, `HR 110`) is no identifier. The lists are
closed and short on purpose: every unit here is a word no one is named, and the number before
it is at most four digits (five with a decimal part), so a six-digit number, a phone number's
group or a record number never passes as a measurement. `residual` applies the guards that
need the surrounding tokens (a line's edge, a number sign or field label before).
"""

from __future__ import annotations

import re

UNITS = frozenset(
    {
        # mass, volume, dose
        "mg",
        "mcg",
        "µg",
        "μg",
        "kg",
        "ml",
        "dl",
        "cl",
        "iu",
        "ui",
        "unit",
        "units",
        "unité",
        "unités",
        "mmol",
        "lb",
        "lbs",
        # pressure, rate
        "mmhg",
        "cmhg",
        "bpm",
        # length
        "mm",
        "cm",
        "km",
        # temperature
        "°",
        "°c",
        "°f",
        # time
        "hr",
        "hrs",
        "hour",
        "hours",
        "heure",
        "heures",
        "min",
        "mins",
        "minute",
        "minutes",
        "day",
        "days",
        "jour",
        "jours",
        "week",
        "weeks",
        "semaine",
        "semaines",
        "month",
        "months",
        "mois",
        "year",
        "years",
        "ans",
        "année",
        "années",
    }
)
"""Units of two letters or more, case-folded (`mL`, `IU`, `mmHg` are read as `ml`, `iu`,
`mmhg`)."""

ONE_LETTER_UNITS = frozenset({"g", "h", "l", "L", "m"})
"""Units of one letter, as written: a capital is an initial (`4432 M.`), but for litres."""

PER_UNITS = frozenset({"kg", "dl", "l", "h", "min", "d", "j", "day", "jour", "24h"})
"""What a unit may be per (`mg/kg`, `mg/dL`, `mL/h`, `72/min`, `2/j`), case-folded."""

PRESSURE_UNITS = frozenset({"mmhg", "cmhg"})
"""The units of a blood pressure, written after a reading (`128/82 mmHg`), case-folded."""

PRESSURE_LABELS = frozenset({"bp", "ta"})
"""Labels a blood pressure's reading follows (`BP`, French `TA`, tension artérielle)."""

RATE_LABELS = frozenset({"hr", "fc", "pulse", "pouls"})
"""Labels a heart rate of at most three digits follows (`HR`, French `FC`)."""

NUMBER_SIGNS = frozenset({"n°", "nº", "№", "num", "numéro", "numero", "ref", "réf"})
"""Words after which a number is a reference, never a measurement (case-folded; `#` and the
field labels are read as well)."""

_NUMBER = re.compile(r"\d{1,4}(?:[.,]\d{1,3})?")
_READING = re.compile(r"\d{1,3}/\d{1,3}")
_RATE = re.compile(r"\d{1,3}")


def measure_number(text: str) -> bool:
    """A measurement's number: at most four digits, a decimal part after `.` or `,`, and at
    most five digits in all (`500`, `37.5`, `0.125`, `1250.5`; not `123456`)."""
    return _NUMBER.fullmatch(text) is not None and sum(c.isdigit() for c in text) <= 5


def is_unit(text: str) -> bool:
    """A unit of the closed lists, alone or per another (`mg`, `mL/h`, `mg/dL`), or a rate
    with no unit before the slash (`/min`)."""
    unit, slash, per = text.partition("/")
    if slash and per.casefold() not in PER_UNITS:
        return False
    if not unit:
        return bool(slash)
    return unit in ONE_LETTER_UNITS if len(unit) == 1 else unit.casefold() in UNITS


def with_unit(word: str, after: str | None) -> bool:
    """A number joined to its unit (`500mg`, `72/min`, `128/82mmHg`), or a number whose next
    token, trimmed, is one (`500` before `mg`; a reading before `mmHg`)."""
    match = _NUMBER.match(word)
    if match is not None and measure_number(match.group()):
        rest = word[match.end() :]
        if rest and is_unit(rest):
            return True
        if not rest and after is not None and is_unit(after):
            return True
    reading = _READING.match(word)
    if reading is None:
        return False
    rest = word[reading.end() :]
    unit = rest if rest else (after or "")
    return unit.casefold() in PRESSURE_UNITS


def vital_reading(word: str, label: str) -> bool:
    """A vital sign's reading after its label (case-folded): a pressure `a/b` of up to three
    digits each after `bp`/`ta` (a unit joined or not), a rate of up to three digits after
    `hr`/`fc`/`pulse`/`pouls`."""
    if label in PRESSURE_LABELS:
        reading = _READING.match(word)
        if reading is not None:
            rest = word[reading.end() :]
            return not rest or rest.casefold() in PRESSURE_UNITS
    return label in RATE_LABELS and _RATE.fullmatch(word) is not None
