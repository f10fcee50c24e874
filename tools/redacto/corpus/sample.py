"""The bundled sample photograph, `examples/sample-medical-note.jpg`, and its gold labels.

The README's quick start redacts it. It is a synthetic clinic note: every name, number and
address is invented, drawn by the corpus renderer and degraded like a phone photo.
"""

# ruff: noqa: E501  (the note is prose: one document line per source line reads best)

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from redacto.corpus.markup import parse_markup
from redacto.corpus.render import elements_json, render_photo
from redacto.corpus.schema import CorpusDocument, GoldWord
from redacto.document import Category

SAMPLE_STEM = "sample-medical-note"

SAMPLE_MARKUP = """
    {{institution|Lakeshore Community Clinic}}
    CLINIC VISIT NOTE

    Patient: [[NAME|Jane Marlowe]]    DOB: [[DATE|03/15/1978]]
    MRN: [[MRN|4471829]]    Visit date: [[DATE|10/02/2025]]
    Phone: [[PHONE|(408) 555-0134]]    Provider: Dr. [[NAME|Samuel Ortiz]]

    Chief complaint: ankle pain after a fall on the stairs.
    History: [[NAME|Mrs. Marlowe]] came in with the patient's daughter [[NAME|Lisa]], who saw the fall. She has {{diagnosis|Type 2 diabetes}}, well controlled on {{medication|metformin 500 mg twice daily}}.
    Exam: {{vital|BP 128/82}}, {{vital|HR 76}}. Swelling over the {{body_location|right ankle}}, no deformity.
    X-ray: {{diagnosis|no fracture}}. Assessment: {{diagnosis|right ankle sprain}}.
    Plan: rest, ice, {{medication|ibuprofen 400 mg every 6 hours}} as needed. Results will be emailed to [[EMAIL|jane.marlowe@example.com]]. Return in one week.
"""


class SampleGold(BaseModel):
    """What `examples/sample-medical-note.json` holds: the document and its rendered words."""

    model_config = ConfigDict(extra="forbid")

    document: CorpusDocument
    image: str
    width: int
    height: int
    words: tuple[GoldWord, ...]


def sample_document() -> CorpusDocument:
    """The sample note as a corpus document."""
    text, pii, preserve = parse_markup(SAMPLE_MARKUP)
    return CorpusDocument(
        id="example-medical-note",
        category=Category.MEDICAL,
        document_type="Clinic Visit Note",
        split="hard",
        template="example.medical_note",
        layout="single",
        text=text,
        pii=pii,
        preserve=preserve,
    )


def write_sample(examples_dir: Path) -> Path:
    """Render the sample into `examples_dir`: the JPEG, its gold JSON and an elements file."""
    document = sample_document()
    jpeg, width, height, words = render_photo(document)
    examples_dir.mkdir(parents=True, exist_ok=True)
    image_path = examples_dir / f"{SAMPLE_STEM}.jpg"
    image_path.write_bytes(jpeg)
    gold = SampleGold(
        document=document, image=image_path.name, width=width, height=height, words=words
    )
    gold_text = json.dumps(gold.model_dump(mode="json"), indent=1) + "\n"
    (examples_dir / f"{SAMPLE_STEM}.json").write_text(gold_text, encoding="utf-8")
    elements_path = examples_dir / f"{SAMPLE_STEM}.elements.json"
    elements_path.write_text(elements_json(words), encoding="utf-8")
    return image_path
