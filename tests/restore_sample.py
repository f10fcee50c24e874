"""One vault and one answer that names its values, for the restore tests of the vault and
the proxy: an e-mail and a non-ASCII name, with look-alikes that must pass through."""

from __future__ import annotations

from redacto.vault import Vault


def vault() -> Vault:
    book = Vault()
    book.placeholder_for("EMAIL", "jane.doe@example.com")
    book.placeholder_for("NAME", "Zoë Ångström")
    return book


ANSWER = "Write to [EMAIL_1] — [NAME_1] said so; [NAME_9] and [TODO_1] stay, as do [ and ]."
RESTORED = (
    "Write to jane.doe@example.com — Zoë Ångström said so; [NAME_9] and [TODO_1] stay, "
    "as do [ and ]."
)
