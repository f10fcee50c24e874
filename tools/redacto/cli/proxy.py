"""`redacto proxy`: the de-identifying proxy (a thin layer over `redacto.proxy`)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import signal
import socket
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from redacto.cli._app import app
from redacto.cli._options import OcrChoice, OcrOption, UpstreamCaOption, ca_file
from redacto.document import Category
from redacto.engines import Engine, EngineError
from redacto.models import open_model
from redacto.prompts import PromptError, PromptLibrary

if TYPE_CHECKING:  # the proxy extra is imported only when the command runs
    from redacto.proxy import Limits, ProxyConfig
    from redacto.proxy.vault_key import VaultKey

MEMORY = "memory"


class ImagePolicy(StrEnum):
    REFUSE_REVIEW = "refuse-review"
    FORWARD_REVIEW = "forward-review"


@app.command("proxy")
def proxy_command(
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
    images_strict: Annotated[
        bool,
        typer.Option(
            "--images-strict",
            help="Burn every word of an image no reader could explain (not a dictionary "
            "word of its language, nor kept by a rule of its category: docs/lexicon.md), as "
            "redact --strict does. Without it such an image ends NEEDS_REVIEW (see --images).",
        ),
    ] = False,
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
            help="Seconds from a request's arrival (its body read) to its forwarding, its "
            "wait for its conversation and for a scrub thread included; later it is refused "
            "(503) and its conversation's vault left as it was. Default 30.",
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
            help="Processes serving the same port, one core each; more than one needs a "
            "shared vault (--vault redis://…).",
            min=1,
        ),
    ] = 1,
) -> None:
    """Forward OpenAI-style requests with personal data replaced; put it back in answers."""
    from redacto.proxy import API_KEY_VARIABLE, Limits, ProxyConfig, listening_socket
    from redacto.proxy.workers import WorkersFailed, run_workers

    console = Console(stderr=True, soft_wrap=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    host, _, port_text = listen.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port_text.isdigit() or int(port_text) > 65535:
        console.print(f"[red]error:[/red] --listen must be HOST:PORT, not {listen!r}")
        raise typer.Exit(2)
    vault_key, shown_vault = _shared_vault(console, vault, vault_key_file, workers)
    config = ProxyConfig(
        upstream=upstream,
        upstream_ca=ca_file(upstream_ca),
        category=category,
        ner=not no_ner,
        forward_review=images is ImagePolicy.FORWARD_REVIEW,
        images_strict=images_strict,
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
    tiers = " + ".join(["rules", *(["NER"] if config.ner else []), *(["model"] if model else [])])
    if model is None:
        tiers += "; images refused"
    if workers > 1:
        tiers += f"; {workers} workers"
    if shown_vault:
        tiers += f"; vault {shown_vault}"
    # Ctrl-C stops the proxy even when the parent started it with SIGINT ignored (children
    # inherit SIG_IGN, and Python then installs no handler): a privacy proxy that cannot be
    # stopped keeps forwarding.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    address = (host, int(port_text))

    def listen_on() -> socket.socket:
        try:
            return listening_socket(*address)
        except OSError as error:
            console.print(f"[red]error:[/red] cannot listen on {listen}: {error.strerror}")
            raise typer.Exit(1) from None

    def ready(port: int) -> None:
        typer.echo(f"Proxy on http://{host}:{port}/v1 → {upstream} ({tiers}). Stop with Ctrl-C.")

    if workers == 1:
        _serve(console, config, model, listen_on, ready)
        return
    shared = listen_on()  # before the workers start: one port for all, port 0 resolved once
    try:
        run_workers(
            shared,
            workers,
            lambda sock, told: _worker(console, config, model, sock, told),
            functools.partial(ready, shared.getsockname()[1]),
        )
    except KeyboardInterrupt:
        console.print("stopping…")
    except WorkersFailed as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(1) from None


def _serve(
    console: Console,
    config: ProxyConfig,
    model: str | None,
    listen_on: Callable[[], socket.socket],
    ready: Callable[[int], None],
) -> None:
    """Build the proxy, then serve it on the socket `listen_on` gives until Ctrl-C or
    SIGTERM; exits 2 for a wrong option, 1 for what failed at start (the model, Redis, the
    address)."""
    from redacto.ner import NerUnavailableError
    from redacto.proxy import build_proxy, run_forever
    from redacto.proxy.vault import VaultUnavailable
    from redacto.proxy.vault_key import VaultKeyError

    engine: Engine | None = None
    try:
        prompts = PromptLibrary.load()
        if model is not None:
            engine = open_model(model)
        proxy = build_proxy(config, engine, prompts)
    except (EngineError, PromptError, NerUnavailableError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(2 if isinstance(error, ValueError) else 1) from None
    try:
        sock = listen_on()
        run_forever(proxy, sock, on_ready=ready)
    except KeyboardInterrupt:
        console.print("stopping…")
    except (VaultUnavailable, VaultKeyError) as error:  # unreachable; sealed with another key
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(1) from None
    finally:
        proxy.upstream.close()
        if engine is not None:
            engine.close()


def _worker(
    console: Console,
    config: ProxyConfig,
    model: str | None,
    sock: socket.socket,
    ready: Callable[[], None],
) -> int:
    """One `--workers` process's life (`proxy.workers.ServeOne`)."""
    try:
        _serve(console, config, model, lambda: sock, lambda _port: ready())
    except typer.Exit as stopped:
        return stopped.exit_code
    return 0


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
