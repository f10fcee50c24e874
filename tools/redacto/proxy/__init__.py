"""`redacto proxy`: de-identify prompts on their way to a self-hosted model, restore them on
the way back.

An OpenAI-compatible client talks to the proxy as if it were the inference server (vLLM,
llama.cpp's server, Ollama). Each request's text goes through the rules tier and, with a
model, the model tier; values become per-conversation placeholders (`vault`); images go
through the photo pipeline (`images`). The upstream answer, whole or streamed, has the
values put back (`restore`). The vaults live in this process's memory, or in Redis, sealed,
shared by many processes and hosts (`redis_vault`). docs/proxy.md has the design and the
measured figures.

    proxy = build_proxy(ProxyConfig(upstream="http://127.0.0.1:8000"))
    run_forever(proxy, listening_socket("127.0.0.1", 8090))

`Proxy` is an ASGI application; `run_forever` serves it with uvicorn (`runner`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from redacto.asgi.runner import listening_socket
from redacto.document import Category
from redacto.engines import Engine
from redacto.prompts import PromptLibrary
from redacto.proxy.detectors import ModelTier, NerTier, RuleTier
from redacto.proxy.images import ImageRedactor
from redacto.proxy.limits import Limits
from redacto.proxy.outbound import API_KEY_VARIABLE, HeaderPolicy
from redacto.proxy.payload import RequestRedactor
from redacto.proxy.runner import ProxyServer, run_forever
from redacto.proxy.server import Proxy, model_worker
from redacto.proxy.vault import Vaults, VaultStore
from redacto.upstream import UpstreamPool

if TYPE_CHECKING:
    from redacto.proxy.vault_key import VaultKey

MEMORY = "memory"
"""`ProxyConfig.vault` for the default: every vault in this process's memory."""

__all__ = [
    "API_KEY_VARIABLE",
    "MEMORY",
    "Limits",
    "Proxy",
    "ProxyConfig",
    "ProxyServer",
    "build_proxy",
    "listening_socket",
    "run_forever",
]


@dataclass(frozen=True)
class ProxyConfig:
    """What `redacto proxy` is started with."""

    upstream: str
    """The inference server's base URL, `http://` or `https://`."""
    upstream_ca: str | None = None
    """A PEM file to trust for an https upstream, besides the system's CA store and
    `SSL_CERT_FILE` (`--upstream-ca`)."""
    category: Category = Category.GENERAL
    ner: bool = False
    """The NER tier reads every text the conversation has not shown it, on a scrub thread
    (`redacto proxy` turns it on unless `--no-ner`; the library's default, like the
    pipeline's, leaves it off)."""
    """Whose rules the rules tier runs (and what the model tier is told the text is)."""
    forward_review: bool = False
    """Forward an image whose redaction ended NEEDS_REVIEW (default: refuse it)."""
    images_strict: bool = False
    """Burn every word of an image no reader could explain (the pipeline's `strict`),
    rather than let the image end NEEDS_REVIEW for them."""
    ocr: str = "ppocr"
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 120.0
    max_conversations: int = 1_000
    conversation_ttl_s: float = 3_600.0
    max_values: int = 10_000
    access_log: bool = False
    limits: Limits = field(default_factory=Limits)
    """Bounds on one client's requests and connections (sizes, timeouts)."""
    vault: str = MEMORY
    """Where the vaults live: `memory` (this process), or a `redis://` / `rediss://` URL
    shared by every proxy of a deployment (then `vault_key` is required)."""
    vault_key: VaultKey | None = field(default=None, repr=False)
    vault_ttl_s: float = 86_400.0
    """A conversation in Redis is forgotten this long after its last request."""
    vault_timeout_s: float = 2.0
    """Each round trip to Redis; a request that waits longer is refused (503)."""
    pass_headers: tuple[str, ...] = ()
    """Client headers forwarded as sent (checked like names: one that holds a value refuses
    the request); no other client header reaches the upstream but a plain `Accept`."""
    upstream_api_key: str | None = field(default=None, repr=False)
    """The upstream's own key, sent as `Authorization: Bearer …` (the client's credential
    is never forwarded unless `pass_headers` names `authorization`)."""


def build_proxy(
    config: ProxyConfig, engine: Engine | None = None, prompts: PromptLibrary | None = None
) -> Proxy:
    """A proxy for `config`; with `engine`, the model tier and images are on. Raises
    ValueError for a passthrough header the proxy must write itself, and
    `NerUnavailableError` when `config.ner` asks for a model that is not installed; ValueError
    too for an upstream URL that is not http(s) or a CA file that cannot be read."""
    headers = HeaderPolicy.of(config.pass_headers, config.upstream_api_key)
    library = prompts or PromptLibrary.load()
    redactor = RequestRedactor(rules=RuleTier(config.category))
    if config.ner:
        redactor.ner = NerTier(library, config.category)
    if engine is not None:
        redactor.model = ModelTier(engine, library, category=config.category)
        redactor.images = ImageRedactor(
            engine,
            library,
            ocr=config.ocr,
            forward_review=config.forward_review,
            strict=config.images_strict,
        )
        redactor.run_blocking = model_worker()
    return Proxy(
        upstream=UpstreamPool(
            config.upstream,
            connect_timeout=config.connect_timeout_s,
            read_timeout=config.read_timeout_s,
            ca_file=config.upstream_ca,
        ),
        redactor=redactor,
        vaults=_vaults(config),
        access_log=config.access_log,
        limits=config.limits,
        headers=headers,
    )


def _vaults(config: ProxyConfig) -> Vaults:
    if config.vault == MEMORY:
        return VaultStore(
            max_conversations=config.max_conversations,
            ttl_s=config.conversation_ttl_s,
            max_values=config.max_values,
        )
    from redacto.proxy.redis_vault import RedisVaultStore
    from redacto.proxy.vault_key import VaultKeyError

    if config.vault_key is None:
        raise VaultKeyError("a shared vault needs its key (REDACTO_VAULT_KEY)")
    return RedisVaultStore.from_url(
        config.vault,
        config.vault_key,
        ttl_s=config.vault_ttl_s,
        timeout_s=config.vault_timeout_s,
        max_values=config.max_values,
    )
