"""Field Service: the customer's PII and security credentials go.

Gold decisions: equipment make, model and serial numbers, fault codes, readings, parts,
technician names and visit dates are preserved (Field Service has no DATE label); gate,
door, lockbox and alarm codes, PINs and Wi-Fi passwords are CREDENTIAL.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

FIELD_SERVICE = Category.FIELD_SERVICE

EQUIPMENT = (
    "Carrier 24ACC636 condenser",
    "Trane XR14 heat pump",
    "Rheem PROG50 water heater",
    "Lennox EL296V furnace",
    "Generac Guardian 22kW generator",
    "Goodman GSX14 air conditioner",
    "Bosch SHE53 dishwasher",
    "Whirlpool WRF555 refrigerator",
    "Navien NPE-240A tankless heater",
    "Daikin DZ16 heat pump",
    "Mitsubishi MXZ-3C mini split",
    "Honeywell Vista-20P alarm panel",
)
FAULT_CODES = (
    "E4",
    "F0-2",
    "LPS lockout",
    "code 33",
    "E24",
    "3 flashes",
    "HI-PRESS",
    "CH05",
    "E-03",
    "P4",
)
PARTS = (
    "capacitor 45/5 uF",
    "igniter",
    "condensate pump",
    "flame sensor",
    "contactor 40A",
    "thermocouple",
    "inducer motor",
    "pressure switch",
    "door gasket",
    "control board",
)
READINGS = (
    "suction 118 psi",
    "supply air 56 F",
    "static pressure 0.6 in. w.c.",
    "amp draw 14.2 A",
    "line voltage 238 V",
    "superheat 9 F",
    "outlet temp 122 F",
    "CO 4 ppm",
)


def _technician(v: Values) -> str:
    return keep("technician", v.person().full)


def _equipment(v: Values) -> str:
    return f"{keep('equipment', v.pick(EQUIPMENT))}, serial {keep('serial', v.serial())}"


@template("field_service.work_order", FIELD_SERVICE, "Work Order", "form", "train")
def work_order(v: Values) -> str:
    customer = v.person()
    return f"""
        {keep("institution", v.company())} Heating & Cooling
        WORK ORDER no. {v.digits(6)}

        Customer:\t{pii("NAME", customer.full)}
        Service address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Phone:\t{pii("PHONE", v.phone())}
        Account:\t{pii("ACCOUNT", v.account_number())}
        Gate code:\t{pii("CREDENTIAL", "#" + v.code(4))}
        Technician:\t{_technician(v)}
        Visit date:\t{keep("visit_date", v.fmt(v.today))}
        Equipment:\t{_equipment(v)}

        Complaint: no cooling. Found fault {keep("fault_code", v.pick(FAULT_CODES))}, {keep("reading", v.pick(READINGS))}. Replaced {keep("part", v.pick(PARTS))}; system running, {keep("reading", v.pick(READINGS))}. Dog in back yard, use side gate.
    """


@template("field_service.install_report", FIELD_SERVICE, "Installation Report", "single", "train")
def install_report(v: Values) -> str:
    customer = v.person()
    return f"""
        INSTALLATION REPORT
        Installer: {_technician(v)}    Date: {keep("visit_date", v.fmt(v.today))}

        Customer {pii("NAME", customer.full)} at {pii("ADDRESS", v.street())} requested a replacement of the old unit. Installed {_equipment(v)} and {keep("equipment", v.pick(EQUIPMENT))}. Startup readings: {keep("reading", v.pick(READINGS))}, {keep("reading", v.pick(READINGS))}.
        Thermostat joined to the home network "{pii("ID", v.fake.word().capitalize() + v.code(3))}" with Wi-Fi password {pii("CREDENTIAL", v.fake.password(length=10, special_chars=False))}. Alarm disarm code {pii("CREDENTIAL", v.code(4))} was given by the customer and should be changed.
        Customer email for the warranty registration: {pii("EMAIL", v.email(customer))}. Old unit hauled away.
    """


@template("field_service.service_ticket", FIELD_SERVICE, "Service Ticket", "table", "train")
def service_ticket(v: Values) -> str:
    customer = v.person()
    return f"""
        {keep("institution", v.company())} Appliance Repair
        SERVICE TICKET    Tech: {_technician(v)}

        Customer: {pii("NAME", customer.full)}    Tel: {pii("PHONE", v.phone())}
        Site: {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Lockbox: {pii("CREDENTIAL", v.code(4))}

        Item\tDetail
        Unit\t{keep("equipment", v.pick(EQUIPMENT))}
        Serial\t{keep("serial", v.serial())}
        Fault\t{keep("fault_code", v.pick(FAULT_CODES))}
        Part used\t{keep("part", v.pick(PARTS))}
        Labor\t{keep("amount", v.amount(90, 380))}

        Visit {keep("visit_date", v.fmt(v.today))}. Unit was more than 10 years old; customer advised on replacement options and a maintenance plan. Warranty claim filed under customer account {pii("ACCOUNT", v.account_number())}.
    """


@template(
    "field_service.inspection_checklist", FIELD_SERVICE, "Inspection Checklist", "form", "test"
)
def inspection_checklist(v: Values) -> str:
    owner = v.person()
    return f"""
        ANNUAL SAFETY INSPECTION
        Inspector: {_technician(v)}    Date: {keep("visit_date", v.fmt(v.today))}

        Property owner:\t{pii("NAME", owner.full)}
        Address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Contact:\t{pii("PHONE", v.phone())}, {pii("EMAIL", v.email(owner))}
        Entry:\tdoor code {pii("CREDENTIAL", v.code(5))}, alarm PIN {pii("CREDENTIAL", v.code(4))}
        Unit inspected:\t{_equipment(v)}
        Reading:\t{keep("reading", v.pick(READINGS))}
        Result:\tPASS with note: {keep("fault_code", v.pick(FAULT_CODES))} logged twice this year

        Smoke and CO alarms tested on every floor. Filter was dirty and replaced. Recommend replacing the {keep("part", v.pick(PARTS))} within 6 months.
    """


@template("field_service.callback_note", FIELD_SERVICE, "Callback Note", "letterhead", "test")
def callback_note(v: Values) -> str:
    customer = v.person()
    return f"""
        {keep("institution", v.company())} Field Services
        Dispatch callback note

        Tech {_technician(v)} returned on {keep("visit_date", v.fmt(v.today))} for a repeat {keep("fault_code", v.pick(FAULT_CODES))} on the {_equipment(v)}.
        Spoke with {pii("NAME", customer.full)}, whose daughter {pii("NAME", v.first_name())} lets techs in when she is away. Reach her at {pii("PHONE", v.phone())}. Garage keypad {pii("CREDENTIAL", v.code(4))}, then the side door.
        Measured {keep("reading", v.pick(READINGS))}. Ordered {keep("part", v.pick(PARTS))}, ETA 3 days; no charge under account {pii("ACCOUNT", v.account_number())}.
    """
