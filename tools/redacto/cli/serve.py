"""`redacto serve`: the local review page (a thin layer over `redacto.serve.ReviewServer`).

The model is opened once, before the page is offered; the printed address carries the
token that is the only way in. Ctrl-C, SIGTERM (how service managers stop a process) and
SIGHUP (the terminal closed) all stop the server the same way: no new job starts and the
running one is given its grace to leave the model (no job has anything on disk to remove).
"""

from __future__ import annotations

import logging
import signal
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.cli._options import (
    DEFAULT_DETECTORS,
    UPSTREAM_CA_HELP,
    DetectorsOption,
    ModelOption,
    NoRulesOption,
    OcrChoice,
    OcrOption,
    ca_file,
    open_detectors,
)
from redacto.cli.proofread import API_KEY_VARIABLE
from redacto.document import Category
from redacto.engines import EngineError
from redacto.models import open_model
from redacto.pipeline import PipelineOptions
from redacto.prompts import PromptError, PromptLibrary
from redacto.serve.jobs import MiB, ServeConfig


@app.command("serve")
def serve_command(
    model: ModelOption = None,
    port: Annotated[
        int, typer.Option("--port", help="Port on 127.0.0.1 (0: any free port).", min=0, max=65535)
    ] = 8765,
    ocr: OcrOption = OcrChoice.PPOCR,
    no_rules: NoRulesOption = False,
    detectors: DetectorsOption = DEFAULT_DETECTORS,
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
    max_megapixels: Annotated[
        int,
        typer.Option("--max-megapixels", help="Largest photo accepted, in megapixels.", min=1),
    ] = 50,
    proofread_upstream: Annotated[
        str | None,
        typer.Option(
            "--proofread-upstream",
            help="The OpenAI-compatible server (http://host:port or https://…) that proofreads "
            "what the page "
            f"is asked to proofread; the API key, if any, from ${API_KEY_VARIABLE}. Without "
            "it: Hunspell, offline.",
        ),
    ] = None,
    proofread_model: Annotated[
        str | None,
        typer.Option(
            "--proofread-model",
            help="The model to ask there (default: the first the server lists).",
        ),
    ] = None,
    proofread_upstream_ca: Annotated[
        Path | None,
        typer.Option(
            "--proofread-upstream-ca",
            help=UPSTREAM_CA_HELP,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Serve the review page on 127.0.0.1: upload, watch the steps and boxes, edit, approve;
    or proofread a PDF or photo privately, each mistake boxed as it arrives."""
    from redacto.proofread import UpstreamConfig, UpstreamError
    from redacto.serve import ReviewServer

    console = Console(stderr=True, soft_wrap=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    upstream = None
    if proofread_upstream is not None:
        upstream = UpstreamConfig(
            url=proofread_upstream, model=proofread_model, ca_file=ca_file(proofread_upstream_ca)
        )
        try:
            upstream.check()  # a bad URL or CA file is known before the model loads
        except UpstreamError as error:
            message = str(error).replace("--upstream", "--proofread-upstream")
            console.print(f"[red]error:[/red] {message}", highlight=False)
            raise typer.Exit(1) from None
    tiers = open_detectors(detectors, console)
    try:
        prompts = PromptLibrary.load()
        engine = open_model(model)
    except (EngineError, PromptError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(1) from None
    config = ServeConfig(
        ocr=ocr.value,
        options=PipelineOptions(rules=not no_rules, detectors=tiers, category=category),
        max_upload_bytes=max_upload_mb * MiB,
        max_pixels=max_megapixels * 1_000_000,
        proofread_upstream=upstream,
    )
    with engine:
        for stop_signal in STOP_SIGNALS:
            signal.signal(stop_signal, _stop)
        try:
            try:
                server = ReviewServer(engine, prompts, config, port=port)
            except OSError as error:
                console.print(f"[red]error:[/red] cannot start on 127.0.0.1:{port}: {error}")
                raise typer.Exit(1) from None
            # From here every way out goes through close(): a signal may come at any line.
            try:
                console.print(f"Model: {engine.identity.name}. Stop with Ctrl-C.", highlight=False)
                proofreader = upstream.url if upstream is not None else "Hunspell, offline"
                console.print(f"Proofreading: {proofreader}.", highlight=False)
                typer.echo(f"Review page: {server.url}", err=False)
                server.serve_forever()
            finally:
                server.close()
        except (KeyboardInterrupt, _Stopped):
            console.print("stopping…")


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class _Stopped(BaseException):
    """A stop signal arrived: leave `serve_forever` and clean up.

    While the server runs, uvicorn handles the signal (it stops, then raises it again for
    this handler); one that lands outside it comes here directly. A BaseException, as
    KeyboardInterrupt is, so that no `except Exception` on the way swallows it."""


def _stop(signum: int, frame: FrameType | None) -> None:
    # A second signal must not cut the clean-up short.
    for stop_signal in STOP_SIGNALS:
        signal.signal(stop_signal, signal.SIG_IGN)
    raise _Stopped(signum)
