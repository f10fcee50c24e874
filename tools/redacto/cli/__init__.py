"""`redacto` command line: a thin typer layer over the Python API.

Each command module below registers its commands on the shared `app`; the logic lives in
the library so tests call it directly.
"""

from redacto.cli import (  # noqa: F401 - registers commands
    eval,
    eval_strict,
    eval_validator,
    lexicon,
    model,
    prompts,
    proofread,
    proxy,
    redact,
    rules,
    serve,
    tune,
)
from redacto.cli._app import app

__all__ = ["app"]
