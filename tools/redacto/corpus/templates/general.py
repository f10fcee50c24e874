"""General: everything that identifies a private person goes; when unsure, redact.

Gold decisions: every full date (a letter's date included) is DATE; only company and
institution names and amounts are preserved.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

GENERAL = Category.GENERAL

SKILLS = (
    "Python and SQL",
    "forklift certification",
    "bilingual English/Spanish",
    "project scheduling",
    "customer support",
    "bookkeeping",
    "CAD drafting",
    "first aid and CPR",
)
CLUBS = (
    "Riverside Garden Club",
    "Northside Running Club",
    "Oak Street Book Circle",
    "Harbor Chess Society",
    "Lakeview Choir",
    "Hilltop Cycling Group",
)


@template("general.personal_letter", GENERAL, "Personal Letter", "single", "train")
def personal_letter(v: Values) -> str:
    writer, friend, neighbor = v.person(), v.person(), v.first_name()
    return f"""
        {pii("ADDRESS", v.street())}
        {pii("ADDRESS", v.city_line())}
        {pii("DATE", v.fmt(v.today))}

        Dear {pii("NAME", friend.first)},
        It was lovely to see you at the reunion. I finally moved into the new place, and my neighbor {pii("NAME", neighbor)} has already invited us for dinner. Work at {keep("institution", v.company())} is busy, but I got the raise, so an extra {keep("amount", v.amount(200, 600))} a month helps with the rent.
        My new number is {pii("PHONE", v.phone())} and my email is {pii("EMAIL", v.email(writer))}. Mom's birthday is {pii("DATE", v.fmt(v.birth_date(50, 85)))}; let's plan something together.

        Love,
        {pii("NAME", writer.first)}
    """


@template("general.resume", GENERAL, "Resume", "two_column", "train")
def resume(v: Values) -> str:
    person = v.person()
    employer, previous = v.company(), v.company()
    return f"""
        {pii("NAME", person.full.upper())}
        {pii("ADDRESS", v.city_line())} | {pii("PHONE", v.phone())} | {pii("EMAIL", v.email(person))}

        EXPERIENCE
        Operations Coordinator, {keep("institution", employer)} ({keep("year", str(v.today.year - 3))} to present). Scheduled crews of 12, cut overtime by a fifth, managed a budget of {keep("amount", v.amount(90000, 400000))}.
        Assistant Manager, {keep("institution", previous)} ({keep("year", str(v.today.year - 7))} to {keep("year", str(v.today.year - 3))}). Trained new staff and handled vendor accounts.
        SKILLS
        {", ".join(v.sample(SKILLS, 3))}.
        EDUCATION
        B.S. Business Administration, {keep("institution", f"{v.fake.state()} State University")}.
        REFERENCES
        {pii("NAME", v.person().full)}, former supervisor, {pii("PHONE", v.phone())}.
    """


@template("general.membership_form", GENERAL, "Membership Form", "form", "train")
def membership_form(v: Values) -> str:
    member, child = v.person(), v.first_name()
    return f"""
        {v.pick(CLUBS)} - Membership Form

        Name:\t{pii("NAME", member.full)}
        Date of birth:\t{pii("DATE", v.fmt(v.birth_date()))}
        Street:\t{pii("ADDRESS", v.street())}
        City / ZIP:\t{pii("ADDRESS", v.city_line())}
        Phone:\t{pii("PHONE", v.phone())}
        Email:\t{pii("EMAIL", v.email(member))}
        Family members:\t{pii("NAME", child)} (age {v.rng.randrange(5, 17)})
        Annual dues:\t{keep("amount", v.amount(25, 120))}
        Card on file:\t{pii("CARD", v.card_number())}

        Signed {pii("DATE", v.fmt(v.today))}. Members agree to the club rules and the photo policy. Dues renew automatically each year unless cancelled in writing. Please tell us if your contact details change.
    """


@template("general.signup_sheet", GENERAL, "Sign-up Sheet", "table", "test")
def signup_sheet(v: Values) -> str:
    rows = []
    for _ in range(4):
        person = v.person()
        rows.append(
            f"{pii('NAME', person.full)}\t{pii('PHONE', v.phone())}\t{pii('EMAIL', v.email(person))}"
        )
    body = "\n        ".join(rows)
    return f"""
        VOLUNTEER SIGN-UP
        {v.pick(CLUBS)} spring clean-up, {pii("DATE", v.fmt(v.today))}

        Name\tPhone\tEmail
        {body}

        Sponsor: {keep("institution", v.company())} donated {keep("amount", v.amount(100, 900))} for supplies. Meet at the north entrance at 9 am. Gloves, bags and water will be provided; bring sunscreen and sturdy shoes. Children under 12 must come with an adult. If it rains, we move to the following Saturday.
    """


@template("general.newsletter", GENERAL, "Community Newsletter", "two_column", "test")
def newsletter(v: Values) -> str:
    host, winner, newcomer = v.person(), v.person(), v.person()
    return f"""
        {v.pick(CLUBS).upper()} NEWS
        Issue {v.rng.randrange(10, 90)}

        Welcome to our new member {pii("NAME", newcomer.full)}, who just moved to {pii("ADDRESS", v.street())}. Say hello at the next meeting!
        Congratulations to {pii("NAME", winner.full)} for winning the raffle, a gift card worth {keep("amount", v.amount(50, 250))} from {keep("institution", v.company())}.
        The summer picnic will be hosted by {pii("NAME", host.full)} on {pii("DATE", v.fmt(v.recent_date(5)))}. RSVP to {pii("EMAIL", v.email(host))} or call {pii("PHONE", v.phone())}.
        Dues went up to {keep("amount", v.amount(30, 90))} this year to cover the hall rental. Thanks to everyone who helped at the bake sale: we raised {keep("amount", v.amount(300, 1500))}.
        Remember: do not share members' home addresses outside the club.
    """
