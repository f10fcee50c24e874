"""Placeholders in, values back: the vault that both the proxy and proofread use.

A `Vault` numbers each detected value once (`[NAME_1]` everywhere it occurs) and finds
every later occurrence of a value it knows; `replace_spans` writes the placeholders of
detected spans and known values into a text (overlaps merged once, here); `restore_text`
and `StreamRestorer` put the values back into an answer, whole or arriving in pieces split
anywhere. It lives below
the faces (docs/layers.md) so that `redacto proofread` and the review page use the same
vault and restorer as `redacto proxy` without importing the proxy or its extra.
Nothing here is ever written to disk or to a log.
"""

from redacto.pipeline.placeholders import value_key
from redacto.vault.book import PLACEHOLDER, Vault, VaultFull
from redacto.vault.known import SHORT_VALUE
from redacto.vault.restore import MAX_PLACEHOLDER, StreamRestorer, restore_text
from redacto.vault.spans import Span, label_of, merge_spans, replace_spans

__all__ = [
    "MAX_PLACEHOLDER",
    "PLACEHOLDER",
    "SHORT_VALUE",
    "Span",
    "StreamRestorer",
    "Vault",
    "VaultFull",
    "label_of",
    "merge_spans",
    "replace_spans",
    "restore_text",
    "value_key",
]
