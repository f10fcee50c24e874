"""The residual check: every word an output leaves readable is explained, or named.

A lexicon is a reader of another kind than the rules, the NER tier and the model: it keeps
a word only when the language's dictionary knows it or a rule of the category keeps it
readable for a stated reason (docs/lexicon.md). `residual_words` decides each word of an
output; the dictionaries are built once by `redacto lexicon build` (`build`, `expand`) into
`lexicon/`, pinned by sha256, and read by `dictionary.load`.
"""

from redacto.lexicon.dictionary import (
    LANGUAGES,
    Known,
    Lexicon,
    LexiconError,
    language_of,
    load,
)
from redacto.lexicon.residual import (
    LABEL_WORDS,
    NOT_LABELS,
    REFERENCE_WORDS,
    Kind,
    Reason,
    WordDecision,
    residual_words,
    unexplained,
)
from redacto.lexicon.words import MASK, Word, pieces, trim, words

__all__ = [
    "LABEL_WORDS",
    "LANGUAGES",
    "MASK",
    "NOT_LABELS",
    "REFERENCE_WORDS",
    "Kind",
    "Known",
    "Lexicon",
    "LexiconError",
    "Reason",
    "Word",
    "WordDecision",
    "language_of",
    "load",
    "pieces",
    "residual_words",
    "trim",
    "unexplained",
    "words",
]
