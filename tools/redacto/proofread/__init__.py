"""`redacto proofread`: a document proofread by any LLM that sees only placeholders.

The identifiers are found by the pipeline and hidden; the text goes to an
OpenAI-compatible server (or, offline, to Hunspell); each mistake streamed back is
restored, placed on the words by the redaction's locator and drawn on a copy of the PDF.
`proofread` does it in memory on an input already read (the review page); `proofread_file`
reads a path and writes the outputs into a folder (the command; docs/proofread.md).
"""

from redacto.proofread.mistakes import Mistake, MistakeLines, PlacedMistake, PlaceStrategy
from redacto.proofread.run import (
    MISTAKES_JSON,
    PROOFREAD_PDF,
    MistakesFile,
    Proofreading,
    ProofreadOptions,
    ProofreadOutcome,
    Stage,
    not_read,
    proofread,
    proofread_file,
    write_proofreading,
)
from redacto.proofread.upstream import API_KEY_VARIABLE, UpstreamConfig, UpstreamError

__all__ = [
    "API_KEY_VARIABLE",
    "MISTAKES_JSON",
    "PROOFREAD_PDF",
    "Mistake",
    "MistakeLines",
    "MistakesFile",
    "PlaceStrategy",
    "PlacedMistake",
    "ProofreadOptions",
    "ProofreadOutcome",
    "Proofreading",
    "Stage",
    "UpstreamConfig",
    "UpstreamError",
    "not_read",
    "proofread",
    "proofread_file",
    "write_proofreading",
]
