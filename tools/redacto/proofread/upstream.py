"""Stream a proofreading answer from an OpenAI-compatible server (`POST /v1/chat/completions`).

Plain `http.client`: one streamed request, read line by line as server-sent events, the
text of each `delta.content` handed on as it arrives. The key comes from the environment
(`REDACTO_UPSTREAM_API_KEY`), never from the command line, where other users of the
machine could read it. Everything that is not a well-formed, finished stream fails closed
with `UpstreamError`: no connection, an HTTP error, an answer that is not a stream of
chat-completion chunks, a stream that ends without its finish (`finish_reason` or
`[DONE]`), an error event, a read that times out. Messages name the failure, never the
text sent or received.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import ssl
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import jinja2

from redacto.resources import shipped_dir

API_KEY_VARIABLE = "REDACTO_UPSTREAM_API_KEY"
"""The environment variable the upstream's API key is read from (sent as a Bearer token)."""
MAX_ERROR_CHARS = 200
"""How much of an upstream's own error message is repeated (it is the server's text)."""


class UpstreamError(RuntimeError):
    """The upstream could not be reached, refused, answered garbage or broke off."""


@dataclass(frozen=True)
class UpstreamConfig:
    """Where the proofreading model is and how long to wait for it."""

    url: str
    """The server's base URL: `http://host:port` or `http://host:port/v1`."""
    model: str | None = None
    """The model to ask for; None: the first one the server lists at `/v1/models`."""
    timeout_s: float = 120.0
    """Seconds to connect, and to wait for each next piece of the answer."""

    def endpoint(self, name: str) -> tuple[str, str, int, str]:
        """(scheme, host, port, path) of `/v1/<name>` on this server."""
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UpstreamError(f"--upstream must be an http:// or https:// URL, not {self.url!r}")
        base = parts.path.rstrip("/")
        if not base.endswith("/v1"):
            base += "/v1"
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return parts.scheme, parts.hostname, port, f"{base}/{name}"


@dataclass(frozen=True)
class ProofreadPrompt:
    """The system and user messages, from `prompts/proofread/proofread.j2`."""

    system: str
    user: str

    @classmethod
    def render(cls, document: str, language: str | None) -> ProofreadPrompt:
        path = shipped_dir("prompts") / "proofread" / "proofread.j2"
        environment = jinja2.Environment(
            undefined=jinja2.StrictUndefined, keep_trailing_newline=False, autoescape=False
        )
        body = environment.from_string(path.read_text(encoding="utf-8")).render(
            document=document, language=language or ""
        )
        system, _, user = body.partition("<!-- user -->")
        return cls(system.replace("<!-- system -->", "").strip(), user.strip())


Opener = Callable[[str, str, int, float], http.client.HTTPConnection]


def _open(scheme: str, host: str, port: int, timeout: float) -> http.client.HTTPConnection:
    if scheme == "https":
        return http.client.HTTPSConnection(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    return http.client.HTTPConnection(host, port, timeout=timeout)


def _headers() -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    key = os.environ.get(API_KEY_VARIABLE)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def first_model(config: UpstreamConfig, opener: Opener = _open) -> str:
    """The first model id the server lists at `/v1/models`."""
    scheme, host, port, path = config.endpoint("models")
    connection = opener(scheme, host, port, config.timeout_s)
    try:
        connection.request("GET", path, headers=_headers())
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise UpstreamError(_status_message(response.status, body))
        listed = json.loads(body).get("data") or []
        ids = [item["id"] for item in listed if isinstance(item, dict) and item.get("id")]
    except (OSError, http.client.HTTPException) as error:
        raise _unreachable(config, error) from None
    except (ValueError, RecursionError, AttributeError, TypeError) as error:
        raise UpstreamError("the upstream's /v1/models answer is not a model list") from error
    finally:
        connection.close()
    if not ids:
        raise UpstreamError(
            "the upstream lists no model at /v1/models: name one with --upstream-model"
        )
    return str(ids[0])


def stream_answer(
    config: UpstreamConfig, prompt: ProofreadPrompt, opener: Opener = _open
) -> Iterator[str]:
    """The answer's text, piece by piece as the server streams it.

    Raises `UpstreamError` (possibly after some pieces) when the stream is not a complete,
    well-formed chat-completions stream.
    """
    model = config.model or first_model(config, opener)
    body = json.dumps(
        {
            "model": model,
            "stream": True,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        },
        ensure_ascii=False,
    ).encode()
    scheme, host, port, path = config.endpoint("chat/completions")
    connection = opener(scheme, host, port, config.timeout_s)
    try:
        try:
            connection.request("POST", path, body=body, headers=_headers())
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            raise _unreachable(config, error) from None
        if response.status != 200:
            raise UpstreamError(_status_message(response.status, _read_some(response)))
        kind = (response.getheader("Content-Type") or "").split(";")[0].strip().lower()
        if kind == "application/json":
            yield _whole_answer(_read_some(response, limit=None))
            return
        yield from _events(response, config.timeout_s)
    finally:
        connection.close()


def _events(response: http.client.HTTPResponse, timeout_s: float) -> Iterator[str]:
    """The content of each chunk of an SSE stream; checks the stream ends as it should."""
    finished = False
    data: list[bytes] = []
    while True:
        try:
            raw = response.readline()
        except TimeoutError:
            raise UpstreamError(f"the upstream sent nothing for {timeout_s:g} s") from None
        except (OSError, http.client.HTTPException):
            raise UpstreamError("the upstream broke off mid-stream") from None
        if not raw:
            break
        line = raw.rstrip(b"\r\n")
        if line.startswith(b"data:"):
            data.append(line[5:].removeprefix(b" "))
            continue
        if line or not data:
            continue  # a comment, an event name, or a keep-alive
        payload, data = b"\n".join(data), []
        if payload.strip() == b"[DONE]":
            finished = True
            break
        text, done = _chunk_text(payload)
        finished = finished or done
        if text:
            yield text
    if data and b"\n".join(data).strip() == b"[DONE]":
        finished = True
    if not finished:
        raise UpstreamError("the upstream broke off mid-stream (no finish_reason, no [DONE])")


def _chunk_text(payload: bytes) -> tuple[str, bool]:
    """(the text of one chunk, whether it finished the answer)."""
    try:
        chunk = json.loads(payload)
    except (ValueError, RecursionError):
        raise UpstreamError("the upstream answered something that is not a JSON event") from None
    if not isinstance(chunk, dict):
        raise UpstreamError("the upstream answered something that is not a completion chunk")
    if "error" in chunk:
        raise UpstreamError("the upstream reported an error mid-stream: " + _error_of(chunk))
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        raise UpstreamError("the upstream answered something that is not a completion chunk")
    text, finished = "", False
    for choice in choices:
        if not isinstance(choice, dict) or choice.get("index", 0) != 0:
            continue
        delta = choice.get("delta") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            text += content
        reason = choice.get("finish_reason")
        if reason == "length":
            raise UpstreamError("the upstream's answer was cut at its length limit")
        if reason is not None:
            finished = True
    return text, finished


def _whole_answer(body: bytes) -> str:
    """A server that ignored `stream: true` and sent the whole completion at once."""
    try:
        answer = json.loads(body)
        choice = answer["choices"][0]
        if choice.get("finish_reason") == "length":
            raise UpstreamError("the upstream's answer was cut at its length limit")
        content = choice["message"]["content"]
    except (ValueError, RecursionError, KeyError, IndexError, TypeError, AttributeError):
        raise UpstreamError("the upstream answered something that is not a completion") from None
    if not isinstance(content, str):
        raise UpstreamError("the upstream's completion holds no text")
    return content


def _read_some(response: http.client.HTTPResponse, limit: int | None = 65_536) -> bytes:
    try:
        return response.read() if limit is None else response.read(limit)
    except (OSError, http.client.HTTPException):
        return b""


def _status_message(status: int, body: bytes) -> str:
    detail = ""
    with contextlib.suppress(ValueError, RecursionError, TypeError):
        detail = _error_of(json.loads(body))
    return f"the upstream answered HTTP {status}" + (f": {detail}" if detail else "")


def _error_of(value: object) -> str:
    error = value.get("error") if isinstance(value, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return str(message)[:MAX_ERROR_CHARS] if message else "no message"


def _unreachable(config: UpstreamConfig, error: BaseException) -> UpstreamError:
    reason = getattr(error, "strerror", None) or type(error).__name__
    return UpstreamError(f"cannot reach the upstream at {config.url}: {reason}")
