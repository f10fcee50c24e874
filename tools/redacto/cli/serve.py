"""`redacto serve`: the local review page (a thin layer over `redacto.serve.ReviewServer`).

The model is opened once, before the page is offered; the printed address carries the
token that is the only way in. Ctrl-C stops the server and removes every job's folder.
"""

from __future__ import annotations

import logging
from typing import Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.cli._options import ModelOption, NoRulesOption, OcrChoice, OcrOption
from redacto.document import Category
from redacto.engines import EngineError, open_engine
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.redact_file import resolve_model_uri
from redacto.serve.jobs import MiB, ServeConfig


@app.command("serve")
def serve_command(
    model: ModelOption = None,
    port: Annotated[
        int, typer.Option("--port", help="Port on 127.0.0.1 (0: any free port).", min=0, max=65535)
    ] = 8765,
    ocr: OcrOption = OcrChoice.PPOCR,
    no_rules: NoRulesOption = False,
    category: Annotated[
        Category | None,
        typer.Option(
            "--category",
            help="What every uploaded document is, when you know: skips the classify step.",
            case_sensitive=False,
        ),
    ] = None,
    max_upload_mb: Annotated[
        int, typer.Option("--max-upload-mb", help="Largest file accepted, in MiB.", min=1)
    ] = 20,
) -> None:
    """Serve the review page on 127.0.0.1: upload, watch the steps and boxes, edit, approve."""
    from redacto.serve import ReviewServer

    console = Console(stderr=True, soft_wrap=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        uri = resolve_model_uri(model)
        prompts = PromptLibrary.load()
        engine = open_engine(uri)
    except (EngineError, PromptError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(1) from None
    config = ServeConfig(
        ocr=ocr.value,
        options=PipelineOptions(rules=not no_rules, category=category),
        max_upload_bytes=max_upload_mb * MiB,
    )
    with engine:
        try:
            server = ReviewServer(engine, prompts, config, port=port)
        except OSError as error:
            console.print(f"[red]error:[/red] cannot listen on 127.0.0.1:{port}: {error}")
            raise typer.Exit(1) from None
        console.print(f"Model: {engine.identity.name}. Stop with Ctrl-C.", highlight=False)
        typer.echo(f"Review page: {server.url}", err=False)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            console.print("stopping…")
        finally:
            server.board.close()
            server.httpd.server_close()
