"""`redacto proxy`: the de-identifying proxy (a thin layer over `redacto.proxy`)."""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
from enum import Enum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.cli._options import OcrChoice, OcrOption, UpstreamCaOption, ca_file
from redacto.cli._proxy_workers import (
    WorkersFailed,
    exit_with_parent,
    run_workers,
    worker_command,
)
from redacto.document import Category
from redacto.engines import Engine, EngineError
from redacto.models import open_model
from redacto.prompts import PromptError, PromptLibrary

if TYPE_CHECKING:  # the proxy extra is imported only when the command runs
    from redacto.proxy import Limits
    from redacto.proxy.vault_key import VaultKey

MEMORY = "memory"
WORKER_OWN_OPTIONS = frozenset({"listen", "workers", "worker"})
"""Options the parent of `--workers` sets itself for each worker."""


class ImagePolicy(StrEnum):
    REFUSE_REVIEW = "refuse-review"
    FORWARD_REVIEW = "forward-review"


@app.command("proxy")
def proxy_command(
    ctx: typer.Context,
    upstream: Annotated[
        str,
        typer.Option(
            "--upstream",
            help="The inference server's base URL, http:// or https://, e.g. "
            "http://127.0.0.1:8000. Its own key, if it needs one, is read from "
            "$REDACTO_UPSTREAM_API_KEY and sent as a Bearer token; the client's credential "
            "is not forwarded.",
        ),
    ],
    upstream_ca: UpstreamCaOption = None,
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
    no_ner: Annotated[
        bool,
        typer.Option(
            "--no-ner",
            help="Turn off the NER tier (Rampart): only the rules (and the model, with "
            "--model) read the text. Faster; misses names and addresses the rules cannot see.",
        ),
    ] = False,
    images: Annotated[
        ImagePolicy,
        typer.Option("--images", help="An image that ends NEEDS_REVIEW: refuse it, or forward it."),
    ] = ImagePolicy.REFUSE_REVIEW,
    ocr: OcrOption = OcrChoice.PPOCR,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds to wait for the upstream's answer.", min=0.1)
    ] = 120.0,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log",
            help="Log each request: method, route, status, time (never a value, path or query).",
        ),
    ] = False,
    pass_header: Annotated[
        list[str] | None,
        typer.Option(
            "--pass-header",
            help="A client header to forward as sent (repeat for more), refused when it "
            "holds what looks like personal data. No other client header reaches the "
            "upstream but a plain Accept; `--pass-header authorization` forwards the "
            "client's credential.",
        ),
    ] = None,
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
    vault: Annotated[
        str,
        typer.Option(
            "--vault",
            envvar="REDACTO_VAULT",
            help="Where the placeholders' values live: memory (this process, the default), "
            "or a redis://HOST:PORT/DB or rediss:// URL shared by every proxy of a "
            "deployment, each value sealed with the key from REDACTO_VAULT_KEY or "
            "--vault-key-file.",
        ),
    ] = MEMORY,
    vault_key_file: Annotated[
        Path | None,
        typer.Option(
            "--vault-key-file",
            help="A file holding the shared vault's key: 32 random bytes in base64 "
            "(`openssl rand -base64 32`), the same for every proxy. Default: REDACTO_VAULT_KEY.",
            dir_okay=False,
        ),
    ] = None,
    vault_ttl: Annotated[
        float,
        typer.Option(
            "--vault-ttl",
            help="Seconds a conversation in a shared vault is kept after its last request.",
            min=1,
        ),
    ] = 86_400.0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            help="Processes serving the same port (SO_REUSEPORT), one core each; more than "
            "one needs a shared vault (--vault redis://…).",
            min=1,
        ),
    ] = 1,
    worker: Annotated[bool, typer.Option("--worker", hidden=True)] = False,
) -> None:
    """Forward OpenAI-style requests with personal data replaced; put it back in answers."""
    from redacto.ner import NerUnavailableError
    from redacto.proxy import API_KEY_VARIABLE, Limits, ProxyConfig, build_proxy, run_forever
    from redacto.proxy.vault import VaultUnavailable
    from redacto.proxy.vault_key import VaultKeyError

    console = Console(stderr=True, soft_wrap=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    host, _, port_text = listen.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port_text.isdigit() or int(port_text) > 65535:
        console.print(f"[red]error:[/red] --listen must be HOST:PORT, not {listen!r}")
        raise typer.Exit(2)
    vault_key, shown_vault = _shared_vault(console, vault, vault_key_file, workers)
    if workers > 1:
        _run_workers(ctx, console, workers, host, int(port_text), upstream, shown_vault)
        return
    if worker:
        exit_with_parent()
    config = ProxyConfig(
        upstream=upstream,
        upstream_ca=ca_file(upstream_ca),
        category=category,
        ner=not no_ner,
        forward_review=images is ImagePolicy.FORWARD_REVIEW,
        ocr=ocr.value,
        read_timeout_s=timeout,
        access_log=access_log,
        pass_headers=tuple(pass_header or ()),
        upstream_api_key=os.environ.get(API_KEY_VARIABLE) or None,
        limits=_limits(Limits(), max_text, inspect_timeout),
        vault=vault,
        vault_key=vault_key,
        vault_ttl_s=vault_ttl,
    )
    engine: Engine | None = None
    try:
        prompts = PromptLibrary.load()
        if model is not None:
            engine = open_model(model)
        proxy = build_proxy(config, engine, prompts)
    except (EngineError, PromptError, NerUnavailableError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(2 if isinstance(error, ValueError) else 1) from None
    tiers = " + ".join(["rules", *(["NER"] if config.ner else []), *(["model"] if engine else [])])
    if engine is None:
        tiers += "; images refused"
    if shown_vault:
        tiers += f"; vault {shown_vault}"
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
            reuse_port=worker,
        )
    except KeyboardInterrupt:
        console.print("stopping…")
    except (VaultUnavailable, VaultKeyError) as error:  # unreachable; sealed with another key
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(1) from None
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


def _shared_vault(
    console: Console, vault: str, key_file: Path | None, workers: int
) -> tuple[VaultKey | None, str]:
    """The shared vault's key and its URL fit for the screen (no password); (None, "")
    for the memory vault. Exits when the key or the URL is missing or wrong."""
    if vault == MEMORY:
        if workers > 1:
            console.print(
                "[red]error:[/red] --workers needs a shared vault (--vault redis://…): "
                "each process's memory vault would be its own, and a conversation whose "
                "turns reach two workers would come back with placeholders"
            )
            raise typer.Exit(2)
        return None, ""
    from redacto.proxy.redis_vault import check_url
    from redacto.proxy.vault_key import VaultKey

    try:
        shown = check_url(vault)
        return VaultKey.load(key_file), shown
    except ValueError as error:  # VaultKeyError included; the message never holds the key
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(2) from None


def _run_workers(
    ctx: typer.Context,
    console: Console,
    workers: int,
    host: str,
    port: int,
    upstream: str,
    shown_vault: str,
) -> None:
    command = [*worker_command(), "proxy", *_passed_on(ctx)]
    try:
        run_workers(
            command,
            workers,
            host,
            port,
            on_ready=lambda bound: typer.echo(
                f"Proxy on http://{host}:{bound}/v1 → {upstream} ({workers} workers; vault "
                f"{shown_vault}). Stop with Ctrl-C."
            ),
        )
    except KeyboardInterrupt:
        console.print("stopping…")
    except WorkersFailed as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(1) from None
    except OSError as error:
        console.print(f"[red]error:[/red] cannot listen on {host}:{port}: {error.strerror}")
        raise typer.Exit(1) from None


def _passed_on(ctx: typer.Context) -> list[str]:
    """The options given on this command line, for each worker's; what came from the
    environment (the vault's URL, which may hold a password) the workers inherit."""
    args: list[str] = []
    for param in ctx.command.params:
        name = param.name
        if param.param_type_name != "option" or name is None or name in WORKER_OWN_OPTIONS:
            continue
        source = ctx.get_parameter_source(name)
        if source is None or source.name != "COMMANDLINE":  # typer's own click, vendored
            continue
        value = ctx.params[name]
        if getattr(param, "is_flag", False):
            args += [param.opts[0]] if value else []
        elif isinstance(value, (list, tuple)):  # a repeated option: each value its own
            for item in value:
                args += [param.opts[0], str(item)]
        else:
            args += [param.opts[0], str(value.value if isinstance(value, Enum) else value)]
    return args
