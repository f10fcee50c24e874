"""Hand-made corpus documents shared by the evaluation tests."""

from redacto.corpus.schema import CorpusDocument, GoldSpan, PreserveSpan
from redacto.document import Category

TEXT = "Patient John Smith has diabetes. Call 555-0101 today."
DOCUMENT = CorpusDocument(
    id="medical-0001",
    category=Category.MEDICAL,
    document_type="note",
    split="test",
    template="hand",
    text=TEXT,
    pii=(GoldSpan(start=8, end=18, label="NAME"), GoldSpan(start=38, end=46, label="PHONE")),
    preserve=(PreserveSpan(start=23, end=31, kind="diagnosis"),),
)
