"""From the proofreader's answer back to the document: drop what is about a placeholder,
put the original values into the rest.

A mistake whose change touches a placeholder — the placeholder itself, half of one, or a
character right beside one — is about the hidden value, not the writing ("[NAME_1]s"
→ "[NAME_1]'s" guesses at a name the model never saw), so it is dropped and counted. A
placeholder the mistake only quotes, unchanged on both sides and away from the change,
is put back with the proxy's restorer (`redacto.vault.restore_text`), in every field.
"""

from __future__ import annotations

import re

from redacto.proofread.mistakes import Mistake
from redacto.vault import PLACEHOLDER, Vault, restore_text

_FRAGMENT = re.compile(r"\[[A-Z]{2,}|[A-Z]_[0-9]+\]|\b[A-Z]{2,}_[0-9]+\b")
"""Part of a placeholder: `[NAME`, `NAME_1]`, `NAME_1`."""


def touches_placeholder(mistake: Mistake) -> bool:
    """Does the change from `error_text` to `correction` touch a placeholder?"""
    error, correction = mistake.error_text, mistake.correction
    if any(_FRAGMENT.search(PLACEHOLDER.sub(" ", text)) for text in (error, correction)):
        return True
    quoted = PLACEHOLDER.findall(error)
    if sorted(quoted) != sorted(PLACEHOLDER.findall(correction)):
        return True
    if not quoted:
        return False
    start, end = _changed(error, correction)
    return any(
        found.start() <= end and found.end() >= start for found in PLACEHOLDER.finditer(error)
    )


def restore_mistake(mistake: Mistake, vault: Vault) -> Mistake:
    """`mistake` with the original values in every field."""
    return Mistake(
        error_text=restore_text(mistake.error_text, vault),
        correction=restore_text(mistake.correction, vault),
        context_before=restore_text(mistake.context_before, vault),
        description=restore_text(mistake.description, vault),
    )


def _changed(before: str, after: str) -> tuple[int, int]:
    """The range of `before` that differs from `after` (common prefix and suffix off)."""
    prefix = 0
    while prefix < min(len(before), len(after)) and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(before), len(after)) - prefix and before[-1 - suffix] == after[-1 - suffix]
    ):
        suffix += 1
    return prefix, len(before) - suffix
