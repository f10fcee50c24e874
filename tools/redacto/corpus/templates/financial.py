"""Financial: account, routing, card and tax numbers and the holder's contacts go.

Gold decisions: dollar amounts, institution and merchant names, toll-free numbers and
statement/transaction dates are preserved; the holder's birth date is DATE.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

FINANCIAL = Category.FINANCIAL

BANKS = (
    "Chase",
    "Wells Fargo",
    "Bank of America",
    "Citibank",
    "Capital One",
    "U.S. Bank",
    "PNC Bank",
    "TD Bank",
    "Ally Bank",
    "Truist",
    "Fifth Third Bank",
    "Regions Bank",
)
MERCHANTS = (
    "Apple Store",
    "Orange Telecom",
    "Target",
    "Costco",
    "Shell",
    "Amazon Marketplace",
    "Whole Foods",
    "Home Depot",
    "Netflix",
    "Walgreens",
    "Delta Air Lines",
    "Safeway",
    "Mars Petcare",
    "Starbucks",
    "Uber",
    "Best Buy",
)


def _transactions(v: Values, rows: int) -> str:
    lines = []
    for merchant in v.sample(MERCHANTS, rows):
        day = v.fmt(v.recent_date(30))
        lines.append(
            f"{keep('transaction_date', day)}\t{keep('institution', merchant)}\t{keep('amount', v.amount(4, 420))}"
        )
    return "\n        ".join(lines)


@template("financial.bank_statement", FINANCIAL, "Bank Statement", "table", "train")
def bank_statement(v: Values) -> str:
    holder, bank = v.person(), v.pick(BANKS)
    return f"""
        {keep("institution", bank)}
        Monthly Statement    Customer service {keep("toll_free", v.toll_free())}

        {pii("NAME", holder.full.upper())}
        {pii("ADDRESS", v.street())}
        {pii("ADDRESS", v.city_line())}

        Account number: {pii("ACCOUNT", v.account_number())}    Routing: {pii("ACCOUNT", v.routing_number())}
        Statement period: {keep("transaction_date", v.fmt(v.recent_date(60)))} to {keep("transaction_date", v.fmt(v.today))}
        Opening balance {keep("amount", v.amount(200, 9000))}    Closing balance {keep("amount", v.amount(200, 9000))}

        Date\tDescription\tAmount
        {_transactions(v, v.rng.randrange(4, 7))}

        Overdraft protection is linked to your savings account. Report lost or stolen cards immediately. Questions about your statement? Call {keep("toll_free", v.toll_free())}.
    """


@template("financial.loan_application", FINANCIAL, "Loan Application", "form", "train")
def loan_application(v: Values) -> str:
    applicant, bank = v.person(), v.pick(BANKS)
    return f"""
        {keep("institution", bank)} Personal Loan Application

        Applicant name:\t{pii("NAME", applicant.full)}
        Date of birth:\t{pii("DATE", v.fmt(v.birth_date()))}
        Social Security no.:\t{pii("SSN", v.ssn())}
        Home address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Mobile phone:\t{pii("PHONE", v.phone())}
        Email:\t{pii("EMAIL", v.email(applicant))}
        Employer:\t{keep("institution", v.company())}
        Annual income:\t{keep("amount", v.amount(38000, 190000))}
        Amount requested:\t{keep("amount", v.amount(2000, 40000))}
        Deposit account:\t{pii("ACCOUNT", v.account_number())}

        By signing, the applicant authorizes {keep("institution", bank)} to obtain a credit report. Rates from 7.99% APR. Application received {keep("transaction_date", v.fmt(v.today))}.
    """


@template("financial.card_dispute", FINANCIAL, "Card Dispute Letter", "letterhead", "train")
def card_dispute(v: Values) -> str:
    holder, bank, merchant = v.person(), v.pick(BANKS), v.pick(MERCHANTS)
    expiry = f"{v.rng.randrange(1, 13):02d}/{v.rng.randrange(26, 31)}"
    return f"""
        {pii("NAME", holder.full)}
        {pii("ADDRESS", v.street())}
        {pii("ADDRESS", v.city_line())}
        {pii("PHONE", v.phone())}

        {keep("institution", bank)} Card Services, Disputes Department

        To whom it may concern,
        I am writing to dispute a charge of {keep("amount", v.amount(40, 900))} from {keep("institution", merchant)} posted on {keep("transaction_date", v.fmt(v.recent_date(20)))} to my card ending in a number I list in full for your records: {pii("CARD", v.card_number())}, expiry {pii("CARD", expiry)}. I did not authorize this purchase and still hold the receipt for my last genuine order of {keep("amount", v.amount(10, 90))}.
        Please credit the amount back and send written confirmation to {pii("EMAIL", v.email(holder))}. I called {keep("toll_free", v.toll_free())} and was told to write.

        Sincerely,
        {pii("NAME", holder.full)}
    """


@template("financial.invoice", FINANCIAL, "Invoice", "table", "test")
def invoice(v: Values) -> str:
    client, vendor = v.person(), v.company()
    items = v.sample(
        (
            "Consulting hours",
            "Site visit",
            "Materials",
            "Design review",
            "Software license",
            "Travel",
            "Training session",
        ),
        3,
    )
    rows = "\n        ".join(f"{item}\t{keep('amount', v.amount(80, 2400))}" for item in items)
    return f"""
        {keep("institution", vendor)}
        INVOICE no. {v.digits(5)}    Issued {keep("transaction_date", v.fmt(v.today))}

        Bill to: {pii("NAME", client.full)}
        {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Client tax ID: {pii("SSN", v.ein())}

        Item\tAmount
        {rows}
        Total due\t{keep("amount", v.amount(500, 6000))}

        Pay by transfer to {keep("institution", v.pick(BANKS))}, account {pii("ACCOUNT", v.account_number())}, routing {pii("ACCOUNT", v.routing_number())}, within 30 days. A late fee of {keep("amount", v.amount(15, 60))} applies after the due date, and work on open orders may pause until the balance is paid. Billing questions: {keep("toll_free", v.toll_free())}.
    """


@template("financial.tax_notice", FINANCIAL, "Tax Notice", "letterhead", "test")
def tax_notice(v: Values) -> str:
    taxpayer = v.person()
    return f"""
        {keep("institution", "Department of Revenue")}
        Notice of Adjustment

        {keep("transaction_date", v.fmt(v.today))}

        {pii("NAME", taxpayer.full)}
        {pii("ADDRESS", v.street())}
        {pii("ADDRESS", v.city_line())}

        Taxpayer ID: {pii("SSN", v.ssn())}    Tax year: {keep("year", str(v.today.year - 1))}
        We changed your return because the withholding reported did not match employer records. Your refund was reduced from {keep("amount", v.amount(300, 2500))} to {keep("amount", v.amount(50, 300))}. If you agree, no action is needed. The balance will be deposited to account {pii("ACCOUNT", v.account_number())}.
        To dispute, call {keep("toll_free", v.toll_free())} or write to us within 60 days. Please keep your daytime phone {pii("PHONE", v.phone())} current.
    """
