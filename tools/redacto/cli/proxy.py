"""`redacto proxy`: the de-identifying proxy (a thin layer over `redacto.proxy`)."""

from __future__ import annotations

import dataclasses
import logging
import signal
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.cli._options import OcrChoice, OcrOption
from redacto.document import Category
from redacto.engines import Engine, EngineError, open_engine
from redacto.prompts import PromptError, PromptLibrary
from redacto.redact_file import resolve_model_uri

if TYPE_CHECKING:  # the proxy extra is imported only when the command runs
    from redacto.proxy import Limits


class ImagePolicy(StrEnum):
    REFUSE_REVIEW = "refuse-review"
    FORWARD_REVIEW = "forward-review"


@app.command("proxy")
def proxy_command(
    upstream: Annotated[
        str,
        typer.Option(
            "--upstream", help="The inference server's base URL, e.g. http://127.0.0.1:8000."
        ),
    ],
    listen: Annotated[
        str, typer.Option("--listen", help="HOST:PORT to listen on (PORT 0: any free port).")
    ] = "127.0.0.1:8090",
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Turn on the model tier and image redaction with this model (name, "
            ".litertlm path or engine URI). Without it: the rules tier only, images refused.",
        ),
    ] = None,
    category: Annotated[
        Category,
        typer.Option("--category", help="Whose rules the text is read with.", case_sensitive=False),
    ] = Category.GENERAL,
    images: Annotated[
        ImagePolicy,
        typer.Option("--images", help="An image that ends NEEDS_REVIEW: refuse it, or forward it."),
    ] = ImagePolicy.REFUSE_REVIEW,
    ocr: OcrOption = OcrChoice.PPOCR,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to wait for the upstream's answer.", min=0.1)
    ] = 120.0,
    access_log: Annotated[
        bool, typer.Option("--access-log", help="Log each request (never its values).")
    ] = False,
    max_text: Annotated[
        int | None,
        typer.Option(
            "--max-text",
            help="Characters of text one request may hold; more is refused (413). "
            "Default 2,000,000.",
            min=1,
        ),
    ] = None,
    inspect_timeout: Annotated[
        float | None,
        typer.Option(
            "--inspect-timeout",
            help="Seconds a large request may take to inspect; later it is refused (503). "
            "Default 30.",
            min=0.1,
        ),
    ] = None,
) -> None:
    """Forward OpenAI-style requests with personal data replaced; put it back in answers."""
    from redacto.proxy import Limits, ProxyConfig, build_proxy, run_forever

    console = Console(stderr=True, soft_wrap=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    host, _, port_text = listen.rpartition(":")
    if not host or not port_text.isdigit() or int(port_text) > 65535:
        console.print(f"[red]error:[/red] --listen must be HOST:PORT, not {listen!r}")
        raise typer.Exit(2)
    config = ProxyConfig(
        upstream=upstream,
        category=category,
        forward_review=images is ImagePolicy.FORWARD_REVIEW,
        ocr=ocr.value,
        read_timeout_s=timeout,
        access_log=access_log,
        limits=_limits(Limits(), max_text, inspect_timeout),
    )
    engine: Engine | None = None
    try:
        prompts = PromptLibrary.load()
        if model is not None:
            engine = open_engine(resolve_model_uri(model))
        proxy = build_proxy(config, engine, prompts)
    except (EngineError, PromptError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(2 if isinstance(error, ValueError) else 1) from None
    tiers = "rules + model" if engine is not None else "rules only; images refused"
    # Ctrl-C stops the proxy even when the parent started it with SIGINT ignored (children
    # inherit SIG_IGN, and Python then installs no handler): a privacy proxy that cannot be
    # stopped keeps forwarding.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run_forever(
            proxy,
            host,
            int(port_text),
            on_ready=lambda port: typer.echo(
                f"Proxy on http://{host}:{port}/v1 → {upstream} ({tiers}). Stop with Ctrl-C."
            ),
        )
    except KeyboardInterrupt:
        console.print("stopping…")
    except OSError as error:
        console.print(f"[red]error:[/red] cannot listen on {listen}: {error.strerror}")
        raise typer.Exit(1) from None
    finally:
        proxy.upstream.close()
        if engine is not None:
            engine.close()


def _limits(default: Limits, max_text: int | None, inspect_timeout: float | None) -> Limits:
    return dataclasses.replace(
        default,
        max_text_chars=default.max_text_chars if max_text is None else max_text,
        scrub_timeout_s=default.scrub_timeout_s if inspect_timeout is None else inspect_timeout,
    )
