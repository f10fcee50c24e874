"""The outside suite's text styles (`redacto.corpus.outside`), each used by one split.

Short texts as people write them to each other and to a chat assistant, in English and
French. Gold decisions follow `prompts/labels.yaml`: a street with its number, or a postcode
with its city, is an ADDRESS; a city or country alone is not; company names and amounts
are kept. About one text in six has nothing to find.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.outside import OutsideValues, outside_template
from redacto.document import Category

GENERAL = Category.GENERAL
MEDICAL = Category.MEDICAL
FINANCIAL = Category.FINANCIAL

# Train split -------------------------------------------------------------------------------


@outside_template("outside.sms_meet", GENERAL, "Text Message", "train")
def sms_meet(v: OutsideValues) -> str:
    friend = v.person()
    return f"hey {pii('NAME', friend.first)}! still on for {pii('DATE', v.date_en())}? I'm at {pii('ADDRESS', v.street())} now, call {pii('PHONE', v.phone())} if you get lost"


@outside_template("outside.sms_plain", GENERAL, "Text Message", "train")
def sms_plain(v: OutsideValues) -> str:
    return f"Running late, the train from {v.city()} is stuck. Start without me, I'll be there by {v.time()}."


@outside_template("outside.chat_rewrite", GENERAL, "Chat Request", "train")
def chat_rewrite(v: OutsideValues) -> str:
    me, landlord = v.person(), v.person()
    return f"""
        Can you make this message more polite? "{pii("NAME", landlord.full)}, the heating at {pii("ADDRESS", v.address(me))} has been broken since {pii("DATE", v.date_en())}. Fix it or I stop paying. {pii("NAME", me.first)}"
        """


@outside_template("outside.chat_summary_plain", GENERAL, "Chat Request", "train")
def chat_summary_plain(v: OutsideValues) -> str:
    return f"Summarise the pros and cons of moving our team's servers from {keep('institution', v.company())} to an in-house rack, in five bullet points. Budget is about {keep('amount', v.amount())} a month."


@outside_template("outside.email_intro", GENERAL, "E-mail", "train")
def email_intro(v: OutsideValues) -> str:
    sender, contact = v.person(), v.person()
    return f"""
        Hi {pii("NAME", contact.first)},

        {pii("NAME", sender.first)} here from {keep("institution", v.company())}. My colleague {pii("NAME", v.person().full)} gave me your address. Could we talk on {pii("DATE", v.date_en())}? You can reach me on {pii("PHONE", v.phone(sender.locale))} or {pii("EMAIL", v.email(sender))}.

        Best,
        {pii("NAME", sender.full)}
        """


@outside_template("outside.form_signup", GENERAL, "Form", "train")
def form_signup(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        Full name: {pii("NAME", who.full)}
        Date of birth: {pii("DATE", v.birth_date())}
        Address: {pii("ADDRESS", v.street(who))}
        {pii("ADDRESS", v.postcode_city(who))}
        Mobile: {pii("PHONE", v.phone(who.locale))}
        Passport no.: {pii("ID", v.passport())}
        """


@outside_template("outside.letter_fr", GENERAL, "Lettre", "train")
def letter_fr(v: OutsideValues) -> str:
    me, them = v.person("fr_FR"), v.person("fr_FR")
    return f"""
        {pii("NAME", me.full)}
        {pii("ADDRESS", v.address(me))}

        Le {pii("DATE", v.date_fr())}

        Madame {pii("NAME", them.last)},
        Suite à notre entretien, je vous confirme ma démission. Vous pouvez me joindre au {pii("PHONE", v.phone("fr_FR"))}. Mon numéro de sécurité sociale est le {pii("SSN", v.national_id())}.
        Cordialement,
        {pii("NAME", me.first)}
        """


@outside_template("outside.sms_fr_plain", GENERAL, "SMS", "train")
def sms_fr_plain(v: OutsideValues) -> str:
    return f"Le bus pour {v.city()} part à {v.time()}, pense à prendre ton billet. Il reste {keep('amount', v.amount())} sur la carte de la cantine."


@outside_template("outside.bank_chat", FINANCIAL, "Chat Request", "train")
def bank_chat(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        I need to change the account my salary goes to. Old IBAN {pii("ACCOUNT", v.iban())}, new one {pii("ACCOUNT", v.iban())}. I'm {pii("NAME", who.full)}, my last salary was {keep("amount", v.amount())}. Call me on {pii("PHONE", v.phone(who.locale))}.
        """


@outside_template("outside.doctor_message", MEDICAL, "Patient Message", "train")
def doctor_message(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        Dear Dr {pii("NAME", v.person().last)}, my son {pii("NAME", v.person(who.locale).first)} still has a fever after the {keep("medication", "amoxicillin")}. Could we come in on {pii("DATE", v.date_en())}? {pii("NAME", who.full)}, {pii("PHONE", v.phone(who.locale))}
        """


@outside_template("outside.plain_question", GENERAL, "Chat Request", "train")
def plain_question(v: OutsideValues) -> str:
    return "What is the difference between a fixed and a variable mortgage rate? Explain it like I'm new to this."


@outside_template("outside.delivery_note", GENERAL, "Delivery Note", "train")
def delivery_note(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        Parcel for {pii("NAME", who.full)}, {pii("ADDRESS", v.address(who))}. Leave with neighbour {pii("NAME", v.person(who.locale).last)} if out. Gate code {pii("CREDENTIAL", v.pin())}.
        """


@outside_template("outside.car_sale", GENERAL, "Chat Request", "train")
def car_sale(v: OutsideValues) -> str:
    return f"Write an ad for my car: 2015 hatchback, plate {pii('ID', v.plate())}, 120,000 km, asking {keep('amount', v.amount())}. Contact {pii('EMAIL', v.email())}."


@outside_template("outside.login_help", GENERAL, "Chat Request", "train")
def login_help(v: OutsideValues) -> str:
    who = v.person()
    return f"My login {pii('EMAIL', v.email(who))} with password {pii('CREDENTIAL', v.password())} stopped working after the update on {pii('DATE', v.date_en())}. What should I try?"


# Test split: the outside dev set ----------------------------------------------------------


@outside_template("outside.sms_directions", GENERAL, "Text Message", "test")
def sms_directions(v: OutsideValues) -> str:
    return f"The bus station is on {pii('ADDRESS', v.street())}. I'll wait by the kiosk from {v.time()}."


@outside_template("outside.sms_birthday", GENERAL, "Text Message", "test")
def sms_birthday(v: OutsideValues) -> str:
    friend = v.person()
    return f"Don't forget {pii('NAME', friend.first)}'s party on {pii('DATE', v.date_en())}!! bring something, her new number is {pii('PHONE', v.phone(friend.locale))}"


@outside_template("outside.chat_plain_recipe", GENERAL, "Chat Request", "test")
def chat_plain_recipe(v: OutsideValues) -> str:
    return (
        "Give me a vegetarian lasagne recipe for six people, with a shopping list sorted by aisle."
    )


@outside_template("outside.chat_complaint", GENERAL, "Chat Request", "test")
def chat_complaint(v: OutsideValues) -> str:
    me = v.person()
    return f"""
        Help me write a complaint to {keep("institution", v.company())}. My order was sent to {pii("ADDRESS", v.address(me))} on {pii("DATE", v.date_en())} but never arrived. Order email: {pii("EMAIL", v.email(me))}. Sign it {pii("NAME", me.full)}.
        """


@outside_template("outside.email_reference", GENERAL, "E-mail", "test")
def email_reference(v: OutsideValues) -> str:
    writer, candidate = v.person(), v.person()
    return f"""
        Dear hiring team,

        I am happy to recommend {pii("NAME", candidate.full)}, who worked with me for three years. She lives at {pii("ADDRESS", v.street(candidate))} and can start on {pii("DATE", v.date_en())}. Do call me at {pii("PHONE", v.phone(writer.locale))}.

        Kind regards,
        {pii("NAME", writer.full)}
        """


@outside_template("outside.form_rental", GENERAL, "Form", "test")
def form_rental(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        Tenant: {pii("NAME", who.full)}
        Born: {pii("DATE", v.birth_date())}
        Current address: {pii("ADDRESS", v.address(who))}
        Phone: {pii("PHONE", v.phone(who.locale))}
        ID number: {pii("SSN", v.national_id())}
        Deposit: {keep("amount", v.amount())}
        """


@outside_template("outside.sms_fr_rdv", GENERAL, "SMS", "test")
def sms_fr_rdv(v: OutsideValues) -> str:
    friend = v.person("fr_FR")
    return f"Coucou {pii('NAME', friend.first)}, on se voit le {pii('DATE', v.date_fr())} chez moi au {pii('ADDRESS', v.address(friend))} ? Appelle-moi au {pii('PHONE', v.phone('fr_FR'))}."


@outside_template("outside.mail_fr_plain", GENERAL, "Courriel", "test")
def mail_fr_plain(v: OutsideValues) -> str:
    return f"Bonjour à tous, la réunion de rentrée aura lieu à {v.city()} à {v.time()}. Merci de confirmer votre présence avant vendredi."


@outside_template("outside.transfer_request", FINANCIAL, "Chat Request", "test")
def transfer_request(v: OutsideValues) -> str:
    who, payee = v.person(), v.person()
    return f"""
        Draft a note to my bank: please send {keep("amount", v.amount())} from {pii("ACCOUNT", v.iban())} to {pii("NAME", payee.full)}, IBAN {pii("ACCOUNT", v.iban())}, before {pii("DATE", v.date_en())}. Card on file {pii("CARD", v.card())}. {pii("NAME", who.full)}
        """


@outside_template("outside.clinic_message", MEDICAL, "Patient Message", "test")
def clinic_message(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        Hello, this is {pii("NAME", who.full)} (born {pii("DATE", v.birth_date())}). The pharmacy says my {keep("medication", "metformin")} prescription expired. My number is {pii("PHONE", v.phone(who.locale))}.
        """


@outside_template("outside.plain_travel", GENERAL, "Chat Request", "test")
def plain_travel(v: OutsideValues) -> str:
    return f"Plan three days in {v.city()} for two people who like museums and long walks, under {keep('amount', v.amount())} in total."


@outside_template("outside.neighbour_note", GENERAL, "Note", "test")
def neighbour_note(v: OutsideValues) -> str:
    who = v.person()
    return f"""
        To the residents of {pii("ADDRESS", v.street(who))}: a parcel for {pii("NAME", v.person(who.locale).full)} was left with me. Knock at flat 3 or text {pii("PHONE", v.phone(who.locale))}. {pii("NAME", who.first)}
        """


@outside_template("outside.parking_appeal", GENERAL, "Chat Request", "test")
def parking_appeal(v: OutsideValues) -> str:
    who = v.person()
    return f"I got a parking fine for plate {pii('ID', v.plate())} on {pii('DATE', v.date_en())}, but I had a permit. Write an appeal for {pii('NAME', who.full)}, {pii('ADDRESS', v.postcode_city(who))}."


@outside_template("outside.wifi_share", GENERAL, "Text Message", "test")
def wifi_share(v: OutsideValues) -> str:
    who = v.person()
    return f"wifi is HomeNet5, password {pii('CREDENTIAL', v.password())}. if it breaks ask {pii('NAME', who.first)} on {pii('PHONE', v.phone(who.locale))} or mail {pii('EMAIL', v.email(who))}"
