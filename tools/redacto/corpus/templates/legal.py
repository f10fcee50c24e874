"""Legal: the parties' names, contacts, addresses and ID numbers go.

Gold decisions: parties and signatories (the signing attorney too) are NAME; property specs,
legal terms, amounts, courts, judges and effective/term dates are preserved; a party's birth date is DATE; the
address of a leased or sold home is the party's ADDRESS.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

LEGAL = Category.LEGAL

PROPERTY_SPECS = (
    "3-bedroom, 2-bath single-family home",
    "2-bedroom condominium unit, 1,120 sq ft",
    "one-bedroom apartment with assigned parking",
    "4-bedroom colonial on a 0.4-acre lot",
    "studio apartment, 480 sq ft, furnished",
    "duplex unit, 2 bedrooms, 1.5 baths, zoned R-2",
    "townhouse, 3 levels, attached garage",
    "vacant lot of 1.2 acres, zoned agricultural",
)
LEGAL_TERMS = (
    "joint and several liability",
    "quiet enjoyment",
    "force majeure",
    "time is of the essence",
    "indemnification",
    "right of first refusal",
    "arbitration",
    "severability",
)
COURTS = (
    "Superior Court of King County",
    "Circuit Court of Cook County",
    "District Court of Travis County",
    "Superior Court of Maricopa County",
    "Court of Common Pleas",
    "Family Court of Wake County",
)


@template("legal.residential_lease", LEGAL, "Residential Lease", "single", "train")
def residential_lease(v: Values) -> str:
    tenant, landlord = v.person(), v.person()
    start = v.recent_date(30)
    return f"""
        RESIDENTIAL LEASE AGREEMENT

        This lease is made between {pii("NAME", landlord.full)} ("Landlord") and {pii("NAME", tenant.full)} ("Tenant"), date of birth {pii("DATE", v.fmt(v.birth_date()))}, driver's licence {pii("ID", v.licence())}.
        1. Premises. Landlord leases to Tenant the {keep("property_spec", v.pick(PROPERTY_SPECS))} located at {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}.
        2. Term. The term begins on {keep("effective_date", v.fmt(start))} and runs for twelve months.
        3. Rent. Monthly rent is {keep("amount", v.amount(900, 3800))}, due on the first day of each month. A security deposit of {keep("amount", v.amount(900, 3800))} is held in trust.
        4. Covenants. Tenant shall have {keep("legal_term", v.pick(LEGAL_TERMS))}; co-tenants are bound by {keep("legal_term", v.pick(LEGAL_TERMS))}.
        5. Notices. Tenant may be reached at {pii("PHONE", v.phone())} or {pii("EMAIL", v.email(tenant))}.

        Landlord: {pii("NAME", landlord.full)}    Tenant: {pii("NAME", tenant.full)}
    """


@template("legal.purchase_agreement", LEGAL, "Purchase and Sale Agreement", "form", "train")
def purchase_agreement(v: Values) -> str:
    buyer, seller = v.person(), v.person()
    return f"""
        REAL ESTATE PURCHASE AND SALE AGREEMENT

        Buyer:\t{pii("NAME", buyer.full)}
        Buyer address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Seller:\t{pii("NAME", seller.full)}
        Seller phone:\t{pii("PHONE", v.phone())}
        Property:\t{keep("property_spec", v.pick(PROPERTY_SPECS))}
        Parcel no.:\t{keep("property_spec", f"APN {v.digits(3)}-{v.digits(3)}-{v.digits(3)}")}
        Purchase price:\t{keep("amount", v.amount(180000, 950000))}
        Earnest money:\t{keep("amount", v.amount(5000, 25000))}
        Closing date:\t{keep("effective_date", v.fmt(v.recent_date(5)))}

        The parties agree that {keep("legal_term", "time is of the essence")} and that disputes go to {keep("legal_term", "arbitration")}. Earnest money is held by {keep("institution", v.company())} Title. Buyer's lender requires the buyer's Social Security number {pii("SSN", v.ssn())} for the title search.
    """


@template("legal.settlement_letter", LEGAL, "Settlement Letter", "letterhead", "train")
def settlement_letter(v: Values) -> str:
    claimant, attorney = v.person(), v.person()
    return f"""
        {keep("institution", f"{attorney.last} & {v.last_name()} LLP")}
        Attorneys at Law

        {keep("effective_date", v.fmt(v.today))}

        {pii("NAME", claimant.full)}
        {pii("ADDRESS", v.street())}
        {pii("ADDRESS", v.city_line())}

        Re: Settlement of claim no. {pii("ID", v.case_number("CL"))}

        Dear {pii("NAME", f"{v.rng.choice(('Mr.', 'Ms.'))} {claimant.last}")},
        Our client has authorized a full and final settlement of {keep("amount", v.amount(5000, 90000))}, subject to a general release and {keep("legal_term", v.pick(LEGAL_TERMS))}. The offer remains open for 21 days. Payment will issue within 14 days of the signed release.
        Please call me at my direct line if you have questions.

        Very truly yours,
        {pii("NAME", attorney.full)}, Esq.
    """


@template("legal.court_filing", LEGAL, "Court Filing", "single", "test")
def court_filing(v: Values) -> str:
    plaintiff, defendant = v.person(), v.person()
    return f"""
        IN THE {keep("court", v.pick(COURTS).upper())}

        {pii("NAME", plaintiff.full.upper())}, Plaintiff,
        v.
        {pii("NAME", defendant.full.upper())}, Defendant.

        Case No. {pii("ID", v.case_number("CV"))}
        Assigned to: {keep("judge", f"Hon. {v.person().full}")}

        COMPLAINT FOR BREACH OF CONTRACT
        1. Plaintiff resides at {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}.
        2. On {keep("effective_date", v.fmt(v.recent_date(300)))} the parties signed a written agreement for the sale of a {keep("property_spec", v.pick(PROPERTY_SPECS))}.
        3. Defendant failed to pay the balance of {keep("amount", v.amount(8000, 120000))} despite demand, in breach of the {keep("legal_term", v.pick(LEGAL_TERMS))} clause.
        WHEREFORE Plaintiff asks for judgment in that amount, interest and costs.
    """


@template("legal.power_of_attorney", LEGAL, "Power of Attorney", "letterhead", "test")
def power_of_attorney(v: Values) -> str:
    principal, agent = v.person(), v.person()
    return f"""
        DURABLE POWER OF ATTORNEY
        State of {v.fake.state()}

        I, {pii("NAME", principal.full)}, born {pii("DATE", v.fmt(v.birth_date(40, 90)))}, of {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}, appoint {pii("NAME", agent.full)}, telephone {pii("PHONE", v.phone())}, as my agent.
        My agent may manage my bank account {pii("ACCOUNT", v.account_number())}, sell the {keep("property_spec", v.pick(PROPERTY_SPECS))}, and sign documents for me. This power is durable and is not affected by my later incapacity. It takes effect on {keep("effective_date", v.fmt(v.today))}.
        Compensation of the agent shall not exceed {keep("amount", v.amount(500, 3000))} per year.

        Signed: {pii("NAME", principal.full)}
        Acknowledged before a notary public.
    """
