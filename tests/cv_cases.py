"""The proofreading cases: each CV, what the detector answers, what the fake LLM answers
(in placeholders, as it saw the text), and where each mistake must land."""

from __future__ import annotations

import dataclasses
import json
import threading
from dataclasses import dataclass
from pathlib import Path

from cv_pages import (
    ENGLISH_ADDRESS,
    ENGLISH_CV,
    ENGLISH_EMAIL,
    ENGLISH_NAME,
    ENGLISH_PHONE,
    FRENCH_ADDRESS,
    FRENCH_CV,
    FRENCH_EMAIL,
    FRENCH_NAME,
    FRENCH_PHONE,
    SHORT,
    Frame,
    Line,
    PageSize,
    write_born_digital,
    write_scanned,
)
from redacto.document import Category, ImageReading, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import PipelineOptions
from redacto.proofread.mistakes import PlaceStrategy


def line(error: str, correction: str, context: str, description: str = "") -> str:
    return json.dumps(
        {
            "error_text": error,
            "correction": correction,
            "context_before": context,
            "description": description or f"{error} → {correction}",
        },
        ensure_ascii=False,
    )


@dataclass(frozen=True)
class Expected:
    """A mistake as it must come out: restored text, and its strategy (None: not located;
    `ANY`: located, by whichever strategy OCR's reading of a scan needs)."""

    error_text: str
    correction: str
    strategy: PlaceStrategy | str | None


ANY = "any"


@dataclass(frozen=True)
class CvCase:
    name: str
    lines: list[Line]
    values: tuple[str, ...]
    """Every identifier on the page: none may reach the upstream."""
    detect_reply: str
    answer: list[str]
    expected: list[Expected | None]
    """Per answer line: what it becomes, or None when it is dropped (touches a placeholder)."""
    page: PageSize = SHORT
    scan: bool = False
    """A scanned page (OCR reads it), or a born-digital one (its text layer is read)."""

    def engine(self) -> ScriptedEngine:
        return ScriptedEngine(
            {Step.DETECT: [self.detect_reply, "NONE", "NONE"], Step.VALIDATE: ["PASS"] * 3}
        )

    def kept(self) -> list[Expected]:
        return [expected for expected in self.expected if expected is not None]

    def scanned(self) -> CvCase:
        """The same case read by OCR: where it is placed may need another strategy."""
        return dataclasses.replace(
            self,
            name=self.name + "-scanned",
            expected=[
                None if e is None else Expected(e.error_text, e.correction, e.strategy and ANY)
                for e in self.expected
            ],
            scan=True,
        )

    def on(self, page: PageSize) -> CvCase:
        """The same case on a page of another size (the lines where they were, from its
        top-left corner)."""
        return dataclasses.replace(self, name=f"{self.name}-{page.name}", page=page)

    def write(self, path: Path) -> Path:
        """The case's PDF, born-digital or scanned, on its page."""
        if self.scan:
            return write_scanned(self.lines, path, self.page)
        return write_born_digital(self.lines, path, Frame(page=self.page))


DETECTOR_OPTIONS = PipelineOptions(category=Category.GENERAL, image_reading=ImageReading.TEXT)
"""The model tier reads the page as text (the default model's reading), category known."""

ENGLISH = CvCase(
    "english",
    ENGLISH_CV,
    (ENGLISH_NAME, ENGLISH_EMAIL, ENGLISH_PHONE, ENGLISH_ADDRESS, "Whitcombe", "Willow"),
    f"NAME: {ENGLISH_NAME}\nEMAIL: {ENGLISH_EMAIL}\nPHONE: {ENGLISH_PHONE}\n"
    f"ADDRESS: {ENGLISH_ADDRESS}",
    [
        # "recieved" is twice on the page: the name beside it tells which
        line("recieved", "received", "In 2021 [NAME_1]", "Spelling: i before e."),
        # the context taken from the other column
        line("quartely", "quarterly", "led a team of five and", "Spelling."),
        # a word the text layer glued to the one before it
        line("Germna", "German", "Spanish, basic", "Spelling of the language."),
        line("[EMAIL_1]", "[EMAIL_1].", "Email:", "End the line with a full stop."),
        line("Statistcs", "Statistics", "Python, SQL and", "Spelling."),
    ],
    [
        Expected("recieved", "received", PlaceStrategy.CONTEXT),
        Expected("quartely", "quarterly", PlaceStrategy.ERROR_ONCE),
        Expected("Germna", "German", PlaceStrategy.JOINED_SUBSTRING),
        None,
        Expected("Statistcs", "Statistics", None),
    ],
)

FRENCH = CvCase(
    "french",
    FRENCH_CV,
    (FRENCH_NAME, FRENCH_EMAIL, FRENCH_PHONE, FRENCH_ADDRESS, "Dubois", "Lilas"),
    f"NAME: {FRENCH_NAME}\nEMAIL: {FRENCH_EMAIL}\nPHONE: {FRENCH_PHONE}\nADDRESS: {FRENCH_ADDRESS}",
    [
        # the model writes straight apostrophes; the page has typographic ones
        line("j'ai travailler", "j'ai travaillé", "licence en gestion,", "Participe passé."),
        # `d’` and `une` are two words on the page
        line("d'une expériance", "d'une expérience", "Dotée", "Orthographe."),
        # a value inside the correction comes back restored
        line("[NAME_1] a recu", "[NAME_1] a reçu", "En 2020,", "Cédille."),
        line("recu", "reçu", "elle a", "Cédille."),
        line("[NAME_1]", "Marie Claire", "", "Nom."),
        line("Sorbone", "Sorbonne", "diplômée de la", "Orthographe."),
    ],
    [
        Expected("j'ai travailler", "j'ai travaillé", PlaceStrategy.CONTEXT_NORMALIZED),
        Expected("d'une expériance", "d'une expérience", PlaceStrategy.CONTEXT_NORMALIZED),
        Expected(f"{FRENCH_NAME} a recu", f"{FRENCH_NAME} a reçu", PlaceStrategy.CONTEXT),
        Expected("recu", "reçu", PlaceStrategy.CONTEXT),
        None,
        Expected("Sorbone", "Sorbonne", None),
    ],
)


class ActedOn:
    """Counts the mistakes the run acted on; the fake upstream's gate waits on it after each
    line, so a line not acted on before the next one goes out fails the test."""

    def __init__(self, case: CvCase, timeout_s: float = 20.0) -> None:
        self.count = 0
        self._changed = threading.Condition()
        self.timeout_s = timeout_s
        kept = 0
        self.after_line: list[int] = []
        for expected in case.expected:
            kept += expected is not None
            self.after_line.append(kept)

    def __call__(self, _mistake: object) -> None:
        with self._changed:
            self.count += 1
            self._changed.notify_all()

    def gate(self, line: int) -> bool:
        with self._changed:
            return self._changed.wait_for(
                lambda: self.count >= self.after_line[line], self.timeout_s
            )
