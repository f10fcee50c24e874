"""The `redacto model` group and what its command modules share (`model.py`, `tune.py`).

Both attach their commands here, so neither imports the other.
"""

import typer
from rich.console import Console

from redacto.cli._app import app

model_app = typer.Typer(
    name="model",
    help="Build, verify and locate the .litertlm models described in models/*.toml.",
    no_args_is_help=True,
)
app.add_typer(model_app)

console = Console()
errors = Console(stderr=True)


def fail(error: Exception) -> typer.Exit:
    """Print the error on stderr and give the exit (code 1) for the caller to raise."""
    errors.print(f"[red]error:[/red] {error}", highlight=False, markup=True, soft_wrap=True)
    return typer.Exit(code=1)
