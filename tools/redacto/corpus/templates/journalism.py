"""Journalism: confidential sources and private individuals go, with their contacts.

Gold decisions: public officials with their titles, reporters and editors, organization
names and publication dates are preserved; the date a reporter met a source is DATE (it can
unmask the source).
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

JOURNALISM = Category.JOURNALISM

OFFICE_TITLES = (
    "Mayor",
    "Senator",
    "Governor",
    "Council Member",
    "Police Chief",
    "School Superintendent",
    "County Commissioner",
    "State Representative",
)
TOPICS = (
    "the water treatment contract",
    "overtime billing at the transit authority",
    "mold complaints in public housing",
    "the stadium tax abatement",
    "delayed bridge inspections",
    "missing funds at the parks department",
    "nursing home staffing levels",
    "the landfill expansion permit",
)
SOURCE_ROLES = (
    "a records clerk",
    "a night-shift supervisor",
    "a former contractor",
    "a union steward",
    "an accountant",
    "a maintenance worker",
)


def _official(v: Values) -> str:
    return keep("official", f"{v.pick(OFFICE_TITLES)} {v.person().full}")


def _outlet(v: Values) -> str:
    return keep(
        "organization",
        f"The {v.city()} {v.rng.choice(('Tribune', 'Ledger', 'Courier', 'Herald', 'Gazette'))}",
    )


@template("journalism.interview_notes", JOURNALISM, "Interview Notes", "single", "train")
def interview_notes(v: Values) -> str:
    source, reporter = v.person(), v.person()
    return f"""
        INTERVIEW NOTES - CONFIDENTIAL
        Reporter: {keep("reporter", reporter.full)}    Outlet: {_outlet(v)}
        Story: {v.pick(TOPICS)}

        Source: {pii("NAME", source.full)} ({v.pick(SOURCE_ROLES)}), met {pii("DATE", v.fmt(v.recent_date(14)))} at a diner near the depot. Cell {pii("PHONE", v.phone())}, prefers Signal. Home: {pii("ADDRESS", v.street())}.
        Says {_official(v)} knew about the problem in March and told staff not to put anything in writing. {pii("NAME", source.first)} has copies of two memos and will share them if we promise anonymity.
        Follow up: ask the press office of {_official(v)} for comment by Friday. Do NOT name the source or the department she works in.
    """


@template("journalism.story_draft", JOURNALISM, "Story Draft", "two_column", "train")
def story_draft(v: Values) -> str:
    reporter, resident = v.person(), v.person()
    official = _official(v)
    return f"""
        DRAFT - not for publication
        By {keep("reporter", reporter.full)}, {_outlet(v)}

        Residents say city officials ignored warnings about {v.pick(TOPICS)} for more than a year. {official} declined to answer detailed questions but said in a statement that the city "takes every complaint seriously."
        One resident, {pii("NAME", resident.full)}, 64, who lives on {pii("ADDRESS", v.street())}, said she filed four complaints. "Nobody called me back," she said.
        An employee with direct knowledge, who asked not to be named for fear of retaliation, said supervisors were told to delay the reports. [Editor: source is {pii("NAME", v.person().full)}, reachable at {pii("EMAIL", v.email())} - strip before publication.]
        {_official(v)} called for an audit. The council meets again next month.
        Publication planned for {keep("publication_date", v.fmt(v.recent_date(5)))}.
    """


@template("journalism.tip_email", JOURNALISM, "Tip Email", "single", "train")
def tip_email(v: Values) -> str:
    tipster, reporter = v.person(), v.person()
    return f"""
        From: {pii("NAME", tipster.full)} <{pii("EMAIL", v.email(tipster))}>
        To: {keep("reporter", reporter.full)} <tips@newsroom.example>
        Date: {pii("DATE", v.fmt(v.recent_date(7)))}
        Subject: about {v.pick(TOPICS)}

        Hi {keep("reporter", reporter.first)},
        I saw your piece on the budget. I work as {v.pick(SOURCE_ROLES)} and can show you invoices that were approved by {_official(v)} without a vote. My supervisor {pii("NAME", v.person().full)} told us to shred the old ones. Please don't call my work line; my personal number is {pii("PHONE", v.phone())}.
        I can meet after 6 pm.
        {pii("NAME", tipster.first)}
    """


@template("journalism.source_log", JOURNALISM, "Source Contact Log", "table", "test")
def source_log(v: Values) -> str:
    reporter = v.person()
    rows = []
    for _ in range(3):
        source = v.person()
        rows.append(
            f"{pii('DATE', v.fmt(v.recent_date(30)))}\t{pii('NAME', source.full)}\t{pii('PHONE', v.phone())}"
        )
    body = "\n        ".join(rows)
    return f"""
        SOURCE CONTACT LOG - {keep("reporter", reporter.full)}
        Investigation: {v.pick(TOPICS)}

        Date\tContact\tPhone
        {body}

        Notes: second contact confirms that {_official(v)} met the vendor twice. Third contact is a relative of a council aide; treat as unreliable. Request records from {keep("organization", f"{v.city()} City Clerk")} before the {keep("publication_date", v.fmt(v.today))} deadline.
    """


@template("journalism.editor_memo", JOURNALISM, "Editor Memo", "letterhead", "test")
def editor_memo(v: Values) -> str:
    editor, reporter, source = v.person(), v.person(), v.person()
    return f"""
        {_outlet(v)}
        Newsroom Memo

        To: {keep("reporter", reporter.full)}
        From: {keep("reporter", editor.full)}, Managing Editor
        Re: legal review of the story on {v.pick(TOPICS)}

        Counsel cleared the piece with two changes. First, the quote from {_official(v)} must be checked against the tape. Second, remove every detail that could identify our source: her name ({pii("NAME", source.full)}), the street she lives on ({pii("ADDRESS", v.street())}) and the date she gave us the files ({pii("DATE", v.fmt(v.recent_date(20)))}). Her cell number {pii("PHONE", v.phone())} must not appear in the shared drive.
        Run date stays {keep("publication_date", v.fmt(v.today))}.
    """
