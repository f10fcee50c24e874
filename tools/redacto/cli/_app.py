"""The root command. Command modules attach themselves to `app` or add a sub-app."""

import typer

app = typer.Typer(
    name="redacto",
    help="Offline document redaction: OCR, a small on-device Gemma model, black boxes.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
