"""Tactical (police and incident reports): victims, witnesses, minors and suspects by name go.

Gold decisions: suspect descriptions, officer names and badge numbers, scene details and the
incident date and time are preserved (the report is useless without them); birth dates,
home addresses, phones, plates and ID numbers of the people involved are PII.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

TACTICAL = Category.TACTICAL

HEIGHTS = ("5'6\"", "5'8\"", "5'10\"", "6'0\"", "6'2\"", "5'4\"", "6'1\"", "5'11\"")
BUILDS = (
    "thin build",
    "medium build",
    "heavy build",
    "muscular build",
    "slim build",
    "stocky build",
)
CLOTHING = (
    "black hoodie and gray sweatpants",
    "red baseball cap and denim jacket",
    "green army jacket and black jeans",
    "white t-shirt and khaki shorts",
    "navy windbreaker and dark cargo pants",
    "brown leather jacket and blue jeans",
    "orange safety vest over a black shirt",
    "gray hooded parka and white sneakers",
)
MARKS = (
    "scar above the left eyebrow",
    "tattoo of a rose on the right forearm",
    "full beard",
    "shaved head",
    "limp on the right leg",
    "neck tattoo reading 'LOYAL'",
)
PLACE_TYPES = (
    "parking lot of a grocery store",
    "bus shelter",
    "convenience store",
    "apartment stairwell",
    "public park near the playground",
    "gas station forecourt",
    "alley behind a restaurant",
    "hotel lobby",
)
WEAPONS = (
    "folding knife",
    "handgun",
    "aluminum bat",
    "no weapon seen",
    "pepper spray",
    "screwdriver",
)
VEHICLES = (
    "silver Honda Civic",
    "black Ford F-150",
    "white Toyota Camry",
    "blue Nissan Altima",
    "red Kia Soul",
    "gray Chevrolet Malibu",
)


def _suspect(v: Values) -> str:
    description = f"{v.rng.choice(('male', 'female'))}, approx. {v.pick(HEIGHTS)}, {v.pick(BUILDS)}, wearing a {v.pick(CLOTHING)}, {v.pick(MARKS)}"
    return keep("suspect_description", description)


def _officer(v: Values) -> str:
    rank = v.rng.choice(("Officer", "Ofc.", "Sgt.", "Cpl.", "Det."))
    return f"{keep('officer', f'{rank} {v.person().full}')}, badge {keep('badge', v.digits(4))}"


def _incident_time(v: Values) -> str:
    return keep(
        "incident_date",
        f"{v.fmt(v.recent_date(10))} at {v.rng.randrange(0, 24):02d}:{v.rng.randrange(0, 60):02d}",
    )


@template("tactical.incident_report", TACTICAL, "Incident Report", "form", "train")
def incident_report(v: Values) -> str:
    victim, witness = v.person(), v.person()
    return f"""
        {v.city()} POLICE DEPARTMENT
        INCIDENT REPORT    Case {keep("scene", v.case_number("PD"))}

        Offense:\t{v.rng.choice(("Robbery", "Assault", "Theft from vehicle", "Burglary", "Criminal mischief"))}
        Occurred:\t{_incident_time(v)}
        Location:\t{keep("scene", v.pick(PLACE_TYPES))}
        Reporting officer:\t{_officer(v)}
        Victim:\t{pii("NAME", victim.full)}, DOB {pii("DATE", v.fmt(v.birth_date()))}
        Victim address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Victim phone:\t{pii("PHONE", v.phone())}
        Witness:\t{pii("NAME", witness.full)}, {pii("PHONE", v.phone())}

        Narrative: {pii("NAME", victim.last)} stated that a suspect approached and demanded property. Suspect: {_suspect(v)}. Weapon: {keep("scene", v.pick(WEAPONS))}. Suspect left in a {keep("scene", v.pick(VEHICLES))}. Witness {pii("NAME", witness.last)} confirmed the direction of travel.
    """


@template("tactical.witness_statement", TACTICAL, "Witness Statement", "single", "train")
def witness_statement(v: Values) -> str:
    witness, child = v.person(), v.first_name()
    return f"""
        WITNESS STATEMENT

        Name: {pii("NAME", witness.full)}    Date of birth: {pii("DATE", v.fmt(v.birth_date()))}
        Phone: {pii("PHONE", v.phone())}    Email: {pii("EMAIL", v.email(witness))}
        Taken by: {_officer(v)}
        Incident: {_incident_time(v)}

        I was walking with my son {pii("NAME", child)}, who is nine, through the {keep("scene", v.pick(PLACE_TYPES))} when I heard shouting. I saw a person I would describe as {_suspect(v)}. The person pushed a woman I later learned was {pii("NAME", v.person().full)} and grabbed her bag. Then the person ran to a {keep("scene", v.pick(VEHICLES))} with plate {pii("ID", v.plate())}. I called 911 right away.
        I am willing to testify.

        Signature: {pii("NAME", witness.full)}
    """


@template("tactical.arrest_report", TACTICAL, "Arrest Report", "letterhead", "train")
def arrest_report(v: Values) -> str:
    suspect, victim = v.person(), v.person()
    return f"""
        {v.fake.state().upper()} STATE PATROL
        Arrest Report

        Arrestee: {pii("NAME", suspect.full)}, DOB {pii("DATE", v.fmt(v.birth_date()))}
        Driver's licence: {pii("ID", v.licence())}    Vehicle plate: {pii("ID", v.plate())}
        Arresting officer: {_officer(v)}
        Date and time: {_incident_time(v)}

        Description at booking: {_suspect(v)}.
        Summary: the arrestee was stopped after a report from {pii("NAME", victim.full)} of {pii("ADDRESS", v.street())}, who said the arrestee had broken a window at the residence. A {keep("scene", v.pick(WEAPONS))} was recovered from the {keep("scene", v.pick(VEHICLES))}. Backup was provided by {_officer(v)}.
    """


@template("tactical.security_log", TACTICAL, "Security Incident Log", "table", "test")
def security_log(v: Values) -> str:
    guard, visitor, minor = v.person(), v.person(), v.first_name()
    return f"""
        {keep("institution", v.company())} Security
        Daily Incident Log

        Time\tEntry
        {v.rng.randrange(6, 10):02d}:{v.rng.randrange(60):02d}\tShift start, {keep("officer", f"Guard {guard.full}")}
        {v.rng.randrange(10, 14):02d}:{v.rng.randrange(60):02d}\tVisitor {pii("NAME", visitor.full)} badge {pii("ID", v.digits(6))} refused exit search
        {v.rng.randrange(14, 18):02d}:{v.rng.randrange(60):02d}\tLost child {pii("NAME", minor)}, age 7, reunited with mother
        {v.rng.randrange(18, 22):02d}:{v.rng.randrange(60):02d}\tShoplifting at {keep("scene", v.pick(PLACE_TYPES))}

        Shoplifting suspect: {_suspect(v)}. Police case opened by {_officer(v)} on {_incident_time(v)}. The visitor gave phone {pii("PHONE", v.phone())} and home address {pii("ADDRESS", v.street())}.
    """


@template("tactical.dispatch_notes", TACTICAL, "Dispatch Notes", "single", "test")
def dispatch_notes(v: Values) -> str:
    caller, victim = v.person(), v.person()
    return f"""
        CAD DISPATCH NOTES    Event {keep("scene", v.case_number("EV"))}

        Received: {_incident_time(v)}
        Caller: {pii("NAME", caller.full)}, callback {pii("PHONE", v.phone())}
        Location: {pii("ADDRESS", v.street())}, {keep("scene", "rear entrance")}

        Caller reports neighbor {pii("NAME", victim.first)} was hit during an argument. Aggressor described as {_suspect(v)}, armed with a {keep("scene", v.pick(WEAPONS))}. Victim {pii("NAME", victim.full)}, age {v.rng.randrange(20, 70)}, conscious. EMS staged. Units assigned: {_officer(v)}; {_officer(v)}.
        Suspect vehicle {keep("scene", v.pick(VEHICLES))}, plate {pii("ID", v.plate())}.
    """
