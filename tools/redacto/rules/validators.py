"""Checksums and range checks that turn a pattern's candidate into a verified identifier.

A validator takes the text a pattern matched and returns the part of it that is a valid
identifier — the whole candidate, a prefix of it (an IBAN followed by a word the pattern
swallowed), or None. Returning a prefix keeps the match's start fixed, so the caller only
moves its end. Validators are named in `recognizers.yaml`; the Kotlin port implements the
same names with the same rules (see `tests/vectors/rules/README.md`). Word lists a validator
judges by (`personal_url`'s hosts and path words) live in the YAML as well, as its
recognizer's `lists:`, so the two languages read one copy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import date
from functools import partial
from urllib.parse import urlsplit

Validator = Callable[[str], str | None]
ListValidator = Callable[[Mapping[str, Sequence[str]]], Validator]

_NON_DIGIT = re.compile(r"[^0-9]")
_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_A_LEAP_YEAR = 2000


def digits_of(text: str) -> str:
    """Only the ASCII digits of `text`, in order."""
    return _NON_DIGIT.sub("", text)


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check used by payment cards."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


# Issuer prefix ranges of the card networks (ISO/IEC 7812 IINs) with their card lengths. Luhn
# alone accepts one random number in ten; a real prefix and length keep reference numbers out.
_CARD_NETWORKS: tuple[tuple[int, int, int, tuple[int, ...]], ...] = (
    # (prefix length, first prefix, last prefix, valid lengths)
    (1, 4, 4, (13, 16, 19)),  # Visa
    (2, 51, 55, (16,)),  # Mastercard
    (4, 2221, 2720, (16,)),  # Mastercard 2-series
    (2, 34, 34, (15,)),  # American Express
    (2, 37, 37, (15,)),
    (3, 300, 305, (14, 16, 17, 18, 19)),  # Diners Club
    (2, 36, 36, (14, 16, 17, 18, 19)),
    (2, 38, 39, (14, 16, 17, 18, 19)),
    (4, 6011, 6011, (16, 17, 18, 19)),  # Discover
    (3, 644, 649, (16, 17, 18, 19)),
    (2, 65, 65, (16, 17, 18, 19)),
    (2, 62, 62, (16, 17, 18, 19)),  # UnionPay
    (4, 3528, 3589, (16, 17, 18, 19)),  # JCB
    (2, 50, 50, (13, 14, 15, 16, 17, 18, 19)),  # Maestro
    (2, 56, 58, (13, 14, 15, 16, 17, 18, 19)),
    (4, 6304, 6304, (13, 14, 15, 16, 17, 18, 19)),
    (4, 6759, 6759, (13, 14, 15, 16, 17, 18, 19)),
    (3, 676, 676, (13, 14, 15, 16, 17, 18, 19)),
    (1, 1, 1, (15,)),  # UATP (airline cards, e.g. AirPlus)
)


def payment_card(candidate: str) -> str | None:
    """A card network's prefix and length, and a valid Luhn check digit."""
    digits = digits_of(candidate)
    if not 13 <= len(digits) <= 19 or not luhn_valid(digits):
        return None
    for prefix_length, first, last, lengths in _CARD_NETWORKS:
        if first <= int(digits[:prefix_length]) <= last and len(digits) in lengths:
            return candidate
    return None


# Total IBAN length per country (SWIFT IBAN registry).
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22,
    "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip


def iban_mod97_valid(compact: str) -> bool:
    """ISO 13616: move the first four characters to the end, letters to 10..35, mod 97 == 1."""
    rearranged = compact[4:] + compact[:4]
    remainder = 0
    for char in rearranged:
        value = int(char) if char.isdigit() else ord(char) - ord("A") + 10
        remainder = (remainder * (100 if value > 9 else 10) + value) % 97
    return remainder == 1


def iban(candidate: str) -> str | None:
    """A known country's IBAN of exactly its registered length with a valid mod-97 check.

    The pattern may run on into a following upper-case word or number group; the country's
    length says where the IBAN ends, so the candidate is cut there before the check. Spaces
    and dashes between the groups (`AL47-2121-...`) do not count. Letters are read in either
    case (`de89 3704 …`), as a bank reads them.
    """
    length = IBAN_LENGTHS.get(candidate[:2].upper())
    if length is None:
        return None
    taken = 0
    for end, char in enumerate(candidate, start=1):
        if char not in " -":
            taken += 1
        if taken == length:
            prefix = candidate[:end]
            compact = prefix.replace(" ", "").replace("-", "").upper()
            return prefix if iban_mod97_valid(compact) else None
    return None


def us_ssn(candidate: str) -> str | None:
    """An SSN outside the never-issued ranges: area 000, 666, 900–999; group 00; serial 0000."""
    digits = digits_of(candidate)
    if len(digits) != 9:
        return None
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return None
    return candidate


# The groups (4th and 5th digits) the IRS issues ITINs in.
_ITIN_GROUPS = (range(50, 66), range(70, 89), range(90, 93), range(94, 100))


def _is_itin(digits: str) -> bool:
    """Whether nine digits have an ITIN's area (9xx) and one of its groups."""
    return digits[0] == "9" and any(int(digits[3:5]) in groups for groups in _ITIN_GROUPS)


def itin(candidate: str) -> str | None:
    """A US ITIN: nine digits, area 9xx, group in the ranges the IRS issues (50–65, 70–88,
    90–92, 94–99). The shape alone is distinctive enough to need no context word."""
    digits = digits_of(candidate)
    return candidate if len(digits) == 9 and _is_itin(digits) else None


def taxpayer_number(candidate: str) -> str | None:
    """Nine digits next to a tax word: an SSN, EIN or ITIN. One with a 9xx area is an ITIN
    only in the ITIN groups; any other 9xx number is left to `not_itin` (label ID)."""
    digits = digits_of(candidate)
    if len(digits) != 9 or (digits[0] == "9" and not _is_itin(digits)):
        return None
    return identifier(candidate)


def not_itin(candidate: str) -> str | None:
    """Nine digits with a 9xx area outside the ITIN groups: neither SSN (9xx is never issued)
    nor ITIN, yet written where a taxpayer number goes."""
    digits = digits_of(candidate)
    if len(digits) != 9 or digits[0] != "9" or _is_itin(digits):
        return None
    return candidate


def aba_routing(candidate: str) -> str | None:
    """A US bank routing number: 9 digits, weights 3-7-1 sum to a multiple of ten."""
    digits = digits_of(candidate)
    if len(digits) != 9 or digits == "000000000":
        return None
    weights = (3, 7, 1) * 3
    total = sum(int(d) * w for d, w in zip(digits, weights, strict=True))
    return candidate if total % 10 == 0 else None


def phone(candidate: str) -> str | None:
    """7–15 digits (E.164's maximum), not one digit repeated (000-000-0000 is filler)."""
    digits = digits_of(candidate)
    if not 7 <= len(digits) <= 15 or len(set(digits)) == 1:
        return None
    return candidate


_DATE_SHAPE = re.compile(r"([0-9]{1,2}|[0-9]{4})-[0-9]{1,2}-([0-9]{2}|[0-9]{4})", re.ASCII)


def identifier(candidate: str) -> str | None:
    """A record/account/member number: 5–20 characters holding at least 4 digits, and not
    a valid dashed date (an "Account opened 2024-03-05" is a date, not a number).
    """
    compact = candidate.replace(" ", "").replace("-", "")
    if not 5 <= len(compact) <= 20 or len(digits_of(compact)) < 4:
        return None
    if _DATE_SHAPE.fullmatch(candidate) and (numeric_date(candidate) or iso_date(candidate)):
        return None
    return candidate


def licence_plate(candidate: str) -> str | None:
    """4–8 capitals and digits (a dash or space aside) holding both: a plate, not a word
    or a number."""
    compact = candidate.replace(" ", "").replace("-", "")
    if not 4 <= len(compact) <= 8 or not digits_of(compact):
        return None
    return candidate if any("A" <= c <= "Z" for c in compact) else None


def email(candidate: str) -> str | None:
    """The local part may not start or end with a dot, nor hold two dots in a row."""
    local = candidate.split("@", 1)[0].rstrip(" ")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return None
    return candidate


def _valid_day(year: int | None, month: int, day: int) -> bool:
    """A day the calendar has; without a year, February 29 counts (leap years have it)."""
    try:
        date(_A_LEAP_YEAR if year is None else year, month, day)
    except ValueError:
        return False
    return True


def _full_year(year_text: str) -> int:
    return int(year_text) if len(year_text) == 4 else 2000 + int(year_text)


_YEAR_RANGE = range(1850, 2151)


def numeric_date(candidate: str) -> str | None:
    """D/M/Y or M/D/Y (either reading may be valid); dots need a four-digit year."""
    parts = re.split(r"[/.-]", candidate)
    if len(parts) != 3:
        return None
    first, second, year_text = parts
    if "." in candidate and len(year_text) != 4:
        return None
    year = _full_year(year_text)
    if len(year_text) == 4 and year not in _YEAR_RANGE:
        return None
    as_month_day = _valid_day(year, int(first), int(second))
    as_day_month = _valid_day(year, int(second), int(first))
    return candidate if as_month_day or as_day_month else None


_ISO_TIME = re.compile(
    r"T([0-9]{2}):?([0-9]{2})(?::?([0-9]{2}))?(?:[.,][0-9]+)?(Z|[+-]([0-9]{2})(?::?([0-9]{2}))?)?",
    re.ASCII,
)


def _valid_time(time_text: str) -> bool:
    """An ISO-8601 time of day `THH:MM[:SS][.fff][Z|±HH[:MM]]` that exists on a clock."""
    found = _ISO_TIME.fullmatch(time_text)
    if found is None:
        return False
    hour, minute, second, _, zone_hour, zone_minute = found.groups()
    return (
        int(hour) <= 23
        and int(minute) <= 59
        and int(second or 0) <= 60  # a leap second
        and int(zone_hour or 0) <= 14
        and int(zone_minute or 0) <= 59
    )


def iso_date(candidate: str) -> str | None:
    """Y-M-D with a four-digit year, and an ISO-8601 time after a `T` when there is one
    (`2024-03-15T14:30:00Z`). A time that no clock shows leaves the date alone."""
    date_text, separator, time_text = candidate.partition("T")
    year_text, month, day = re.split(r"[/.-]", date_text)
    year = int(year_text)
    if year not in _YEAR_RANGE or not _valid_day(year, int(month), int(day)):
        return None
    return candidate if not separator or _valid_time(separator + time_text) else date_text


def month_year(candidate: str) -> str | None:
    """A numeric month and four-digit year, `M/YYYY` or `MM/YYYY`: month 1–12, year 1850–2150."""
    month, year = candidate.split("/")
    return candidate if 1 <= int(month) <= 12 and int(year) in _YEAR_RANGE else None


_MONTH_WORD = re.compile(r"[A-Za-z]{3}")
_NUMBER = re.compile(r"[0-9]+")


def month_name_date(candidate: str) -> str | None:
    """A date with the month spelled out: the day (if any) must exist in that month.

    A lone number is a day when it has at most two digits, a year when it has four.
    """
    month_match = _MONTH_WORD.search(candidate)
    if month_match is None:
        return None
    month = _MONTHS.get(month_match.group(0).lower())
    if month is None:
        return None
    numbers = _NUMBER.findall(candidate)
    day = next((int(n) for n in numbers if len(n) <= 2), None)
    year_text = next((n for n in numbers if len(n) == 4), None)
    year = int(year_text) if year_text else None
    if year is not None and year not in _YEAR_RANGE:
        return None
    if day is None:
        return candidate if year is not None else None
    return candidate if _valid_day(year, month, day) else None


def _split_prefix_length(candidate: str, most: int) -> tuple[str, bool]:
    """The address of a candidate that may end in a CIDR prefix length (`10.1.0.0/16`), and
    whether that suffix is a real one (at most `most` bits); no suffix counts as real."""
    address, slash, length = candidate.partition("/")
    return address, not slash or (length.isascii() and length.isdigit() and int(length) <= most)


def _ipv4_address(address: str) -> bool:
    """Four octets 0–255 without leading zeros, not 0.x (unspecified) or 127.x (loopback)."""
    octets = address.split(".")
    if len(octets) != 4 or not all(o.isascii() and o.isdigit() for o in octets):
        return False
    if any(len(o) > 1 and o[0] == "0" for o in octets):
        return False
    values = [int(o) for o in octets]
    return not (any(v > 255 for v in values) or values[0] in (0, 127))


def ipv4(candidate: str) -> str | None:
    """Four octets 0–255, not the unspecified address 0.0.0.0 or loopback 127.x. A CIDR
    suffix (`/24`, at most 32) belongs to the address; after a larger one, only the address
    is taken."""
    address, real_suffix = _split_prefix_length(candidate, 32)
    if not _ipv4_address(address):
        return None
    return candidate if real_suffix else address


_HEX_GROUP = re.compile(r"[0-9A-Fa-f]{1,4}")


def ipv6(candidate: str) -> str | None:
    """Eight hex groups, or fewer with one `::`; an IPv4 tail counts as two groups.

    Loopback (::1) and the unspecified address (::) identify no one and are rejected; so is
    anything with fewer than three groups, which keeps times and ratios out. A CIDR suffix
    (`/64`, at most 128) belongs to the address; after a larger one, only the address is taken.
    """
    address, real_suffix = _split_prefix_length(candidate, 128)
    if address.count("::") > 1:
        return None
    parts = [part for half in address.split("::") if half for part in half.split(":")]
    if any(part == "" for part in parts):
        return None
    count = 0
    for position, group in enumerate(parts):
        if "." in group:
            if position != len(parts) - 1 or not _ipv4_address(group):
                return None
            count += 2
        elif _HEX_GROUP.fullmatch(group):
            count += 1
        else:
            return None
    compressed = "::" in address
    if count > 8 or (not compressed and count != 8) or (compressed and count > 7):
        return None
    if count < 3:
        return None
    return candidate if real_suffix else address


@dataclass(frozen=True)
class PersonalUrlLists:
    """The words `personal_url` judges a URL by, kept in recognizers.yaml (the `lists:` of
    the `personal_url` recognizer) so that Python and Kotlin read one copy."""

    profile_hosts: frozenset[str]
    """Hosts where the first path segment is a person's profile or handle."""
    non_profile_paths: frozenset[str]
    """First path segments on those hosts that are the site's own pages (`/about`)."""
    personal_segments: frozenset[str]
    """Path segments that, with another after them, name a person (`/users/bob`)."""
    personal_query_keys: frozenset[str]
    """Query keys whose value reaches a person (`?email=...`)."""

    @classmethod
    def from_lists(cls, lists: Mapping[str, Sequence[str]]) -> PersonalUrlLists:
        """From the YAML's lists, lower-cased as the URL's parts are; ValueError when a
        list is missing or unknown."""
        wanted = {field.name for field in fields(cls)}
        if set(lists) != wanted:
            raise ValueError(f"personal_url reads the lists {sorted(wanted)}, got {sorted(lists)}")
        return cls(**{name: frozenset(word.lower() for word in lists[name]) for name in wanted})


_URL_TRAILING_PUNCTUATION = ".,;:!?)]}'\""


def personal_url(candidate: str, lists: PersonalUrlLists) -> str | None:
    """A URL that points at a person: a profile on a social host, a `~user` or `/users/x`
    path, or a query carrying an email, user or name. Institutions' own pages are kept.
    """
    url = candidate.rstrip(_URL_TRAILING_PUNCTUATION)
    try:
        parsed = urlsplit(url if "://" in url else "https://" + url)
    except ValueError:  # e.g. an unbalanced "[" in the host: not a URL we can judge
        return None
    host = (parsed.hostname or "").lower().removeprefix("www.").removeprefix("m.")
    segments = [s for s in parsed.path.split("/") if s]
    if (
        host in lists.profile_hosts
        and segments
        and segments[0].lower() not in lists.non_profile_paths
    ):
        return url
    if any(s.startswith("~") and len(s) > 1 for s in segments):
        return url
    for position, segment in enumerate(segments[:-1]):
        if segment.lower() in lists.personal_segments and segments[position + 1]:
            return url
    keys = {pair.split("=", 1)[0].lower() for pair in parsed.query.split("&") if "=" in pair}
    if keys & lists.personal_query_keys:
        return url
    return None


VALIDATORS: dict[str, Validator] = {
    "payment_card": payment_card,
    "iban": iban,
    "us_ssn": us_ssn,
    "itin": itin,
    "taxpayer_number": taxpayer_number,
    "not_itin": not_itin,
    "aba_routing": aba_routing,
    "phone": phone,
    "identifier": identifier,
    "licence_plate": licence_plate,
    "email": email,
    "numeric_date": numeric_date,
    "iso_date": iso_date,
    "month_year": month_year,
    "month_name_date": month_name_date,
    "ipv4": ipv4,
    "ipv6": ipv6,
}
"""The validators a recognizer may name, by the name it uses in `recognizers.yaml`; those
that read word lists are in `LIST_VALIDATORS`."""

LIST_VALIDATORS: dict[str, ListValidator] = {
    "personal_url": lambda lists: partial(personal_url, lists=PersonalUrlLists.from_lists(lists)),
}
"""Validators that judge by word lists kept in the YAML: each is built from its recognizer's
`lists:` (ValueError when one is missing or unknown)."""
